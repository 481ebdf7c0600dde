import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { programmeBody, programmePersonBody } from '@sutura/domain/programmes';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { ProgrammeService } from './programmes.service.ts';

const idParams = z.object({ id: z.uuid() });
const personParams = z.object({ id: z.uuid(), userId: z.uuid() });
const learnerParams = z.object({ id: z.uuid(), learnerId: z.uuid() });
const ownQuery = z.object({ programmeId: z.uuid().optional(), langCode: z.string().optional() });

/**
 * Training programmes and learning curves (docs/learning-curves.md). The administration writes
 * (administrators) and reads (administrators and copil); the programmes' own routes are for every
 * signed-in person, the service answering 404 to whoever is not a director of the programme, its
 * learner, an administrator or copil.
 */
export function programmeRoutes(deps: { programmes: ProgrammeService }): FastifyPluginAsyncZod {
  const { programmes } = deps;
  const read = { access: ADMIN_ROLES };
  const write = { access: ADMIN_WRITE_ROLES };
  const signedIn = { access: 'authenticated' as const };
  const tags = ['programmes'];
  return async (app) => {
    app.get('/admin/programmes', { config: read, schema: { tags } }, async (request) =>
      ok(await programmes.list(requestLanguage(request))),
    );
    app.post('/admin/programmes', { config: write, schema: { tags, body: programmeBody } }, async (request, reply) => {
      void reply.status(201);
      return ok(await programmes.create(requireUser(request), request.body, request.ip, requestLanguage(request)));
    });
    app.get('/admin/programmes/:id', { config: read, schema: { tags, params: idParams } }, async (request) =>
      ok(await programmes.detail(request.params.id, requestLanguage(request))),
    );
    app.put('/admin/programmes/:id', { config: write, schema: { tags, params: idParams, body: programmeBody } }, async (request) =>
      ok(await programmes.update(requireUser(request), request.params.id, request.body, request.ip, requestLanguage(request))),
    );
    app.delete('/admin/programmes/:id', { config: write, schema: { tags, params: idParams } }, async (request) => {
      await programmes.remove(requireUser(request), request.params.id, request.ip);
      return ok({ id: request.params.id, deleted: true as const });
    });
    app.post(
      '/admin/programmes/:id/members',
      { config: write, schema: { tags, params: idParams, body: programmePersonBody } },
      async (request) =>
        ok(await programmes.addMember(requireUser(request), request.params.id, request.body.userId, request.ip, requestLanguage(request))),
    );
    app.delete('/admin/programmes/:id/members/:userId', { config: write, schema: { tags, params: personParams } }, async (request) =>
      ok(
        await programmes.removeMember(requireUser(request), request.params.id, request.params.userId, request.ip, requestLanguage(request)),
      ),
    );
    app.post(
      '/admin/programmes/:id/directors',
      { config: write, schema: { tags, params: idParams, body: programmePersonBody } },
      async (request) =>
        ok(
          await programmes.addDirector(requireUser(request), request.params.id, request.body.userId, request.ip, requestLanguage(request)),
        ),
    );
    app.delete('/admin/programmes/:id/directors/:userId', { config: write, schema: { tags, params: personParams } }, async (request) =>
      ok(
        await programmes.removeDirector(
          requireUser(request),
          request.params.id,
          request.params.userId,
          request.ip,
          requestLanguage(request),
        ),
      ),
    );

    app.get('/programmes', { config: signedIn, schema: { tags } }, async (request) =>
      ok(await programmes.mine(requireUser(request), requestLanguage(request))),
    );
    app.get('/programmes/:id/cohort', { config: signedIn, schema: { tags, params: idParams } }, async (request) =>
      ok(await programmes.cohort(requireUser(request), request.params.id, request.ip, requestLanguage(request))),
    );
    app.get('/programmes/:id/cohort/export', { config: signedIn, schema: { tags, params: idParams } }, async (request, reply) => {
      const csv = await programmes.cohortCsv(requireUser(request), request.params.id, request.ip, requestLanguage(request));
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.name}"`)
        .header('cache-control', 'no-store');
      return reply.send(csv.body);
    });
    app.get('/programmes/:id/learners/:learnerId', { config: signedIn, schema: { tags, params: learnerParams } }, async (request) =>
      ok(await programmes.learner(requireUser(request), request.params.id, request.params.learnerId, request.ip, requestLanguage(request))),
    );
    app.get(
      '/stats/me/learning-curves',
      { config: { access: ['learner'] }, schema: { tags: ['stats'], querystring: ownQuery } },
      async (request) => ok(await programmes.own(requireUser(request), request.query.programmeId, requestLanguage(request))),
    );
  };
}
