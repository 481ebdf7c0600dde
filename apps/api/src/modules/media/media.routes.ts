import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
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

/** The files of a case whose reading the audit log records: its videos (source, rendered) and voice advice. */
export const AUDITED_MEDIA_KINDS: ReadonlySet<string> = new Set(['video', 'prepared-video', 'voice', 'data-export']);
/** Signed URLs remembered as already recorded; past this the oldest are forgotten (recorded again at worst). */
const RECORDED_URLS_MAX = 50_000;

/**
 * `media.accessed` is written once per signed URL (media, person, expiry), at its first read: a
 * player's many range requests, and a page reloaded within the URL's lifetime, add nothing. The
 * memory is per process, so a URL read through two processes may be recorded twice.
 */
export function mediaAccessRecorder(audit: Audit, now: () => number = Date.now) {
  const recorded = new Map<string, number>();
  return async (row: { id: string; kind: string; videoId: string | null }, userId: string, exp: number, ip: string) => {
    if (!AUDITED_MEDIA_KINDS.has(row.kind)) return;
    const key = `${row.id}.${userId}.${exp}`;
    if (recorded.has(key)) return;
    if (recorded.size >= RECORDED_URLS_MAX) {
      const seconds = now() / 1000;
      for (const [k, until] of recorded) if (until < seconds) recorded.delete(k);
      if (recorded.size >= RECORDED_URLS_MAX) recorded.delete(recorded.keys().next().value!);
    }
    recorded.set(key, exp);
    await audit(userId, 'media.accessed', 'media', row.id, ip, { videoId: row.videoId, kind: row.kind });
  };
}

export function mediaRoutes(deps: { mediaService: MediaService; urls: SignedUrls; storage: Storage; audit: Audit }): FastifyPluginAsyncZod {
  const recordAccess = mediaAccessRecorder(deps.audit);
  return async (app) => {
    // The signature is the access check: the URL was issued to a person allowed to see it.
    app.get(
      '/media/:id',
      { config: { access: 'public' }, schema: { tags: ['media'], params, querystring: query } },
      async (request, reply) => {
        const { u, exp, sig } = request.query;
        if (!deps.urls.verify(request.params.id, u, exp, sig)) throw new AppError('NOT_FOUND');
        const row = await deps.mediaService.get(request.params.id);
        if (!row) throw new AppError('NOT_FOUND');
        const size = await deps.storage.size(row.storageKey);
        if (size === undefined) throw new AppError('NOT_FOUND');
        await recordAccess(row, u, exp, request.ip);
        reply.header('content-type', row.contentType);
        reply.header('accept-ranges', 'bytes');
        reply.header('cache-control', 'private, max-age=300');
        reply.header('x-content-type-options', 'nosniff');
        // A person's copy of their data is saved, never shown in the page.
        if (row.kind === 'data-export') reply.header('content-disposition', `attachment; filename="sutura-data-${row.id.slice(0, 8)}.zip"`);
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
      },
    );
  };
}
