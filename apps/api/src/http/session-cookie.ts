import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '@sutura/domain/auth';

/**
 * The web app keeps its session in an httpOnly cookie that no script can read, instead of the
 * spec's `localStorage.userToken` (any injected script could take a token from there). API
 * clients keep the Bearer token of the spec's call table. A request asks for the cookie mode
 * with this header, which also stands as the CSRF proof: a page of another site cannot send a
 * custom header without a CORS preflight, which this server never grants, and the cookie is
 * SameSite=Strict besides. docs/security.md, point 5.
 */
export const SESSION_MODE_HEADER = 'x-sutura-session';
const COOKIE = 'sutura_session';
/** On https the __Host- prefix makes the browser refuse the cookie unless Secure, on /, without Domain. */
const SECURE_COOKIE = '__Host-sutura_session';
/**
 * A companion the page can read, holding no secret (always `1`), set and cleared with the session
 * cookie: a page without it knows nobody is signed in and does not ask (an answer of 401 on every
 * signed-out page load otherwise). It proves nothing; the server only trusts the session cookie.
 */
export const SIGNED_IN_COOKIE = 'sutura_signed_in';
const SECURE_SIGNED_IN_COOKIE = '__Host-sutura_signed_in';

export function wantsSessionCookie(request: FastifyRequest): boolean {
  return request.headers[SESSION_MODE_HEADER] === 'cookie';
}

/** The token in a Cookie header, under either name. */
export function sessionCookieToken(header: string | undefined): string | undefined {
  const match = header?.match(/(?:^|;\s*)(?:__Host-)?sutura_session=([\w.-]+)/);
  return match?.[1];
}

declare module 'fastify' {
  interface FastifyReply {
    /** Answers a new session: in the cookie for the web app (the body's token left empty), else in the body. */
    session(session: Session): Session;
    /** Removes the web app's session cookie. */
    clearSession(): void;
    /** Sets the session cookie whatever the request's headers (a browser coming back from a sign-in provider). */
    sessionCookie(session: Session): void;
  }
}

export function registerSessionCookie(app: FastifyInstance, opts: { secure: boolean; maxAgeSeconds: number }): void {
  const name = opts.secure ? SECURE_COOKIE : COOKIE;
  const companion = opts.secure ? SECURE_SIGNED_IN_COOKIE : SIGNED_IN_COOKIE;
  const shared = `Path=/; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
  const attributes = `${shared}; HttpOnly`;
  const cookies = (session: Session) => [
    `${name}=${session.token}; ${attributes}; Max-Age=${opts.maxAgeSeconds}`,
    `${companion}=1; ${shared}; Max-Age=${opts.maxAgeSeconds}`,
  ];
  app.decorateReply('session', function (this: FastifyReply, session: Session): Session {
    if (!wantsSessionCookie(this.request)) return session;
    void this.header('set-cookie', cookies(session));
    void this.header('cache-control', 'no-store');
    return { ...session, token: '' };
  });
  app.decorateReply('sessionCookie', function (this: FastifyReply, session: Session): void {
    const current = this.getHeader('set-cookie');
    const before = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
    void this.header('set-cookie', [...before, ...cookies(session)]);
    void this.header('cache-control', 'no-store');
  });
  app.decorateReply('clearSession', function (this: FastifyReply) {
    void this.header('set-cookie', [`${name}=; ${attributes}; Max-Age=0`, `${companion}=; ${shared}; Max-Age=0`]);
  });
}
