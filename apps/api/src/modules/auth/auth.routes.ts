import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginBody } from '@sutura/domain/auth';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import { authRateLimit, clientInfo } from '../../http/route-helpers.ts';
import type { AuthService } from './auth.service.ts';

export function authRoutes(deps: { auth: AuthService; rateLimit: number }): FastifyPluginAsyncZod {
  const { auth } = deps;
  return async (app) => {
    app.post(
      '/auth',
      { config: { access: 'public', rateLimit: authRateLimit(deps.rateLimit) }, schema: { tags: ['auth'], body: loginBody } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        return ok(reply.session(await auth.login(request.body.email, request.body.password, ip, userAgent)));
      },
    );

    app.get('/auth', { config: { access: 'authenticated' }, schema: { tags: ['auth'] } }, async (request, reply) =>
      ok(reply.session(await auth.refresh(requireUser(request)))),
    );

    app.delete('/auth', { config: { access: 'authenticated' }, schema: { tags: ['auth'] } }, async (request, reply) => {
      await auth.signOut(requireUser(request), request.ip);
      reply.clearSession();
      return ok({});
    });
  };
}
