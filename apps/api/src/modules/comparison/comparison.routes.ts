import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PRACTICE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { ComparisonService } from './comparison.service.ts';

const idParams = z.object({ id: z.uuid() });
const pairParams = z.object({ id: z.uuid(), bestCaseId: z.uuid() });

/** Who may see cases today (the service answers 404 for a case that does not concern the caller). */
const CASE_READERS = ['learner', 'editor', 'expert', 'administrator'] as const;

/**
 * Comparisons with a best case: from an analysed case (its author, the people it is shared with,
 * administrators) and from a best case (whoever browses best cases).
 */
export function comparisonRoutes(deps: { comparisons: ComparisonService }): FastifyPluginAsyncZod {
  const { comparisons } = deps;
  return async (app) => {
    app.get(
      '/videos/:id/comparison',
      { config: { access: CASE_READERS }, schema: { tags: ['comparison'], params: idParams } },
      async (request) => ok(await comparisons.caseChoices(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.get(
      '/videos/:id/comparison/:bestCaseId',
      { config: { access: CASE_READERS }, schema: { tags: ['comparison'], params: pairParams } },
      async (request) =>
        ok(await comparisons.compareCase(requireUser(request), request.params.id, request.params.bestCaseId, requestLanguage(request))),
    );

    app.get(
      '/best-cases/:id/comparison',
      { config: { access: PRACTICE_ROLES }, schema: { tags: ['comparison'], params: idParams } },
      async (request) => ok(await comparisons.bestCaseChoices(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.get(
      '/best-cases/:id/comparison/:bestCaseId',
      { config: { access: PRACTICE_ROLES }, schema: { tags: ['comparison'], params: pairParams } },
      async (request) =>
        ok(
          await comparisons.compareBestCases(requireUser(request), request.params.id, request.params.bestCaseId, requestLanguage(request)),
        ),
    );
  };
}
