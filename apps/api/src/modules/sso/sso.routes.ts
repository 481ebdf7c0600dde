import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ROLES } from '@sutura/domain/roles';
import { ssoCompleteBody, ssoLinkBody, ssoProviderParams, ssoStartQuery } from '@sutura/domain/sso';
import { ok } from '../../http/envelope.ts';
import { requireUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { authRateLimit, clientInfo } from '../../http/route-helpers.ts';
import type { SsoService } from './sso.service.ts';

/** The browser's key of a sign-in in flight at a provider (Lax: it comes back on the provider's redirect). */
const REQUEST_COOKIE = 'sutura_sso_request';
/** The browser's key of a proven identity waiting for a sign-up or a link. */
const PENDING_COOKIE = 'sutura_sso_pending';
const COOKIE_PATH = '/v1/auth/sso';

const idParams = z.object({ id: z.uuid() });
const noBody = z.object({}).strict().nullish();
const providerAnswer = z.record(z.string(), z.string().max(4096));

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const match = request.headers.cookie?.match(new RegExp(`(?:^|;\\s*)${name}=([\\w-]+)`));
  return match?.[1];
}

export function ssoRoutes(deps: { sso: SsoService; secure: boolean; rateLimit: number }): FastifyPluginAsyncZod {
  const { sso } = deps;
  const limited = { rateLimit: authRateLimit(deps.rateLimit) };
  const attributes = `Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${deps.secure ? '; Secure' : ''}`;
  const setCookie = (reply: FastifyReply, name: string, value: string, maxAgeSeconds: number) => {
    const current = reply.getHeader('set-cookie');
    const before = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
    void reply.header('set-cookie', [...before, `${name}=${value}; ${attributes}; Max-Age=${maxAgeSeconds}`]);
  };
  /** A refusal reaches the person on the sign-in page, in their language, from its catalogue code. */
  const toLogin = (reply: FastifyReply, code: string) => reply.redirect(`/auth/login?sso_error=${encodeURIComponent(code)}`, 303);

  return async (app) => {
    app.get('/auth/sso', { config: { access: 'public' }, schema: { tags: ['auth'] } }, async () => ok(sso.options()));

    app.get(
      '/auth/sso/:provider/start',
      { config: { access: 'public', ...limited }, schema: { tags: ['auth'], params: ssoProviderParams, querystring: ssoStartQuery } },
      async (request, reply) => {
        try {
          const { url, key } = await sso.start(request.params.provider, request.query.next);
          setCookie(reply, REQUEST_COOKIE, key, 600);
          void reply.header('cache-control', 'no-store');
          return await reply.redirect(url, 303);
        } catch (error) {
          if (error instanceof AppError) return toLogin(reply, error.code);
          throw error;
        }
      },
    );

    app.get(
      '/auth/sso/:provider/callback',
      // The provider's answer: code, state, and whatever else it adds (iss, session_state…).
      { config: { access: 'public', ...limited }, schema: { tags: ['auth'], params: ssoProviderParams, querystring: providerAnswer } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        // The request cookie is spent whatever the outcome.
        setCookie(reply, REQUEST_COOKIE, '', 0);
        void reply.header('cache-control', 'no-store');
        const url = new URL(request.url, 'http://callback.invalid');
        // openid-client compares the redirect URI the code was issued for: the public one.
        const current = new URL(`${sso.callbackUrl(request.params.provider)}${url.search}`);
        try {
          const outcome = await sso.callback(request.params.provider, current, cookieOf(request, REQUEST_COOKIE), ip, userAgent);
          if ('pendingKey' in outcome) {
            setCookie(reply, PENDING_COOKIE, outcome.pendingKey, 1800);
            return await reply.redirect('/auth/sso', 303);
          }
          reply.sessionCookie(outcome.session);
          return await reply.redirect(outcome.next ?? '/dashboard', 303);
        } catch (error) {
          if (error instanceof AppError) return toLogin(reply, error.code);
          request.log.error({ err: error }, 'OpenID Connect callback failed');
          return toLogin(reply, 'GENERIC');
        }
      },
    );

    app.get('/auth/sso/pending', { config: { access: 'public' }, schema: { tags: ['auth'] } }, async (request) =>
      ok(await sso.pending(cookieOf(request, PENDING_COOKIE))),
    );

    app.delete('/auth/sso/pending', { config: { access: 'public' }, schema: { tags: ['auth'] } }, async (request, reply) => {
      await sso.cancel(cookieOf(request, PENDING_COOKIE));
      setCookie(reply, PENDING_COOKIE, '', 0);
      return ok({});
    });

    app.post(
      '/auth/sso/pending/complete',
      { config: { access: 'public', ...limited }, schema: { tags: ['auth'], body: ssoCompleteBody } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        const session = await sso.completeSignUp(cookieOf(request, PENDING_COOKIE), request.body, ip, userAgent);
        setCookie(reply, PENDING_COOKIE, '', 0);
        return ok(reply.session(session));
      },
    );

    app.post(
      '/auth/sso/pending/code',
      { config: { access: 'public', ...limited }, schema: { tags: ['auth'], body: noBody } },
      async (request) => {
        await sso.sendLinkCode(cookieOf(request, PENDING_COOKIE), requestLanguage(request));
        return ok({ sent: true as const });
      },
    );

    app.post(
      '/auth/sso/pending/link',
      { config: { access: 'public', ...limited }, schema: { tags: ['auth'], body: ssoLinkBody } },
      async (request, reply) => {
        const { ip, userAgent } = clientInfo(request);
        const session = await sso.link(cookieOf(request, PENDING_COOKIE), request.body, ip, userAgent);
        setCookie(reply, PENDING_COOKIE, '', 0);
        return ok(reply.session(session));
      },
    );

    app.get('/users/profile/me/identities', { config: { access: 'authenticated' }, schema: { tags: ['users'] } }, async (request) =>
      ok(await sso.identities(requireUser(request).id)),
    );

    app.delete(
      '/users/profile/me/identities/:id',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], params: idParams } },
      async (request) => {
        const user = requireUser(request);
        await sso.removeIdentity(user.id, request.params.id, request.ip);
        return ok(await sso.identities(user.id));
      },
    );

    app.get('/admin/sso', { config: { access: ADMIN_ROLES }, schema: { tags: ['admin'] } }, async () => ok(sso.adminView()));

    app.get(
      '/admin/users/:id/identities',
      { config: { access: ADMIN_ROLES }, schema: { tags: ['admin'], params: idParams } },
      async (request) => ok(await sso.identities(request.params.id)),
    );
  };
}
