import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { DashboardService } from './dashboard.service.ts';

/** The caller's own dashboard: one section per role they have (docs/dashboard.md). */
export function dashboardRoutes(deps: { dashboard: DashboardService }): FastifyPluginAsyncZod {
  const { dashboard } = deps;
  return async (app) => {
    app.get('/dashboard', { config: { access: 'authenticated' }, schema: { tags: ['dashboard'] } }, async (request) =>
      ok(await dashboard.of(requireUser(request), requestLanguage(request))),
    );
  };
}
