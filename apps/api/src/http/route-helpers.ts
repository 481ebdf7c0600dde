import type { FastifyRequest } from 'fastify';

/** Per-route limit for the endpoints that guess-work would target (login, codes, sign-up). */
export function authRateLimit(max: number) {
  return {
    max,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      return `${request.ip}|${typeof email === 'string' ? email.toLowerCase() : ''}|${request.routeOptions.url}`;
    },
  };
}

export function clientInfo(request: FastifyRequest): { ip: string; userAgent: string | undefined } {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
