import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { MediaService } from './media.service.ts';
import type { SignedUrls } from './signed-urls.ts';

const params = z.object({ id: z.uuid() });
const query = z.object({ u: z.string(), exp: z.coerce.number(), sig: z.string(), langCode: z.string().optional() });

/** Parses a single `bytes=start-end` range; multi-range requests get the whole file. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, a = '', b = ''] = match;
  let start: number;
  let end: number;
  if (a === '') {
    if (b === '') return 'invalid';
    start = Math.max(0, size - Number(b));
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export function mediaRoutes(deps: { mediaService: MediaService; urls: SignedUrls; storage: Storage }): FastifyPluginAsyncZod {
  return async (app) => {
    // The signature is the access check: the URL was issued to a person allowed to see it.
    app.get('/media/:id', { config: { access: 'public' }, schema: { hide: true, params, querystring: query } }, async (request, reply) => {
      const { u, exp, sig } = request.query;
      if (!deps.urls.verify(request.params.id, u, exp, sig)) throw new AppError('NOT_FOUND');
      const row = await deps.mediaService.get(request.params.id);
      if (!row) throw new AppError('NOT_FOUND');
      const size = await deps.storage.size(row.storageKey);
      if (size === undefined) throw new AppError('NOT_FOUND');
      reply.header('content-type', row.contentType);
      reply.header('accept-ranges', 'bytes');
      reply.header('cache-control', 'private, max-age=300');
      reply.header('x-content-type-options', 'nosniff');
      const range = parseRange(request.headers.range, size);
      if (range === 'invalid') {
        reply.header('content-range', `bytes */${size}`);
        return reply.status(416).send();
      }
      if (range) {
        reply.status(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
        reply.header('content-length', range.end - range.start + 1);
        return reply.send(await deps.storage.read(row.storageKey, range));
      }
      reply.header('content-length', size);
      return reply.send(await deps.storage.read(row.storageKey));
    });
  };
}
