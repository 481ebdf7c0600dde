import { and, count, eq, gt, or, sql } from 'drizzle-orm';
import type { AuditAction } from '@sutura/domain/audit';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

/** The actions and their labels live in packages/domain so that the admin page and the export share them. */
export type { AuditAction } from '@sutura/domain/audit';

export type Audit = (
  actorId: string | null,
  action: AuditAction,
  entity: string,
  entityId: string | null,
  ip: string | null,
  details?: Record<string, unknown>,
) => Promise<void>;

/** How many times an action came from an address in the last minutes (the database's clock, as the rows'). */
export function createAuditCounter(db: Db) {
  return async (action: AuditAction, ip: string, minutes: number): Promise<number> => {
    const [row] = await db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.ip, ip), gt(auditLog.createdAt, sql`now() - make_interval(mins => ${minutes})`)));
    return row?.n ?? 0;
  };
}
export type AuditCounter = ReturnType<typeof createAuditCounter>;

/**
 * Account deletion: the log keeps that things happened (action, when, which ids), never what the
 * person wrote or was (details such as an email tried at sign-in, profile fields, shares).
 */
export function createAuditEraser(db: Db) {
  return async (userId: string, email: string): Promise<void> => {
    await db
      .update(auditLog)
      .set({ details: null, ip: null })
      .where(or(eq(auditLog.actorId, userId), eq(auditLog.entityId, userId), sql`${auditLog.details}->>'email' = ${email}`));
  };
}
export type AuditEraser = ReturnType<typeof createAuditEraser>;

/** One writer for the audit log, so every module records actions the same way. */
export function createAudit(db: Db): Audit {
  return async (actorId, action, entity, entityId, ip, details) => {
    await db.insert(auditLog).values({ actorId, action, entity, entityId, ip, details: details ?? null });
  };
}
