import { eq, inArray } from 'drizzle-orm';
import type { AuditSubject } from '@sutura/domain/admin';
import { AUDIT_SUBJECT_GONE, AUDIT_SUBJECT_WORDS } from '@sutura/domain/audit';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { bestCases, media, organs, programmes, specialties, surgeries, surgerySteps, users, videos } from '../../db/schema.ts';
import { localName, type Named } from '../cases/names.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entity kinds whose rows can be named; the key of a subject in the answer. */
type Kind = keyof typeof AUDIT_SUBJECT_GONE;
const KINDS = Object.keys(AUDIT_SUBJECT_GONE) as Kind[];
const isKind = (entity: string): entity is Kind => (KINDS as string[]).includes(entity);

export const subjectKey = (entity: string, entityId: string | null) => `${entity}:${entityId?.toLowerCase() ?? ''}`;

/** What a case is to an administrator: its surgery, the day it was sent (else created), its author. */
interface CaseRow {
  surgery: Named | null;
  sentAt: Date | null;
  createdAt: Date;
  firstName: string;
  lastName: string;
}

/**
 * Names what each audit entry is about (docs/admin.md, the audit log): the rows of one page are
 * read with one query per kind of entity present on it, whatever the page's length.
 */
export function createAuditSubjects(deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;

  const caseColumns = {
    surgeryNameFr: surgeries.nameFr,
    surgeryNameEn: surgeries.nameEn,
    sentAt: videos.sentAt,
    createdAt: videos.createdAt,
    firstName: users.firstName,
    lastName: users.lastName,
  };
  type CaseColumns = {
    surgeryNameFr: string | null;
    surgeryNameEn: string | null;
    sentAt: Date | null;
    createdAt: Date;
    firstName: string;
    lastName: string;
  };
  const caseOf = (r: CaseColumns): CaseRow => ({
    surgery: r.surgeryNameFr !== null && r.surgeryNameEn !== null ? { nameFr: r.surgeryNameFr, nameEn: r.surgeryNameEn } : null,
    sentAt: r.sentAt,
    createdAt: r.createdAt,
    firstName: r.firstName,
    lastName: r.lastName,
  });

  function caseLabel(row: CaseRow, lang: Language): string {
    const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone }).format(row.sentAt ?? row.createdAt);
    const surgery = row.surgery ? localName(row.surgery, lang) : AUDIT_SUBJECT_WORDS.caseWithoutSurgery[lang];
    return `${surgery} · ${day} · ${`${row.firstName} ${row.lastName}`.trim()}`;
  }

  const named = (label: string): AuditSubject => ({ label, deleted: false });
  const byName = (rows: (Named & { id: string })[], lang: Language) => new Map(rows.map((r) => [r.id, localName(r, lang)]));

  /** The rows of one kind, by id, each already labelled. */
  async function labels(kind: Kind, ids: string[], lang: Language): Promise<Map<string, string>> {
    switch (kind) {
      case 'user': {
        const rows = await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
          .from(users)
          .where(inArray(users.id, ids));
        return new Map(rows.map((r) => [r.id, `${`${r.firstName} ${r.lastName}`.trim()} (${r.email})`]));
      }
      case 'video': {
        const rows = await db
          .select({ id: videos.id, ...caseColumns })
          .from(videos)
          .innerJoin(users, eq(users.id, videos.authorId))
          .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
          .where(inArray(videos.id, ids));
        return new Map(rows.map((r) => [r.id, caseLabel(caseOf(r), lang)]));
      }
      case 'media': {
        // A file of a case reads as its kind and its case; another file (an avatar) as its kind.
        const rows = await db
          .select({ id: media.id, kind: media.kind, videoId: media.videoId, ...caseColumns })
          .from(media)
          .leftJoin(videos, eq(videos.id, media.videoId))
          .leftJoin(users, eq(users.id, videos.authorId))
          .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
          .where(inArray(media.id, ids));
        return new Map(
          rows.map((r) => {
            const words = AUDIT_SUBJECT_WORDS as Record<string, { fr: string; en: string }>;
            const what = (words[`media.${r.kind}`] ?? AUDIT_SUBJECT_WORDS.file)[lang];
            const ofCase =
              r.videoId !== null && r.createdAt !== null && r.firstName !== null && r.lastName !== null
                ? caseLabel(caseOf(r as CaseColumns), lang)
                : null;
            return [r.id, ofCase ? `${what} — ${ofCase}` : what];
          }),
        );
      }
      case 'best_case': {
        const rows = await db
          .select({ id: bestCases.id, titleFr: bestCases.titleFr, titleEn: bestCases.titleEn })
          .from(bestCases)
          .where(inArray(bestCases.id, ids));
        return new Map(rows.map((r) => [r.id, lang === 'fr' ? r.titleFr : r.titleEn]));
      }
      case 'organ': {
        const rows = await db
          .select({ id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn })
          .from(organs)
          .where(inArray(organs.id, ids));
        return byName(rows, lang);
      }
      case 'surgery': {
        const rows = await db
          .select({ id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn })
          .from(surgeries)
          .where(inArray(surgeries.id, ids));
        return byName(rows, lang);
      }
      case 'programme': {
        const rows = await db.select({ id: programmes.id, name: programmes.name }).from(programmes).where(inArray(programmes.id, ids));
        return new Map(rows.map((r) => [r.id, r.name]));
      }
      case 'specialty': {
        const rows = await db
          .select({ id: specialties.id, nameFr: specialties.nameFr, nameEn: specialties.nameEn })
          .from(specialties)
          .where(inArray(specialties.id, ids));
        return byName(rows, lang);
      }
      case 'surgery_step': {
        const rows = await db
          .select({
            id: surgerySteps.id,
            nameFr: surgerySteps.nameFr,
            nameEn: surgerySteps.nameEn,
            surgeryFr: surgeries.nameFr,
            surgeryEn: surgeries.nameEn,
          })
          .from(surgerySteps)
          .innerJoin(surgeries, eq(surgeries.id, surgerySteps.surgeryId))
          .where(inArray(surgerySteps.id, ids));
        return new Map(rows.map((r) => [r.id, `${localName(r, lang)} (${localName({ nameFr: r.surgeryFr, nameEn: r.surgeryEn }, lang)})`]));
      }
    }
  }

  return {
    /**
     * The subject of each entry, by `subjectKey(entity, entityId)`: absent for an entry that names
     * nothing (no id, a kind of entity that has no rows, an id that is not one of ours).
     */
    async of(entries: { entity: string; entityId: string | null }[], lang: Language): Promise<Map<string, AuditSubject>> {
      const wanted = new Map<Kind, Set<string>>();
      for (const { entity, entityId } of entries) {
        if (!entityId || !isKind(entity) || !UUID.test(entityId)) continue;
        const ids = wanted.get(entity) ?? new Set<string>();
        ids.add(entityId.toLowerCase());
        wanted.set(entity, ids);
      }
      const found = await Promise.all([...wanted].map(async ([kind, ids]) => [kind, await labels(kind, [...ids], lang)] as const));
      const subjects = new Map<string, AuditSubject>();
      for (const [kind, byId] of found) {
        for (const id of wanted.get(kind)!) {
          const label = byId.get(id);
          subjects.set(subjectKey(kind, id), label !== undefined ? named(label) : { label: AUDIT_SUBJECT_GONE[kind][lang], deleted: true });
        }
      }
      return subjects;
    },
  };
}
export type AuditSubjects = ReturnType<typeof createAuditSubjects>;
