import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import type { VocabularyListFilter } from '@sutura/domain/vocabularies';
import type { Db } from '../../db/client.ts';
import { organs, specialties, surgeries, surgerySteps, vocabularySeeds } from '../../db/schema.ts';
import { ORGANS, SPECIALTIES, SURGERIES } from './seed-data.ts';
import { localName } from '../cases/names.ts';

const name = localName;

/** The kind of a term in `vocabulary_seeds`; a step's code there is `<surgery code>/<step code>`. */
/** `surgery_organ`: a seeded surgery given its seeded organ, once (for surgeries seeded before it had one). */
type SeedKind = 'specialty' | 'organ' | 'surgery' | 'step' | 'surgery_organ';

/**
 * The public lists. By default the pickers of a new choice (sign-up specialty, the case form's
 * surgery, organ and key steps): only terms in use today. With `includeRetired`, every term, the
 * retired ones marked: the list filters, and a saved case or profile that keeps one
 * (docs/admin-catalog.md).
 */
export function createVocabularyService(db: Db) {
  async function seededCodes(kind: SeedKind): Promise<Set<string>> {
    const rows = await db.select({ code: vocabularySeeds.code }).from(vocabularySeeds).where(eq(vocabularySeeds.kind, kind));
    return new Set(rows.map((r) => r.code));
  }

  async function markSeeded(kind: SeedKind, codes: readonly string[]) {
    if (!codes.length) return;
    await db
      .insert(vocabularySeeds)
      .values(codes.map((code) => ({ kind, code })))
      .onConflictDoNothing();
  }

  return {
    async specialties(lang: Language, { includeRetired }: VocabularyListFilter = { includeRetired: false }) {
      const rows = await db
        .select()
        .from(specialties)
        .where(includeRetired ? undefined : isNull(specialties.retiredAt))
        .orderBy(asc(specialties.position));
      return rows.map((r) => ({ id: r.id, code: r.code, name: name(r, lang), retired: r.retiredAt !== null }));
    },

    async organs(lang: Language, { includeRetired }: VocabularyListFilter = { includeRetired: false }) {
      const rows = await db
        .select()
        .from(organs)
        .where(includeRetired ? undefined : isNull(organs.retiredAt))
        .orderBy(asc(organs.position));
      return rows.map((r) => ({ id: r.id, code: r.code, name: name(r, lang), retired: r.retiredAt !== null, icon: r.icon }));
    },

    /** Each surgery with its steps; `includeRetired` brings retired surgeries and retired steps alike. */
    async surgeries(lang: Language, { includeRetired }: VocabularyListFilter = { includeRetired: false }) {
      const rows = await db
        .select()
        .from(surgeries)
        .where(includeRetired ? undefined : isNull(surgeries.retiredAt))
        .orderBy(asc(surgeries.position));
      const steps = rows.length
        ? await db
            .select()
            .from(surgerySteps)
            .where(
              and(
                includeRetired ? undefined : isNull(surgerySteps.retiredAt),
                inArray(
                  surgerySteps.surgeryId,
                  rows.map((r) => r.id),
                ),
              ),
            )
            .orderBy(asc(surgerySteps.position))
        : [];
      return rows.map((r) => ({
        id: r.id,
        code: r.code,
        name: name(r, lang),
        retired: r.retiredAt !== null,
        organId: r.organId,
        steps: steps
          .filter((s) => s.surgeryId === r.id)
          .map((s) => ({ id: s.id, code: s.code, name: name(s, lang), retired: s.retiredAt !== null, position: s.position })),
      }));
    },

    /**
     * Adds the reference terms the seed never added before, keyed by code, and records them in
     * `vocabulary_seeds`. A term already there keeps its id and whatever an administrator did to
     * it (renamed, reordered, retired); one they deleted is not brought back. Safe at every start.
     * A term whose code is already taken (a database seeded before the log existed) is only recorded.
     */
    async seed(): Promise<void> {
      const doneSpecialties = await seededCodes('specialty');
      const newSpecialties = SPECIALTIES.map((s, i) => ({ s, i })).filter(({ s }) => !doneSpecialties.has(s.code));
      if (newSpecialties.length) {
        await db
          .insert(specialties)
          .values(newSpecialties.map(({ s, i }) => ({ code: s.code, nameFr: s.name.fr, nameEn: s.name.en, position: i })))
          .onConflictDoNothing();
        await markSeeded(
          'specialty',
          newSpecialties.map(({ s }) => s.code),
        );
      }

      const doneOrgans = await seededCodes('organ');
      const newOrgans = ORGANS.map((o, i) => ({ o, i })).filter(({ o }) => !doneOrgans.has(o.code));
      if (newOrgans.length) {
        await db
          .insert(organs)
          .values(newOrgans.map(({ o, i }) => ({ code: o.code, nameFr: o.name.fr, nameEn: o.name.en, icon: o.icon, position: i })))
          .onConflictDoNothing();
        await markSeeded(
          'organ',
          newOrgans.map(({ o }) => o.code),
        );
      }

      const organIds = new Map((await db.select({ id: organs.id, code: organs.code }).from(organs)).map((o) => [o.code, o.id]));
      const doneSurgeries = await seededCodes('surgery');
      const newSurgeries = SURGERIES.map((s, i) => ({ s, i })).filter(({ s }) => !doneSurgeries.has(s.code));
      if (newSurgeries.length) {
        await db
          .insert(surgeries)
          .values(
            newSurgeries.map(({ s, i }) => ({
              code: s.code,
              nameFr: s.name.fr,
              nameEn: s.name.en,
              organId: s.organ ? (organIds.get(s.organ) ?? null) : null,
              position: i,
            })),
          )
          .onConflictDoNothing();
        await markSeeded(
          'surgery',
          newSurgeries.map(({ s }) => s.code),
        );
      }

      // A surgery seeded before its organ was known gets it, once, and only while it has none: an
      // administrator's choice (another organ, or none after this) is never undone.
      const doneLinks = await seededCodes('surgery_organ');
      const links = SURGERIES.filter((s) => s.organ && !doneLinks.has(s.code));
      for (const s of links) {
        const organId = organIds.get(s.organ!);
        if (organId)
          await db
            .update(surgeries)
            .set({ organId })
            .where(and(eq(surgeries.code, s.code), isNull(surgeries.organId)));
      }
      if (links.length) {
        await markSeeded(
          'surgery_organ',
          links.map((s) => s.code),
        );
      }

      const doneSteps = await seededCodes('step');
      const surgeryIds = new Map((await db.select({ id: surgeries.id, code: surgeries.code }).from(surgeries)).map((s) => [s.code, s.id]));
      for (const surgery of SURGERIES) {
        const surgeryId = surgeryIds.get(surgery.code);
        // Deleted by an administrator: its steps went with it.
        if (!surgeryId) continue;
        const newSteps = surgery.steps.map((step, i) => ({ step, i })).filter(({ step }) => !doneSteps.has(`${surgery.code}/${step.code}`));
        if (!newSteps.length) continue;
        await db
          .insert(surgerySteps)
          .values(newSteps.map(({ step, i }) => ({ surgeryId, code: step.code, nameFr: step.name.fr, nameEn: step.name.en, position: i })))
          .onConflictDoNothing();
        await markSeeded(
          'step',
          newSteps.map(({ step }) => `${surgery.code}/${step.code}`),
        );
      }
    },

    async counts() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(surgeries);
      return { surgeries: row?.n ?? 0 };
    },
  };
}
export type VocabularyService = ReturnType<typeof createVocabularyService>;
