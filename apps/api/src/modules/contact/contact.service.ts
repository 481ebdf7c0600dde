import { createHash } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import type { ContactBody } from '@sutura/domain/users';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { AuditAction } from '../audit/audit.service.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import type { UserService } from '../users/users.service.ts';

const SUBJECT_LABELS: Record<string, { fr: string; en: string }> = {
  question: { fr: 'Question', en: 'Question' },
  technical: { fr: 'Problème technique', en: 'Technical problem' },
  account: { fr: 'Mon compte', en: 'My account' },
  data: { fr: 'Mes données personnelles', en: 'My personal data' },
  other: { fr: 'Autre', en: 'Other' },
};

const SENT: AuditAction = 'contact.sent';

/** The same message from the same person within this time is one message sent twice (a double click, a retry). */
export const CONTACT_REPEAT_WINDOW_MS = 10 * 60 * 1000;

/** The contact form: a mail to the support address, and a notification to the sender. */
export function createContactService(deps: {
  db: Db;
  queue: Queue;
  users: UserService;
  notifications: NotificationService;
  supportEmail: string;
  clock: () => Date;
}) {
  const { db, queue, users, notifications, supportEmail, clock } = deps;
  return {
    /** Sends the message once: the same text sent again soon after is answered as sent, not mailed again. */
    async send(userId: string, body: ContactBody, lang: Language, ip: string): Promise<void> {
      const user = await users.byId(userId);
      const subject = SUBJECT_LABELS[body.subject]![lang];
      const digest = createHash('sha256').update(`${body.subject}\n${body.message}`).digest('hex');
      const first = await db.transaction(async (tx) => {
        // One sender at a time: two requests of a double click cannot both find no earlier one.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`contact:${userId}`}))`);
        const [earlier] = await tx
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(
            and(
              eq(auditLog.actorId, userId),
              eq(auditLog.action, SENT),
              sql`${auditLog.details}->>'digest' = ${digest}`,
              gt(auditLog.createdAt, new Date(clock().getTime() - CONTACT_REPEAT_WINDOW_MS)),
            ),
          )
          .limit(1);
        if (earlier) return false;
        await tx.insert(auditLog).values({
          actorId: userId,
          action: SENT,
          entity: 'user',
          entityId: userId,
          ip,
          details: { digest },
          createdAt: clock(),
        });
        return true;
      });
      if (!first) return;
      await queue.send('mail.send', {
        to: supportEmail,
        lang,
        template: {
          name: 'contact',
          params: {
            fromName: `${user.firstName} ${user.lastName}`,
            fromEmail: user.email,
            subject,
            message: body.message,
            userId: user.id,
          },
        },
      });
      await notifications.notify(user.id, 'contactSent', { subject });
    },
  };
}
export type ContactService = ReturnType<typeof createContactService>;
