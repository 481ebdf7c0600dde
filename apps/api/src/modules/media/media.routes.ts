import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { LADDER_FILE, ladderPrefix, MASTER_PLAYLIST } from '../../media-pipeline/ladder.ts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from './media.service.ts';
import type { SignedUrls } from './signed-urls.ts';
import type { StreamingService } from '../streaming/streaming.service.ts';

const params = z.object({ id: z.uuid() });
const masterParams = z.object({ id: z.uuid(), file: z.string().max(64) });
const rungParams = z.object({ id: z.uuid(), rung: z.string().max(64), file: z.string().max(64) });
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

/**
 * A playlist as this viewer reads it: every URI (rungs, init segments, segments) carries the
 * signature the playlist was asked with, so the whole ladder expires with it.
 */
export function signPlaylist(text: string, query: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('#EXT-X-MAP:')) return line.replace(/URI="([^"?]+)"/, (_, uri: string) => `URI="${uri}?${query}"`);
      return line && !line.startsWith('#') ? `${line}?${query}` : line;
    })
    .join('\n');
}

/** The encoding a client takes for a playlist (br, then gzip), or none. */
function playlistEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const offered = (accept ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
    .map(([name]) => name!.trim().toLowerCase());
  if (offered.includes('br')) return 'br';
  if (offered.includes('gzip')) return 'gzip';
  return null;
}

export function mediaRoutes(deps: {
  mediaService: MediaService;
  urls: SignedUrls;
  storage: Storage;
  audit: Audit;
  streaming: Pick<StreamingService, 'isReady'>;
}): FastifyPluginAsyncZod {
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

    // The HLS ladder of a playable file, under the same signature as the file: whoever may read
    // the MP4 (the URL was issued to them) may read its ladder, until the same expiry.
    const ladder = async (
      request: {
        params: { id: string; rung?: string; file: string };
        query: z.infer<typeof query>;
        headers: FastifyRequest['headers'];
        ip: string;
      },
      reply: FastifyReply,
    ) => {
      const { u, exp, sig } = request.query;
      const file = request.params.rung ? `${request.params.rung}/${request.params.file}` : request.params.file;
      if (!deps.urls.verify(request.params.id, u, exp, sig) || !LADDER_FILE.test(file)) throw new AppError('NOT_FOUND');
      const row = await deps.mediaService.get(request.params.id);
      if (!row?.videoId) throw new AppError('NOT_FOUND');
      if (!(await deps.streaming.isReady(row.id))) {
        // No ladder yet (or STREAMING=off): the player plays the MP4, without a refused request in its console.
        if (file === MASTER_PLAYLIST) return reply.header('cache-control', 'private, no-store').status(204).send();
        throw new AppError('NOT_FOUND');
      }
      const key = `${ladderPrefix(row.videoId, row.id)}/${file}`;
      const size = await deps.storage.size(key);
      if (size === undefined) throw new AppError('NOT_FOUND');
      reply.header('x-content-type-options', 'nosniff');
      if (file.endsWith('.m3u8')) {
        if (file === MASTER_PLAYLIST) await recordAccess(row, u, exp, request.ip);
        const chunks: Buffer[] = [];
        for await (const chunk of await deps.storage.read(key)) chunks.push(chunk as Buffer);
        const query = new URLSearchParams({ u, exp: String(exp), sig }).toString();
        const body = Buffer.from(signPlaylist(Buffer.concat(chunks).toString('utf8'), query));
        const encoding = playlistEncoding(request.headers['accept-encoding']);
        reply.header('content-type', 'application/vnd.apple.mpegurl');
        // Short: a playlist carries the signature of the request that asked for it.
        reply.header('cache-control', 'private, max-age=10');
        reply.header('vary', 'accept-encoding');
        if (!encoding) return reply.send(body);
        reply.header('content-encoding', encoding);
        return reply.send(encoding === 'br' ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(body));
      }
      reply.header('content-type', 'video/mp4');
      // A segment never changes (a new file is a new ladder under another media id).
      reply.header('cache-control', 'private, max-age=31536000, immutable');
      reply.header('accept-ranges', 'bytes');
      const range = parseRange(request.headers.range, size);
      if (range === 'invalid') {
        reply.header('content-range', `bytes */${size}`);
        return reply.status(416).send();
      }
      if (range) {
        reply.status(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
        reply.header('content-length', range.end - range.start + 1);
        return reply.send(await deps.storage.read(key, range));
      }
      reply.header('content-length', size);
      return reply.send(await deps.storage.read(key));
    };
    const ladderSchema = { tags: ['media'], querystring: query };
    app.get('/media/:id/hls/:file', { config: { access: 'public' }, schema: { ...ladderSchema, params: masterParams } }, ladder);
    app.get('/media/:id/hls/:rung/:file', { config: { access: 'public' }, schema: { ...ladderSchema, params: rungParams } }, ladder);
  };
}
