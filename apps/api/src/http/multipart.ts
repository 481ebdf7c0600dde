import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Reads each part of a multipart body. A body that is not well-formed multipart — cut short,
 * no closing boundary, a broken header — is the caller's error: 400 with the file named, never
 * the parser's 500. The limits keep their own codes (413), and so do the route's own refusals.
 */
export async function eachPart(
  request: FastifyRequest,
  limits: { fileSize: number; files?: number },
  handle: (part: Multipart) => Promise<void>,
): Promise<void> {
  try {
    for await (const part of request.parts({ limits })) await handle(part);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw err;
    throw new AppError('VALIDATION', {}, [{ path: 'file', code: 'INVALID_VALUE' }]);
  }
}
