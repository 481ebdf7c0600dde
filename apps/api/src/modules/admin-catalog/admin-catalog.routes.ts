import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_VIDEO_FILTERS,
  ADMIN_VIDEO_SORTS,
  organBody,
  reorderBody,
  specialtyBody,
  stepBody,
  surgeryBody,
  type VocabularyKind,
} from '@sutura/domain/admin-catalog';
import { parseListQuery } from '@sutura/domain/query';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { VideoService } from '../videos/videos.service.ts';
import type { SurgeryVideosAdmin } from './surgery-videos.service.ts';
import type { VocabularyAdmin } from './vocabularies-admin.service.ts';

const idParams = z.object({ id: z.uuid() });
/** Routes that take nothing still read `{}` (or no body at all). */
const noBody = z.object({}).strict().nullish();
const read = { access: ADMIN_ROLES };
const write = { access: ADMIN_WRITE_ROLES };

/**
 * The administrators' catalogue (docs/admin-catalog.md): vocabularies and every case. Copil reads
 * everything (ADMIN_ROLES) and writes nothing: every write declares ADMIN_WRITE_ROLES.
 */
export function adminCatalogRoutes(deps: {
  vocabularies: VocabularyAdmin;
  surgeryVideos: SurgeryVideosAdmin;
  videos: VideoService;
}): FastifyPluginAsyncZod {
  const { vocabularies, surgeryVideos, videos } = deps;
  return async (app) => {
    const tags = ['admin'];

    app.get('/admin/vocabularies', { config: read, schema: { tags } }, async () => ok(await vocabularies.list()));

    // Creation: a new term goes last in its list.
    app.post('/admin/vocabularies/organs', { config: write, schema: { tags, body: organBody } }, async (request, reply) =>
      reply.status(201).send(ok(await vocabularies.createOrgan(requireUser(request).id, request.body, request.ip))),
    );
    app.post('/admin/vocabularies/surgeries', { config: write, schema: { tags, body: surgeryBody } }, async (request, reply) =>
      reply.status(201).send(ok(await vocabularies.createSurgery(requireUser(request).id, request.body, request.ip))),
    );
    app.post('/admin/vocabularies/specialties', { config: write, schema: { tags, body: specialtyBody } }, async (request, reply) =>
      reply.status(201).send(ok(await vocabularies.createSpecialty(requireUser(request).id, request.body, request.ip))),
    );
    app.post(
      '/admin/vocabularies/surgeries/:id/steps',
      { config: write, schema: { tags, params: idParams, body: stepBody } },
      async (request, reply) =>
        reply.status(201).send(ok(await vocabularies.createStep(requireUser(request).id, request.params.id, request.body, request.ip))),
    );

    // Order: the whole list, as it should be.
    for (const kind of ['organs', 'surgeries', 'specialties'] as const) {
      app.put(`/admin/vocabularies/${kind}/order`, { config: write, schema: { tags, body: reorderBody } }, async (request) =>
        ok(await vocabularies.reorder(requireUser(request).id, kind, request.body.ids, request.ip)),
      );
    }
    app.put(
      '/admin/vocabularies/surgeries/:id/steps/order',
      { config: write, schema: { tags, params: idParams, body: reorderBody } },
      async (request) => ok(await vocabularies.reorder(requireUser(request).id, 'steps', request.body.ids, request.ip, request.params.id)),
    );

    // Renaming, retiring, restoring, deleting one term.
    const bodies = { organs: organBody, surgeries: surgeryBody, steps: stepBody, specialties: specialtyBody } as const;
    for (const kind of ['organs', 'surgeries', 'steps', 'specialties'] as const satisfies readonly VocabularyKind[]) {
      app.put(
        `/admin/vocabularies/${kind}/:id`,
        { config: write, schema: { tags, params: idParams, body: bodies[kind] } },
        async (request) => ok(await vocabularies.update(requireUser(request).id, kind, request.params.id, request.body, request.ip)),
      );
      app.post(
        `/admin/vocabularies/${kind}/:id/retire`,
        { config: write, schema: { tags, params: idParams, body: noBody } },
        async (request) => ok(await vocabularies.retire(requireUser(request).id, kind, request.params.id, request.ip)),
      );
      app.post(
        `/admin/vocabularies/${kind}/:id/restore`,
        { config: write, schema: { tags, params: idParams, body: noBody } },
        async (request) => ok(await vocabularies.restore(requireUser(request).id, kind, request.params.id, request.ip)),
      );
      app.delete(`/admin/vocabularies/${kind}/:id`, { config: write, schema: { tags, params: idParams } }, async (request) =>
        ok(await vocabularies.remove(requireUser(request).id, kind, request.params.id, request.ip)),
      );
    }

    app.get('/admin/surgery-videos', { config: read, schema: { tags, querystring: listQuerystring } }, async (request) => {
      const query = parseListQuery(request.query, { filter: ADMIN_VIDEO_FILTERS, sort: ADMIN_VIDEO_SORTS });
      return ok(await surgeryVideos.list(query, requestLanguage(request)));
    });

    app.post('/admin/surgery-videos/:id/release', { config: write, schema: { tags, params: idParams, body: noBody } }, async (request) =>
      ok(await surgeryVideos.releaseClaim(requireUser(request), request.params.id, request.ip)),
    );

    // The learner's own deletion path: rows, then every file through Storage; the author is told.
    app.delete('/admin/surgery-videos/:id', { config: write, schema: { tags, params: idParams } }, async (request) => {
      await videos.remove(requireUser(request), request.params.id, request.ip);
      return ok({ id: request.params.id, deleted: true });
    });
  };
}
