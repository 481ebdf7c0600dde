import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRACTICE_ROLES } from '@sutura/domain/roles';
import { contactBody } from '@sutura/domain/users';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import { requestLanguage } from '../../http/language.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import type { UserService } from '../users/users.service.ts';

const SUBJECT_LABELS: Record<string, { fr: string; en: string }> = {
  question: { fr: 'Question', en: 'Question' },
  technical: { fr: 'Problème technique', en: 'Technical problem' },
  account: { fr: 'Mon compte', en: 'My account' },
  data: { fr: 'Mes données personnelles', en: 'My personal data' },
  other: { fr: 'Autre', en: 'Other' },
};

export function contactRoutes(deps: {
  users: UserService;
  queue: Queue;
  notifications: NotificationService;
  supportEmail: string;
  rateLimit: number;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/contact',
      {
        config: {
          access: PRACTICE_ROLES,
          rateLimit: {
            max: deps.rateLimit,
            timeWindow: '1 minute',
            hook: 'preHandler',
            keyGenerator: (request) => request.user?.id ?? request.ip,
          },
        },
        schema: { tags: ['contact'], body: contactBody },
      },
      async (request) => {
        const user = await deps.users.byId(requireUser(request).id);
        const lang = requestLanguage(request);
        const subject = SUBJECT_LABELS[request.body.subject]![lang];
        await deps.queue.send('mail.send', {
          to: deps.supportEmail,
          lang,
          template: {
            name: 'contact',
            params: {
              fromName: `${user.firstName} ${user.lastName}`,
              fromEmail: user.email,
              subject,
              message: request.body.message,
              userId: user.id,
            },
          },
        });
        await deps.notifications.notify(user.id, 'contactSent', { subject });
        return ok({});
      },
    );
  };
}
