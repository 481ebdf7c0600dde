import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Per-route limit for the endpoints that guess-work would target (login, codes, sign-up): per
 * address and email for anonymous callers, per person once signed in, so that one person's
 * mistakes never block the colleagues who share the hospital's address.
 */
export function authRateLimit(max: number) {
  return {
    max,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => {
      if (request.user) return `user:${request.user.id}|${request.routeOptions.url}`;
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return `${request.ip}|${typeof email === 'string' ? email.toLowerCase() : ''}|${request.routeOptions.url}`;
    },
  };
}

/**
 * A second limit for the calls that tell whether an email has an account (reset, resend, share):
 * per address for anonymous callers, per person once signed in, whatever the email asked about.
 * Returns a preHandler; the route's own limit still applies.
 */
export function lookupLimit(app: FastifyInstance, maxPerHour: number, name: string) {
  const check = app.createRateLimit({
    max: maxPerHour,
    timeWindow: '1 hour',
    keyGenerator: (request: FastifyRequest) => `lookup:${name}|${request.user ? `user:${request.user.id}` : request.ip}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      void reply.header('retry-after', result.ttlInSeconds);
      throw new AppError('RATE_LIMITED');
    }
  };
}

export function clientInfo(request: FastifyRequest): { ip: string; userAgent: string | undefined } {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
