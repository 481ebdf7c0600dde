import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rppsCheckParams } from '@sutura/domain/auth';
import { ok } from '../../http/envelope.ts';
import { authRateLimit } from '../../http/route-helpers.ts';
import type { RppsService } from './rpps.service.ts';

export function rppsRoutes(deps: { rpps: RppsService; rateLimit: number }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/rppsUsers/check/:rpps/:lastName/:firstName',
      {
        config: { access: 'public', rateLimit: authRateLimit(deps.rateLimit * 3) },
        schema: { tags: ['users'], params: rppsCheckParams },
      },
      async (request) => {
        const { rpps, lastName, firstName } = request.params;
        return ok(await deps.rpps.check(rpps.trim(), lastName, firstName));
      },
    );
  };
}
