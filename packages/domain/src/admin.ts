import { z } from 'zod';
import { ROLES, type Role } from './roles.ts';
import { plainString } from './rules.ts';
import type { VideoStatus } from './videos.ts';

/**
 * The administration area (SPEC §1, §6; docs/admin.md): the dashboard's counts, the people and
 * the audit log. Reads are for ADMIN_ROLES, writes for ADMIN_WRITE_ROLES (roles.ts).
 */

/** The six numbers of the admin dashboard (SPEC §1), each one SQL count. */
export const adminCountsSchema = z.object({
  users: z.number(),
  /** People with the editor role. */
  editors: z.number(),
  /** People with the expert role. */
  experts: z.number(),
  /**
   * Case files that arrived whole since the first day of the month, on the installation's clock
   * (TIME_ZONE), and were not refused as no video.
   */
  uploadedThisMonth: z.number(),
  /** In the preparation pool (waiting, or held under an expired lease), or being rendered. */
  waitingPreparation: z.number(),
  /** In the analysis pool (waiting, or held under an expired lease). */
  waitingAnalysis: z.number(),
  /** The month counted, `YYYY-MM`, of the installation's time zone. */
  month: z.string(),
  /** The installation's time zone (IANA name). */
  timeZone: z.string(),
});
export type AdminCounts = z.infer<typeof adminCountsSchema>;

/** The HLS ladders of the installation (docs/streaming.md): how many videos have theirs, how many are left. */
export const adminStreamingSchema = z.object({
  /** STREAMING is not `off`. */
  enabled: z.boolean(),
  /** Ready videos whose playable file has its ladder. */
  ready: z.number(),
  /** Ready videos whose ladder is still to be made (in the background, newest first); 0 when off. */
  left: z.number(),
});
export type AdminStreaming = z.infer<typeof adminStreamingSchema>;

/** The video status each waiting card's list opens on (the surgery videos page filters on it). */
export const WAITING_STATUSES = {
  waitingPreparation: 'pending_preparation',
  waitingAnalysis: 'pending_analysis',
} as const satisfies Record<string, VideoStatus>;

/** The state of an account, as the users page filters it. */
export const USER_STATES = ['active', 'deactivated', 'unvalidated'] as const;
export type UserState = (typeof USER_STATES)[number];

/** `filter=q==…__role==…__state==…` of GET /admin/users. */
export const ADMIN_USER_FILTERS = ['q', 'role', 'state'] as const;
export const ADMIN_USER_SORTS = ['createdAt', 'lastName', 'email'] as const;
/** The longest search text, in characters. */
export const ADMIN_SEARCH_MAX = 100;

const searchText = plainString().trim().max(ADMIN_SEARCH_MAX, { error: 'TEXT_TOO_LONG' });

export const adminUserFilterSchema = z
  .object({
    q: searchText.optional(),
    role: z.enum(ROLES, { error: 'INVALID_VALUE' }).optional(),
    state: z.enum(USER_STATES, { error: 'INVALID_VALUE' }).optional(),
  })
  .strict();
export type AdminUserFilter = z.infer<typeof adminUserFilterSchema>;

/** PUT /admin/users/{id}/roles: the whole list of the person's roles, at least one. */
export const setRolesBody = z
  .object({
    roles: z
      .array(z.enum(ROLES, { error: 'INVALID_VALUE' }), { error: 'FIELD_REQUIRED' })
      .min(1, { error: 'FIELD_REQUIRED' })
      .max(ROLES.length, { error: 'INVALID_VALUE' })
      .refine((roles) => new Set(roles).size === roles.length, { error: 'INVALID_VALUE' }),
  })
  .strict();

/** PUT /admin/users/{id}/active: deactivate (false) or reactivate (true). */
export const setActiveBody = z.object({ active: z.boolean({ error: 'FIELD_REQUIRED' }) }).strict();

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  rpps: z.string().nullable(),
  roles: z.array(z.enum(ROLES)),
  state: z.enum(USER_STATES),
  emailVerifiedAt: z.string().nullable(),
  deactivatedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema> & { roles: Role[] };

export const adminUserListResponse = z.object({
  data: z.array(adminUserSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type AdminUserList = z.infer<typeof adminUserListResponse>;

/** `filter=actor==…__action==…__entityId==…__from==…__to==…` of GET /admin/audit. */
export const AUDIT_FILTERS = ['actor', 'action', 'entity', 'entityId', 'from', 'to'] as const;
/** The CSV export reads this many rows at most (the newest first); narrow the filters for older ones. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const day = z.iso.date({ error: 'INVALID_VALUE' });
export const auditFilterSchema = z
  .object({
    /** Part of the actor's email or name. */
    actor: searchText.optional(),
    /** An action, or the start of one (`user.` lists every action on people). */
    action: plainString()
      .trim()
      .max(60, { error: 'TEXT_TOO_LONG' })
      .regex(/^[a-z_.]*$/, { error: 'INVALID_VALUE' })
      .optional(),
    entity: plainString()
      .trim()
      .max(30, { error: 'TEXT_TOO_LONG' })
      .regex(/^[a-z_]*$/, { error: 'INVALID_VALUE' })
      .optional(),
    entityId: plainString().trim().max(100, { error: 'TEXT_TOO_LONG' }).optional(),
    /** Days, UTC; `to` is included. */
    from: day.optional(),
    to: day.optional(),
  })
  .strict()
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ['to'], error: 'DATE_RANGE_INVERTED' });
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** Null for what the system did (a job) or an anonymous caller. */
  actorId: z.string().nullable(),
  /** Null once the account was deleted: the raw id is all that remains. */
  actor: z.object({ email: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /**
   * What the entry is about, in the reader's language: a case as its surgery, date and author; a
   * person as their name and email; a term as its name. `deleted` when the row it named is gone
   * (the label then says so). Null when the entry names nothing (an export, every surgery at once).
   */
  subject: z.object({ label: z.string(), deleted: z.boolean() }).nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditSubject = NonNullable<z.infer<typeof auditEntrySchema>['subject']>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * A page of the audit log, newest first, read by keyset: `nextCursor` (null on the last page) is
 * the `cursor` of the next, older page, so rows written meanwhile never shift a page.
 */
export const auditListResponse = z.object({
  data: z.array(auditEntrySchema),
  total: z.number(),
  limit: z.number(),
  /** The installation's time zone: the days of `from` and `to` are days of its clock. */
  timeZone: z.string(),
  nextCursor: z.string().nullable(),
});

/** Where a page of the audit log starts: opaque to the client, at most this long. */
export const AUDIT_CURSOR_MAX = 200;
export type AuditList = z.infer<typeof auditListResponse>;

/**
 * One CSV cell: quoted when it holds the separator, a quote or a line break; a text a spreadsheet
 * would run as a formula (starting with = + - @, a tab or a carriage return) is prefixed with a
 * quote so that it stays text.
 */
export function csvCell(value: string | number | null | undefined, separator = ','): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null | undefined)[], separator = ','): string {
  return `${values.map((v) => csvCell(v, separator)).join(separator)}\r\n`;
}
