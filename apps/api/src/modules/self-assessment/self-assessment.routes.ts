import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { saveSelfAssessmentBody } from '@sutura/domain/self-assessment';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { SelfAssessmentService } from './self-assessment.service.ts';
import type { SelfVsExpertStats } from './self-assessment.stats.ts';

const idParams = z.object({ id: z.uuid() });
const noBody = z.object({}).strict().nullish();
const learners = ['learner'] as const;

/** The surgeon's self-assessment of their case and its statistics; the author's own only (404 otherwise). */
export function selfAssessmentRoutes(deps: { selfAssessment: SelfAssessmentService; stats: SelfVsExpertStats }): FastifyPluginAsyncZod {
  const { selfAssessment, stats } = deps;
  return async (app) => {
    app.get(
      '/videos/:id/self-assessment',
      { config: { access: learners }, schema: { tags: ['self-assessment'], params: idParams } },
      async (request) => ok(await selfAssessment.get(requireUser(request), request.params.id)),
    );
    app.put(
      '/videos/:id/self-assessment',
      { config: { access: learners }, schema: { tags: ['self-assessment'], params: idParams, body: saveSelfAssessmentBody } },
      async (request) => ok(await selfAssessment.save(requireUser(request), request.params.id, request.body)),
    );
    app.post(
      '/videos/:id/self-assessment/skip',
      { config: { access: learners }, schema: { tags: ['self-assessment'], params: idParams, body: noBody } },
      async (request) => ok(await selfAssessment.skip(requireUser(request), request.params.id)),
    );
    app.get('/stats/me/self-assessment', { config: { access: learners }, schema: { tags: ['stats'] } }, async (request) =>
      ok(await stats.learner(requireUser(request))),
    );
  };
}
