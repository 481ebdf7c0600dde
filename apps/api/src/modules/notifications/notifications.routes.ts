import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { updateNotificationBody } from '@sutura/domain/notifications';
import { parseListQuery } from '@sutura/domain/query';
import { ok } from '../../http/envelope.ts';
import { listQuerystring } from '../../http/list-query.ts';
import { requireUser } from '../../http/access.ts';
import { requestLanguage } from '../../http/language.ts';
import type { NotificationService } from './notifications.service.ts';

const idParams = z.object({ id: z.uuid() });

export function notificationRoutes(deps: { notifications: NotificationService }): FastifyPluginAsyncZod {
  const { notifications } = deps;
  return async (app) => {
    app.get(
      '/notification/list',
      { config: { access: 'authenticated' }, schema: { tags: ['notifications'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query);
        return ok(await notifications.list(requireUser(request).id, requestLanguage(request), query.page, query.limit));
      },
    );

    app.put(
      '/notification/:id',
      { config: { access: 'authenticated' }, schema: { tags: ['notifications'], params: idParams, body: updateNotificationBody } },
      async (request) =>
        ok(await notifications.setStatus(requireUser(request).id, request.params.id, request.body.status, requestLanguage(request))),
    );

    app.delete(
      '/notification/:id',
      { config: { access: 'authenticated' }, schema: { tags: ['notifications'], params: idParams } },
      async (request) => {
        await notifications.remove(requireUser(request).id, request.params.id);
        return ok({});
      },
    );
  };
}
