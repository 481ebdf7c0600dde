import { asc, eq, sql } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { organs, specialties, surgeries, surgerySteps } from '../../db/schema.ts';
import { ORGANS, SPECIALTIES, SURGERIES } from './seed-data.ts';

const name = (row: { nameFr: string; nameEn: string }, lang: Language) => (lang === 'fr' ? row.nameFr : row.nameEn);

export function createVocabularyService(db: Db) {
  return {
    async specialties(lang: Language) {
      const rows = await db.select().from(specialties).orderBy(asc(specialties.position));
      return rows.map((r) => ({ id: r.id, code: r.code, name: name(r, lang) }));
    },

    async organs(lang: Language) {
      const rows = await db.select().from(organs).orderBy(asc(organs.position));
      return rows.map((r) => ({ id: r.id, code: r.code, name: name(r, lang), icon: r.icon }));
    },

    async surgeries(lang: Language) {
      const rows = await db.select().from(surgeries).orderBy(asc(surgeries.position));
      const steps = await db.select().from(surgerySteps).orderBy(asc(surgerySteps.position));
      return rows.map((r) => ({
        id: r.id,
        code: r.code,
        name: name(r, lang),
        organId: r.organId,
        steps: steps
          .filter((s) => s.surgeryId === r.id)
          .map((s) => ({ id: s.id, code: s.code, name: name(s, lang), position: s.position })),
      }));
    },

    /**
     * Inserts the reference vocabularies, keyed by code: entries already there keep their ids
     * (and any admin edits of their names); missing ones are added. Safe at every start.
     */
    async seed(): Promise<void> {
      await db
        .insert(specialties)
        .values(SPECIALTIES.map((s, i) => ({ code: s.code, nameFr: s.name.fr, nameEn: s.name.en, position: i })))
        .onConflictDoNothing({ target: specialties.code });
      await db
        .insert(organs)
        .values(ORGANS.map((o, i) => ({ code: o.code, nameFr: o.name.fr, nameEn: o.name.en, icon: o.icon, position: i })))
        .onConflictDoNothing({ target: organs.code });
      const organIds = new Map((await db.select({ id: organs.id, code: organs.code }).from(organs)).map((o) => [o.code, o.id]));
      await db
        .insert(surgeries)
        .values(
          SURGERIES.map((s, i) => ({
            code: s.code,
            nameFr: s.name.fr,
            nameEn: s.name.en,
            organId: s.organ ? (organIds.get(s.organ) ?? null) : null,
            position: i,
          })),
        )
        .onConflictDoNothing({ target: surgeries.code });
      for (const surgery of SURGERIES) {
        const [row] = await db.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.code, surgery.code));
        if (!row) continue;
        await db
          .insert(surgerySteps)
          .values(
            surgery.steps.map((step, i) => ({
              surgeryId: row.id,
              code: step.code,
              nameFr: step.name.fr,
              nameEn: step.name.en,
              position: i,
            })),
          )
          .onConflictDoNothing({ target: [surgerySteps.surgeryId, surgerySteps.code] });
      }
    },

    async counts() {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(surgeries);
      return { surgeries: row?.n ?? 0 };
    },
  };
}
export type VocabularyService = ReturnType<typeof createVocabularyService>;
