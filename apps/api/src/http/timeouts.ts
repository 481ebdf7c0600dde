import type { FastifyInstance } from 'fastify';
import { errorMessage } from '@sutura/domain/errors';
import { requestLanguage } from './language.ts';

/** Largest JSON body of any route: the longest form (a case with its texts) fits many times. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** A picture or an avatar over a slow hospital connection: 25 MB at 1 Mbit/s takes about 4 minutes. */
export const MULTIPART_REQUEST_TIMEOUT_MS = 10 * 60_000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's deadline for the whole request, body included; `false` for none (tus). */
    requestTimeoutMs?: number | false;
  }
}

/**
 * Every request must have arrived and been answered within its route's deadline, or it is
 * answered 408 and its connection closed: a client sending one byte every ten seconds holds
 * nothing for long. tus uploads have none (the protocol resumes a cut upload); the idle timeout
 * of the connection still closes one that sends nothing.
 */
export function registerRequestDeadline(app: FastifyInstance, defaultMs: number): void {
  const timers = new WeakMap<object, NodeJS.Timeout>();
  app.addHook('onRequest', async (request, reply) => {
    const own = request.routeOptions.config.requestTimeoutMs;
    const uploads = request.url.startsWith('/v1/uploads');
    const ms = own === false || (own === undefined && uploads) ? undefined : (own ?? defaultMs);
    if (ms === undefined) return;
    const timer = setTimeout(() => {
      // Once an answer has started (a video streamed to a player), the idle timeout governs it.
      if (reply.sent || reply.raw.headersSent) return;
      request.log.info('request deadline passed');
      const body = {
        success: false,
        error: { code: 'REQUEST_TIMEOUT', message: errorMessage('REQUEST_TIMEOUT', requestLanguage(request)) },
      };
      reply.raw.once('finish', () => request.raw.destroy());
      void reply.status(408).header('connection', 'close').type('application/json; charset=utf-8').send(body);
    }, ms);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('onResponse', async (request) => {
    clearTimeout(timers.get(request));
  });
}
