import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PRACTICE_ROLES } from '@sutura/domain/roles';
import { contactBody } from '@sutura/domain/users';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import { requestLanguage } from '../../http/language.ts';
import type { ContactService } from './contact.service.ts';

export function contactRoutes(deps: { contact: ContactService; rateLimit: number }): FastifyPluginAsyncZod {
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
            keyGenerator: (request) => `contact|${request.user?.id ?? request.ip}`,
          },
        },
        schema: { tags: ['contact'], body: contactBody },
      },
      async (request) => {
        await deps.contact.send(requireUser(request).id, request.body, requestLanguage(request), request.ip);
        return ok({});
      },
    );
  };
}
