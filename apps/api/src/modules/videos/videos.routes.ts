import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseListQuery } from '@sutura/domain/query';
import {
  createVideoBody,
  favouriteBody,
  operationDayBody,
  sendVideoBody,
  shareVideoBody,
  updateVideoBody,
  VIDEO_LIST_FILTERS,
  VIDEO_LIST_SORTS,
} from '@sutura/domain/videos';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { listQuerystring } from '../../http/list-query.ts';
import { requestLanguage } from '../../http/language.ts';
import { lookupLimit } from '../../http/route-helpers.ts';
import type { VideoService } from './videos.service.ts';

const idParams = z.object({ id: z.uuid() });
const shareParams = z.object({ id: z.uuid(), userId: z.uuid() });
const pictureParams = z.object({ id: z.uuid(), pictureId: z.uuid() });
/** Routes that take nothing still read `{}` (or no body at all). */
const noBody = z.object({}).strict().nullish();

/**
 * The cases of the video workflow's first stage. The role rules below only say who may try:
 * what someone may do with a given video is decided by the service, and anyone it does not
 * concern gets 404 (never 403), whether the video exists or not.
 */
export function videoRoutes(deps: { videos: VideoService; lookupsPerHour: number }): FastifyPluginAsyncZod {
  const { videos } = deps;
  return async (app) => {
    const shareLookups = lookupLimit(app, deps.lookupsPerHour, 'share');
    app.post(
      '/videos',
      { config: { access: ['learner'] }, schema: { tags: ['videos'], body: createVideoBody } },
      async (request, reply) => {
        const video = await videos.create(requireUser(request), request.body, request.ip, requestLanguage(request));
        return reply.status(201).send(ok(video));
      },
    );

    app.get(
      '/videos',
      { config: { access: ['learner', 'editor', 'expert', 'administrator'] }, schema: { tags: ['videos'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { filter: VIDEO_LIST_FILTERS, sort: VIDEO_LIST_SORTS });
        return ok(await videos.list(requireUser(request), query, requestLanguage(request)));
      },
    );

    app.get('/videos/:id', { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams } }, async (request) =>
      ok(await videos.detail(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.put(
      '/videos/:id',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams, body: updateVideoBody } },
      async (request) =>
        ok(await videos.update(requireUser(request), request.params.id, request.body, requestLanguage(request), request.ip)),
    );

    app.delete('/videos/:id', { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams } }, async (request) => {
      await videos.remove(requireUser(request), request.params.id, request.ip);
      return ok({});
    });

    app.post(
      '/videos/:id/send',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams, body: sendVideoBody } },
      async (request) =>
        ok(await videos.send(requireUser(request), request.params.id, request.body.priority, request.ip, requestLanguage(request))),
    );

    app.put(
      '/videos/:id/favourite',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams, body: favouriteBody } },
      async (request) =>
        ok(
          await videos.setFavourite(requireUser(request), request.params.id, request.body.favourite, requestLanguage(request), request.ip),
        ),
    );

    app.put(
      '/videos/:id/operation-day',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams, body: operationDayBody } },
      async (request) =>
        ok(
          await videos.setOperationDay(
            requireUser(request),
            request.params.id,
            request.body.operatedOn,
            requestLanguage(request),
            request.ip,
          ),
        ),
    );

    app.post(
      '/videos/:id/shares',
      // Sharing answers whether an email has an account: limited per person.
      {
        config: { access: 'authenticated' },
        preHandler: shareLookups,
        schema: { tags: ['videos'], params: idParams, body: shareVideoBody },
      },
      async (request) =>
        ok(await videos.share(requireUser(request), request.params.id, request.body.email, request.ip, requestLanguage(request))),
    );

    app.delete(
      '/videos/:id/shares/:userId',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: shareParams } },
      async (request) =>
        ok(await videos.revokeShare(requireUser(request), request.params.id, request.params.userId, request.ip, requestLanguage(request))),
    );

    app.post(
      '/videos/:id/retry',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: idParams, body: noBody } },
      async (request) => ok(await videos.retry(requireUser(request), request.params.id, request.ip, requestLanguage(request))),
    );

    app.delete(
      '/videos/:id/pictures/:pictureId',
      { config: { access: 'authenticated' }, schema: { tags: ['videos'], params: pictureParams } },
      async (request) =>
        ok(
          await videos.removePicture(
            requireUser(request),
            request.params.id,
            request.params.pictureId,
            requestLanguage(request),
            request.ip,
          ),
        ),
    );
  };
}
