import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statsQuery } from '@sutura/domain/stats';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { StatsService } from './stats.service.ts';

/** A learner's own statistics (docs/statistics.md); nobody reads another person's. */
export function statsRoutes(deps: { stats: StatsService }): FastifyPluginAsyncZod {
  const { stats } = deps;
  return async (app) => {
    app.get('/stats/me', { config: { access: ['learner'] }, schema: { tags: ['stats'], querystring: statsQuery } }, async (request) =>
      ok(await stats.learner(requireUser(request), request.query.compare)),
    );
  };
}
