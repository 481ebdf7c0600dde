import { and, count, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export type AuditAction =
  | 'auth.sign_in'
  | 'auth.sign_in_failed'
  | 'auth.sign_out'
  | 'user.sign_up'
  | 'user.email_validated'
  | 'user.password_changed'
  | 'user.password_reset_requested'
  | 'user.password_reset'
  | 'user.profile_updated'
  | 'user.roles_changed'
  | 'user.avatar_changed'
  | 'user.deleted'
  | 'user.created_by_admin'
  | 'user.deactivated'
  | 'user.reactivated'
  | 'user.validation_resent'
  | 'video.created'
  | 'video.uploaded'
  | 'video.sent'
  | 'video.shared'
  | 'video.share_revoked'
  | 'video.deleted'
  | 'video.retry'
  | 'video.updated'
  | 'video.favourite_changed'
  | 'video.picture_added'
  | 'video.picture_removed'
  | 'preparation.claimed'
  | 'preparation.saved'
  | 'preparation.released'
  | 'preparation.submitted'
  | 'preparation.rendered'
  | 'preparation.render_failed'
  | 'analysis.claimed'
  | 'analysis.abandoned'
  | 'analysis.submitted'
  | 'contact.sent'
  | 'vocabulary.created'
  | 'vocabulary.renamed'
  | 'vocabulary.reordered'
  | 'vocabulary.retired'
  | 'vocabulary.restored'
  | 'vocabulary.deleted'
  | 'video.claim_released_by_admin'
  | 'video.deleted_by_admin'
  | 'video.viewed_by_admin'
  | 'analysis.saved'
  | 'analysis.comment_added'
  | 'analysis.comment_updated'
  | 'analysis.comment_removed'
  | 'analysis.voice_set'
  | 'analysis.voice_removed'
  | 'media.accessed'
  | 'audit.exported'
  | 'best_case.created'
  | 'best_case.updated'
  | 'best_case.published'
  | 'best_case.unpublished'
  | 'best_case.steps_changed'
  | 'best_case.deleted'
  | 'best_case.consent_given'
  | 'best_case.consent_refused';

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
