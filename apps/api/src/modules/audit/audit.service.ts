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
  | 'video.created'
  | 'video.uploaded'
  | 'video.sent'
  | 'video.shared'
  | 'video.share_revoked'
  | 'video.deleted'
  | 'video.retry'
  | 'contact.sent';

export type Audit = (
  actorId: string | null,
  action: AuditAction,
  entity: string,
  entityId: string | null,
  ip: string | null,
  details?: Record<string, unknown>,
) => Promise<void>;

/** One writer for the audit log, so every module records actions the same way. */
export function createAudit(db: Db): Audit {
  return async (actorId, action, entity, entityId, ip, details) => {
    await db.insert(auditLog).values({ actorId, action, entity, entityId, ip, details: details ?? null });
  };
}
