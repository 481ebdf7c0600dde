import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodObject } from 'zod';
import { errorMessage, isErrorCode, type ErrorCode } from '@sutura/domain/errors';
import { QueryError } from '@sutura/domain/query';
import { ScratchFull } from '../storage/scratch.ts';
import { AppError } from './errors.ts';
import { redactedError } from './hardening.ts';
import { requestLanguage } from './language.ts';

/** What a request refused for want of scratch space is told to wait before it tries again. */
export const SCRATCH_RETRY_AFTER_SECONDS = 30;

/** Sends `{ success: true, data }`; every handler returns through it. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  params = {},
  details?: { path: string; code: ErrorCode }[],
) {
  const lang = requestLanguage(request);
  // A route may have named its own type (a media file) before it failed: the envelope is JSON.
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({
      success: false,
      error: {
        code,
        message: errorMessage(code, lang, params),
        ...(details?.length ? { details: details.map((d) => ({ ...d, message: errorMessage(d.code, lang) })) } : {}),
      },
    });
}

/** Maps what a fastify-level failure means to the catalogue. */
function fastifyErrorCode(error: FastifyError): ErrorCode | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return 'UNSUPPORTED_MEDIA';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_VALIDATION':
      return 'VALIDATION';
    default:
      return undefined;
  }
}

export function registerEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A path that names no route is a 404, whatever else the request got wrong (its body, its token).
    if (request.is404 && isClientError(error)) return fail(request, reply, 404, 'NOT_FOUND');
    if (error instanceof AppError) return fail(request, reply, error.status, error.code, error.params, error.details);
    if (error instanceof QueryError) return fail(request, reply, 400, 'QUERY_UNKNOWN_FIELD', { field: error.field });
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names nothing that exists.
      if ((error as { validationContext?: string }).validationContext === 'params') return fail(request, reply, 404, 'NOT_FOUND');
      const details = error.validation.flatMap((v) => {
        const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const code = isErrorCode(v.message) ? v.message : ('INVALID_VALUE' as const);
        // An unknown key names itself, so the form can point at it.
        const keys = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
        return keys.length ? keys.map((k) => ({ path: path ? `${path}.${k}` : k, code })) : [{ path, code }];
      });
      return fail(request, reply, 400, details[0]?.code ?? 'VALIDATION', {}, details);
    }
    if (error instanceof ScratchFull) {
      // A request waited its bounded time for room in the scratch space: it changed nothing.
      request.log.warn({ err: redactedError(error) }, 'scratch space full');
      void reply.header('retry-after', String(SCRATCH_RETRY_AFTER_SECONDS));
      return fail(request, reply, 503, 'SCRATCH_BUSY');
    }
    if (error.statusCode === 429) return fail(request, reply, 429, 'RATE_LIMITED');
    if (error.statusCode === 414) return fail(request, reply, 414, 'URI_TOO_LONG');
    const mapped = fastifyErrorCode(error);
    if (mapped) return fail(request, reply, error.statusCode && error.statusCode < 500 ? error.statusCode : 400, mapped);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: redactedError(error) }, 'client error');
      return fail(request, reply, error.statusCode, error.statusCode === 404 ? 'NOT_FOUND' : 'VALIDATION');
    }
    if (isUnreachable(error)) {
      // The database or the media store is out of reach (a restart, a failover): the request
      // changed nothing, and the client may try again shortly.
      request.log.warn({ err: redactedError(error) }, 'dependency unreachable');
      void reply.header('retry-after', '5');
      return fail(request, reply, 503, 'SERVICE_UNAVAILABLE');
    }
    request.log.error({ err: redactedError(error) }, 'unexpected error');
    return fail(request, reply, 500, 'GENERIC');
  });

  // Routes that read no query string accept only `langCode`, and routes with a fixed query only
  // its keys, so a typo is refused, not ignored. Open queries are checked by `parseListQuery`.
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/v1/')) return;
    const schema = request.routeOptions.schema?.querystring;
    const known = !schema ? ['langCode'] : schema instanceof ZodObject ? Object.keys(schema.shape) : undefined;
    if (!known) return;
    for (const key of Object.keys((request.query as object | undefined) ?? {})) if (!known.includes(key)) throw new QueryError(key);
  });
}

/**
 * Paths that are the API's, the process's or the build's, never a page of the web app: an unknown
 * one is a 404 in the envelope, whatever the method (a probe of `/health` must not read the page
 * as a success, a missing chunk of an older deployment must not load it as a script).
 */
const NOT_PAGES = /^\/(?:v\d+|api|metrics|health|ready|socket\.io|assets|docs)(?:[/?#.]|$)/i;

export function registerNotFound(
  app: FastifyInstance,
  serveWeb: ((request: FastifyRequest, reply: FastifyReply) => unknown) | undefined,
): void {
  app.setNotFoundHandler((request, reply) => {
    if (NOT_PAGES.test(request.url) || !serveWeb || request.method !== 'GET') return fail(request, reply, 404, 'NOT_FOUND');
    // Any other path is one of the web app's own pages (its router draws it, or its "not found").
    return serveWeb(request, reply);
  });
}

/** A refusal of the request itself (4xx), as opposed to the server failing or a dependency out of reach. */
function isClientError(error: FastifyError): boolean {
  if (error instanceof AppError) return error.status < 500;
  if (error instanceof QueryError || hasZodFastifySchemaValidationErrors(error)) return true;
  return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500;
}

/** PostgreSQL's classes of errors that mean "not reachable now": connection exceptions and shutdowns. */
const UNREACHABLE_SQLSTATE = /^(08|57P0[1-3]|53300)/;
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

/** An error (or one it wraps: drizzle wraps the driver's) that says a dependency is out of reach. */
export function isUnreachable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, cause, name } = error as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  if (typeof message === 'string' && /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message)) {
    return true;
  }
  if (name === 'TimeoutError' && typeof message === 'string' && /socket|connect/i.test(message)) return true;
  return isUnreachable(cause, depth + 1);
}
