import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage, type ErrorCode } from '@sutura/domain/errors';
import { DEFAULT_LANGUAGE, languageFromAcceptHeader } from '@sutura/domain/i18n';
import { hasForbiddenCharacters } from '@sutura/domain/rules';
import { AppError } from './errors.ts';

/**
 * The web app's policy: scripts, workers and media only from this origin, no inline script.
 * Inline styles stay allowed because MUI (emotion) writes its styles at run time; `blob:` is
 * for the previews of pictures chosen before upload.
 */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** An API answer is data, never a document: it may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers on every answer; HSTS only when people reach Sutura over https. */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const https = publicUrl.startsWith('https://');
  app.addHook('onSend', async (request, reply, payload) => {
    const api = request.url.startsWith('/v1/') && !request.url.startsWith('/v1/docs');
    reply.header('content-security-policy', api ? API_CSP : WEB_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}

/** The first path of a value holding a NUL or a lone surrogate, or undefined. */
function forbiddenPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return hasForbiddenCharacters(value) ? path : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (hasForbiddenCharacters(key)) return at;
    const found = forbiddenPath(inner, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The shared schemas refuse these characters in every text field; this check runs before them
 * on every input (body, query, path) so that nothing that escapes a schema reaches the database.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of ['params', 'query', 'body'] as const) {
      const value = request[part];
      if (Buffer.isBuffer(value)) continue;
      const path = forbiddenPath(value, '');
      if (path !== undefined) throw new AppError('TEXT_INVALID_CHARACTERS', {}, [{ path, code: 'TEXT_INVALID_CHARACTERS' }]);
    }
  });
}

function envelopeBody(code: ErrorCode, acceptLanguage: string | undefined): string {
  const lang = languageFromAcceptHeader(acceptLanguage) ?? DEFAULT_LANGUAGE;
  return JSON.stringify({ success: false, error: { code, message: errorMessage(code, lang) } });
}

/**
 * Errors the HTTP parser meets before Fastify has a request (headers too large, a request that
 * took too long, a malformed request line) still answer in the envelope, without echoing anything.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code]: [number, ErrorCode] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE']
        : [400, 'VALIDATION'];
  const body = envelopeBody(code, undefined);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Router-level refusals (a path parameter too long, a malformed URL) in the envelope, URL not echoed. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply
    .status(tooLong ? 414 : 400)
    .header('content-type', 'application/json; charset=utf-8')
    .send(envelopeBody(tooLong ? 'URI_TOO_LONG' : 'VALIDATION', request.headers['accept-language']));
}

/**
 * What an unexpected error may leave in the log: its kind and where it was thrown, never its
 * message (a database error's message holds the SQL and every parameter the person sent).
 */
export function redactedError(error: unknown): { type: string; code?: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error };
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line));
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: unknown }).cause;
  const causeCode = cause && typeof cause === 'object' ? (cause as { code?: unknown }).code : undefined;
  return {
    type: error.constructor.name,
    ...(typeof code === 'string' ? { code } : typeof causeCode === 'string' ? { code: causeCode } : {}),
    ...(frames?.length ? { stack: frames.join('\n') } : {}),
  };
}
