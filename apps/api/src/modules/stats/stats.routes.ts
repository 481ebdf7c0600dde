import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parseListQuery } from '@sutura/domain/query';
import { statsComparisonSchema, stepTimesSurgerySchema } from '@sutura/domain/stats';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { StatsService } from './stats.service.ts';

/** A learner's own statistics (docs/statistics.md); nobody reads another person's. */
export function statsRoutes(deps: { stats: StatsService }): FastifyPluginAsyncZod {
  const { stats } = deps;
  return async (app) => {
    app.get(
      '/stats/me',
      { config: { access: ['learner'] }, schema: { tags: ['stats'], querystring: listQuerystring } },
      async (request) => {
        const { filter } = parseListQuery(request.query, { filter: ['compare'] });
        const compare = statsComparisonSchema.safeParse(filter.compare ?? 'all');
        if (!compare.success) throw new AppError('INVALID_VALUE');
        return ok(await stats.learner(requireUser(request), compare.data));
      },
    );
    app.get(
      '/stats/me/nasa-tlx',
      { config: { access: ['learner'] }, schema: { tags: ['stats'], querystring: listQuerystring } },
      async (request) => {
        const { filter } = parseListQuery(request.query, { filter: ['compare'] });
        const compare = statsComparisonSchema.safeParse(filter.compare ?? 'all');
        if (!compare.success) throw new AppError('INVALID_VALUE');
        return ok(await stats.nasaTlx(requireUser(request), compare.data));
      },
    );
    app.get(
      '/stats/me/steps',
      { config: { access: ['learner'] }, schema: { tags: ['stats'], querystring: listQuerystring } },
      async (request) => {
        const { filter } = parseListQuery(request.query, { filter: ['surgeryId'] });
        const surgeryId = filter.surgeryId === undefined ? undefined : stepTimesSurgerySchema.safeParse(filter.surgeryId);
        if (surgeryId && !surgeryId.success) throw new AppError('INVALID_VALUE');
        return ok(await stats.stepTimes(requireUser(request), surgeryId?.data, requestLanguage(request)));
      },
    );
  };
}
