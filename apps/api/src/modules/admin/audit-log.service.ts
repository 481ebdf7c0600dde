import { and, count, desc, eq, gte, like, lt, or, sql, type SQL } from 'drizzle-orm';
import { AUDIT_EXPORT_MAX_ROWS, auditFilterSchema, csvLine, type AuditEntry, type AuditList } from '@sutura/domain/admin';
import { auditActionLabel, auditEntityLabel } from '@sutura/domain/audit';
import type { Language } from '@sutura/domain/i18n';
import { formatZoned, zonedDay } from '@sutura/domain/time-zone';
import type { ListQuery } from '@sutura/domain/query';
import type { Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { containsPattern } from './admin.service.ts';
import { createAuditSubjects, subjectKey, type AuditSubjects } from './audit-subjects.ts';

const EXPORT_BATCH = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Column titles of the CSV file, in the caller's language; the date's title names the
 * installation's time zone, in which every date is written (with its offset). The action and the
 * entity come as their identifier (what filters and searches use) followed by their label in the
 * caller's language; then what the row is about, named as the log's page names it (the case, the
 * person; "Deleted case" when it is gone), before its id.
 */
export const auditCsvHeaders = (lang: Language, timeZone: string): string[] =>
  AUDIT_CSV_HEADERS[lang].map((h, i) => (i === 0 ? `${h} (${timeZone})` : h));
const AUDIT_CSV_HEADERS: Record<Language, string[]> = {
  en: [
    'Date',
    'Actor id',
    'Actor email',
    'Actor name',
    'Action',
    'Action label',
    'Entity',
    'Entity label',
    'About',
    'Entity id',
    'Address',
  ],
  fr: [
    'Date',
    'Id de l’auteur',
    'E-mail de l’auteur',
    'Nom de l’auteur',
    'Action',
    'Libellé de l’action',
    'Entité',
    'Libellé de l’entité',
    'Objet',
    'Id de l’entité',
    'Adresse',
  ],
};

/** A page's end, as the client carries it: the row's exact time (microseconds) and id. */
function encodeCursor(row: { cursor: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.cursor, row.id])).toString('base64url');
}

/** PostgreSQL's text of a timestamptz ("2026-01-12 23:59:59.123456+00"), a real date and time. */
function isTimestampText(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && sec < 60;
}

function decodeCursor(cursor: string): { cursor: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      isTimestampText(value[0]) &&
      typeof value[1] === 'string' &&
      UUID.test(value[1])
    ) {
      return { cursor: value[0], id: value[1] };
    }
  } catch {
    // Not base64url JSON: the same answer as a well-formed cursor that is not ours.
  }
  throw new AppError('VALIDATION', {}, [{ path: 'cursor', code: 'INVALID_VALUE' }]);
}

/**
 * Reading the audit log (docs/admin.md): searched and paged in SQL, newest first, with the actor
 * resolved by a join (a deleted person's rows keep their raw id) and what each row is about named
 * (audit-subjects.ts). The details column is never read here: it holds nothing an administrator
 * needs and nothing is exported from it.
 */
export function createAuditLogService(deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;
  const subjects: AuditSubjects = createAuditSubjects({ db, timeZone });

  function conditions(filter: ListQuery['filter']): SQL | undefined {
    const parsed = auditFilterSchema.safeParse(filter);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const known = ['TEXT_TOO_LONG', 'TEXT_INVALID_CHARACTERS', 'DATE_RANGE_INVERTED'] as const;
      const code = (known as readonly string[]).includes(issue.message) ? (issue.message as (typeof known)[number]) : 'INVALID_VALUE';
      throw new AppError(code, {}, [{ path: `filter.${issue.path.join('.')}`, code }]);
    }
    const f = parsed.data;
    const out: SQL[] = [];
    if (f.actor) {
      const pattern = containsPattern(f.actor);
      const byPerson = sql`${auditLog.actorId} in (select ${users.id} from ${users} where ${users.email} ilike ${pattern}
        or (${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}
        or (${users.lastName} || ' ' || ${users.firstName}) ilike ${pattern})`;
      out.push(UUID.test(f.actor) ? or(eq(auditLog.actorId, f.actor.toLowerCase()), byPerson)! : byPerson);
    }
    if (f.action) out.push(f.action.endsWith('.') ? like(auditLog.action, `${f.action}%`) : eq(auditLog.action, f.action));
    if (f.entity) out.push(eq(auditLog.entity, f.entity));
    if (f.entityId) out.push(eq(auditLog.entityId, f.entityId));
    // Whole days of the installation's clock, `to` included (a day of a DST change lasts 23 or 25 hours).
    if (f.from) out.push(gte(auditLog.createdAt, zonedDay(f.from, timeZone).start));
    if (f.to) out.push(lt(auditLog.createdAt, zonedDay(f.to, timeZone).end));
    return and(...out);
  }

  const columns = {
    id: auditLog.id,
    actorId: auditLog.actorId,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    action: auditLog.action,
    entity: auditLog.entity,
    entityId: auditLog.entityId,
    ip: auditLog.ip,
    createdAt: auditLog.createdAt,
    // The exact instant (microseconds, which a Date would lose) for the export's keyset.
    cursor: sql<string>`${auditLog.createdAt}::text`,
  };
  interface Row {
    id: string;
    actorId: string | null;
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    action: string;
    entity: string;
    entityId: string | null;
    ip: string | null;
    createdAt: Date;
    cursor: string;
  }

  function toEntry(r: Row, subject: AuditEntry['subject']): AuditEntry {
    return {
      id: r.id,
      actorId: r.actorId,
      actor: r.email !== null ? { email: r.email, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
      action: r.action,
      entity: r.entity,
      entityId: r.entityId,
      subject,
      ip: r.ip,
      createdAt: r.createdAt.toISOString(),
    };
  }

  function page(where: SQL | undefined, limit: number, offset: number, before?: { cursor: string; id: string }) {
    const keyset = before ? sql`(${auditLog.createdAt}, ${auditLog.id}) < (${before.cursor}::timestamptz, ${before.id}::uuid)` : undefined;
    return db
      .select(columns)
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(and(where, keyset))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit)
      .offset(offset) as Promise<Row[]>;
  }

  return {
    /** Today on the installation's clock, `YYYY-MM-DD` (the export's file name). */
    today(): string {
      return formatZoned(new Date(), timeZone).slice(0, 10);
    },

    /** Validates the filter before anything is sent (an export answers 400 before its first byte). */
    check(filter: ListQuery['filter']): void {
      conditions(filter);
    },

    /** A page by keyset (docs/admin.md): from `cursor` (the previous page's `nextCursor`), else the newest. */
    async list(query: ListQuery, lang: Language, cursor?: string): Promise<AuditList> {
      const where = conditions(query.filter);
      const before = cursor ? decodeCursor(cursor) : undefined;
      // One row more than the page tells whether an older page exists.
      const [rows, [total]] = await Promise.all([
        page(where, query.limit + 1, 0, before),
        db.select({ n: count() }).from(auditLog).where(where),
      ]);
      const shown = rows.slice(0, query.limit);
      const last = shown.at(-1);
      const nextCursor = rows.length > query.limit && last ? encodeCursor(last) : null;
      const named = await subjects.of(shown, lang);
      const data = shown.map((r) => toEntry(r, named.get(subjectKey(r.entity, r.entityId)) ?? null));
      return { data, total: total?.n ?? 0, limit: query.limit, nextCursor, timeZone };
    },

    /**
     * The CSV file of every row the filter matches (at most AUDIT_EXPORT_MAX_ROWS, newest first),
     * read by keyset in batches while it is sent: the process never holds more than one batch.
     * French files use ';' between fields, as French spreadsheets expect.
     */
    async *csv(filter: ListQuery['filter'], lang: Language): AsyncGenerator<string> {
      const where = conditions(filter);
      const separator = lang === 'fr' ? ';' : ',';
      yield `\uFEFF${csvLine(auditCsvHeaders(lang, timeZone), separator)}`;
      let sent = 0;
      let before: { cursor: string; id: string } | undefined;
      while (sent < AUDIT_EXPORT_MAX_ROWS) {
        const rows = await page(where, Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - sent), 0, before);
        if (!rows.length) return;
        const named = await subjects.of(rows, lang);
        let chunk = '';
        for (const r of rows) {
          const subject = named.get(subjectKey(r.entity, r.entityId));
          const name = r.email !== null ? `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() : '';
          chunk += csvLine(
            [
              formatZoned(r.createdAt, timeZone),
              r.actorId,
              r.email,
              name,
              r.action,
              auditActionLabel(r.action, lang),
              r.entity,
              auditEntityLabel(r.entity, lang),
              subject?.label ?? '',
              r.entityId,
              r.ip,
            ],
            separator,
          );
        }
        yield chunk;
        sent += rows.length;
        const last = rows[rows.length - 1]!;
        before = { cursor: last.cursor, id: last.id };
        if (rows.length < EXPORT_BATCH) return;
      }
    },
  };
}
export type AuditLogService = ReturnType<typeof createAuditLogService>;
