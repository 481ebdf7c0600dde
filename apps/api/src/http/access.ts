import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Role } from '@sutura/domain/roles';
import type { Language } from '@sutura/domain/i18n';
import type { Preferences } from '@sutura/domain/preferences';
import { hasForbiddenCharacters } from '@sutura/domain/rules';
import { AppError } from './errors.ts';
import { sessionCookieToken, wantsSessionCookie } from './session-cookie.ts';

/**
 * Who may call a route: 'public' (anyone), 'authenticated' (any signed-in person), or the
 * roles allowed. Every /v1 route must say it; a route without a rule refuses to register.
 */
export type Access = 'public' | 'authenticated' | readonly Role[];

export interface RequestUser {
  id: string;
  sessionId: string;
  roles: Role[];
  preferences: Preferences;
  /** The language the person last used the app in, as recorded (see http/language.ts). */
  appLanguage?: Language | null;
  /** When this token stops being accepted (session expiry, absolute lifetime or refresh grace). */
  sessionEndsAt: Date;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

export interface Authenticator {
  /** Resolves a bearer token to its live session, or null when invalid, expired or revoked. */
  authenticate(token: string): Promise<RequestUser | null>;
  /** When a live session ends; null once it has ended or was revoked. */
  sessionEndsAt(sessionId: string): Promise<Date | null>;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

/** The Bearer token, else — only when the request says it is the web app — the session cookie. */
export function requestToken(request: FastifyRequest): string | undefined {
  return bearerToken(request) ?? (wantsSessionCookie(request) ? sessionCookieToken(request.headers.cookie) : undefined);
}

export { sessionCookieToken };

export interface RouteRule {
  method: string;
  url: string;
  access: Access;
}

/** Registers the access check and returns the table of every /v1 route with its rule. */
export function registerAccessControl(app: FastifyInstance, auth: Authenticator): RouteRule[] {
  const table: RouteRule[] = [];
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/v1/') || route.url.startsWith('/v1/docs')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (access === undefined) throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url, access });
  });

  // Runs before validation so that an anonymous caller gets 401, not a 400 about their input. A
  // path whose parameters name nothing (`/v1/users/login`: not an id) is an unknown path: a 404
  // before any access rule, in the caller's language (their token read first, for their preference).
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config.access;
    const token = requestToken(request);
    if (token) request.user = await auth.authenticate(token);
    if (!paramsNameSomething(request)) throw new AppError('NOT_FOUND');
    if (access === undefined || access === 'public') return;
    if (!request.user) throw new AppError('UNAUTHORIZED');
    if (access === 'authenticated') return;
    if (!access.some((role) => request.user!.roles.includes(role))) throw new AppError('FORBIDDEN');
  });
  return table;
}

/**
 * Whether the path's parameters have the shape of the route's (an id, a known kind): the route's
 * own schema decides. Characters no text may hold are left to the input guard, which names them.
 */
function paramsNameSomething(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema?.params as { safeParse?: (value: unknown) => { success: boolean } } | undefined;
  if (typeof schema?.safeParse !== 'function') return true;
  const values = Object.values((request.params as Record<string, unknown> | undefined) ?? {});
  if (values.some((v) => typeof v === 'string' && hasForbiddenCharacters(v))) return true;
  return schema.safeParse(request.params).success;
}

export function requireUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw new AppError('UNAUTHORIZED');
  return request.user;
}
