import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginBody } from '@sutura/domain/auth';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import { authRateLimit, clientInfo } from '../../http/route-helpers.ts';
import { AppError } from '../../http/errors.ts';
import type { SsoService } from '../sso/sso.service.ts';
import type { AuthService } from './auth.service.ts';

export function authRoutes(deps: {
  auth: AuthService;
  sso: Pick<SsoService, 'passwordAllowed' | 'endSessionUrl'>;
  rateLimit: number;
}): FastifyPluginAsyncZod {
  const { auth } = deps;
  return async (app) => {
    app.post(
      '/auth',
      { config: { access: 'public', rateLimit: authRateLimit(deps.rateLimit) }, schema: { tags: ['auth'], body: loginBody } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        // SSO-only installations: the providers sign in, the password only the break-glass account.
        if (!deps.sso.passwordAllowed(request.body.email)) throw new AppError('PASSWORD_SIGN_IN_OFF');
        return ok(reply.session(await auth.login(request.body.email, request.body.password, ip, userAgent)));
      },
    );

    app.get('/auth', { config: { access: 'authenticated' }, schema: { tags: ['auth'] } }, async (request, reply) =>
      ok(reply.session(await auth.refresh(requireUser(request)))),
    );

    app.delete('/auth', { config: { access: 'authenticated' }, schema: { tags: ['auth'] } }, async (request, reply) => {
      const user = requireUser(request);
      // Read before the session ends: a session opened through a provider ends the provider's too.
      const endSessionUrl = await deps.sso.endSessionUrl(user.sessionId);
      await auth.signOut(user, request.ip);
      reply.clearSession();
      return ok(endSessionUrl ? { endSessionUrl } : {});
    });
  };
}
