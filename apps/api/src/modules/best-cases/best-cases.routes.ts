import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_BEST_CASE_LIST_FILTERS,
  BEST_CASE_LIST_FILTERS,
  bestCaseConsentBody,
  bestCaseStepsBody,
  createBestCaseBody,
  publishBestCaseBody,
  updateBestCaseBody,
} from '@sutura/domain/best-cases';
import { bestCaseStepNotesBody } from '@sutura/domain/comparison';
import { parseListQuery } from '@sutura/domain/query';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES, PRACTICE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { BestCaseService } from './best-cases.service.ts';

const idParams = z.object({ id: z.uuid() });

/**
 * Best cases: learners, editors and experts browse the published ones; administrators write
 * (ADMIN_WRITE_ROLES), copil reads (ADMIN_ROLES); the author of a converted case answers.
 */
export function bestCaseRoutes(deps: { bestCases: BestCaseService }): FastifyPluginAsyncZod {
  const { bestCases } = deps;
  return async (app) => {
    app.get(
      '/best-cases',
      { config: { access: PRACTICE_ROLES }, schema: { tags: ['best-cases'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { filter: BEST_CASE_LIST_FILTERS });
        return ok(await bestCases.browse(requireUser(request), query, requestLanguage(request)));
      },
    );

    app.get(
      '/best-cases/:id',
      { config: { access: PRACTICE_ROLES }, schema: { tags: ['best-cases'], params: idParams } },
      async (request) => ok(await bestCases.view(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.get(
      '/admin/best-cases',
      { config: { access: ADMIN_ROLES }, schema: { tags: ['best-cases'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { filter: ADMIN_BEST_CASE_LIST_FILTERS });
        return ok(await bestCases.adminList(requireUser(request), query, requestLanguage(request)));
      },
    );

    app.get(
      '/admin/best-cases/:id',
      { config: { access: ADMIN_ROLES }, schema: { tags: ['best-cases'], params: idParams } },
      async (request) => ok(await bestCases.adminDetail(request.params.id, requireUser(request), requestLanguage(request))),
    );

    app.post(
      '/admin/best-cases',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], body: createBestCaseBody } },
      async (request, reply) => {
        const created = await bestCases.create(requireUser(request), request.body, request.ip, requestLanguage(request));
        return reply.status(201).send(ok(created));
      },
    );

    app.put(
      '/admin/best-cases/:id',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams, body: updateBestCaseBody } },
      async (request) =>
        ok(await bestCases.update(requireUser(request), request.params.id, request.body, request.ip, requestLanguage(request))),
    );

    app.put(
      '/admin/best-cases/:id/published',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams, body: publishBestCaseBody } },
      async (request) =>
        ok(
          await bestCases.setPublished(
            requireUser(request),
            request.params.id,
            request.body.published,
            request.ip,
            requestLanguage(request),
          ),
        ),
    );

    app.put(
      '/admin/best-cases/:id/steps',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams, body: bestCaseStepsBody } },
      async (request) =>
        ok(await bestCases.setSteps(requireUser(request), request.params.id, request.body, request.ip, requestLanguage(request))),
    );

    app.put(
      '/admin/best-cases/:id/step-notes',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams, body: bestCaseStepNotesBody } },
      async (request) =>
        ok(await bestCases.setStepNotes(requireUser(request), request.params.id, request.body, request.ip, requestLanguage(request))),
    );

    app.delete(
      '/admin/best-cases/:id',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams } },
      async (request) => {
        await bestCases.remove(requireUser(request), request.params.id, request.ip);
        return ok({});
      },
    );

    // The author of an analysed case: what they are asked, and their answer.
    app.get(
      '/videos/:id/best-case',
      { config: { access: ['learner'] }, schema: { tags: ['best-cases'], params: idParams } },
      async (request) => ok(await bestCases.request(requireUser(request), request.params.id)),
    );

    app.put(
      '/videos/:id/best-case/consent',
      { config: { access: ['learner'] }, schema: { tags: ['best-cases'], params: idParams, body: bestCaseConsentBody } },
      async (request) => ok(await bestCases.answer(requireUser(request), request.params.id, request.body.accept, request.ip)),
    );
  };
}
