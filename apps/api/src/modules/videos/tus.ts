import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatBytes } from '@sutura/domain/errors';
import { UPLOAD_FINGERPRINT_PATTERN } from '@sutura/domain/videos';
import { requireUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import { UploadLockTimeout, type UploadStore } from '../../storage/uploads.ts';
import type { VideoService } from './videos.service.ts';

/** Where the tus routes live under /v1; an upload's URL is this plus its id. */
const UPLOADS_PATH = '/v1/uploads';
const TUS_VERSION = '1.0.0';
/** Deferred lengths are not accepted (a too big file could not be refused up front). */
const TUS_EXTENSIONS = 'creation,creation-with-upload,termination';
/** The only body a PATCH (or a creation with upload) may have. */
const OCTET_STREAM = 'application/offset+octet-stream';
const idParams = z.object({ id: z.uuid() });
const uuid = z.uuid();

/** A path prefix a reverse proxy says it mounts the app under (`X-Forwarded-Prefix: /sutura`). */
function forwardedPrefix(value: string | string[] | undefined): string {
  const first = Array.isArray(value) ? value[0] : value;
  const prefix = first?.split(',')[0]?.trim().replace(/\/+$/, '') ?? '';
  return /^(\/[\w.~-]+)*$/.test(prefix) ? prefix : '';
}

/** A non-negative integer header (Upload-Offset, Upload-Length), as tus writes them. */
function byteCount(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,16}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && String(n) === value ? n : undefined;
}

/** Announced size of a new upload; a deferred length is not accepted (it could not be refused up front). */
function uploadLength(request: FastifyRequest): number {
  const size = byteCount(request.headers['upload-length']);
  if (size === undefined || request.headers['upload-defer-length'] !== undefined) {
    throw new AppError('VALIDATION', {}, [{ path: 'Upload-Length', code: 'FIELD_REQUIRED' }]);
  }
  return size;
}

/**
 * tus' Upload-Metadata: comma-separated `key` or `key base64value` pairs, keys unique, non-empty,
 * ASCII without spaces or commas.
 */
function parseMetadata(header: string): Record<string, string | null> {
  const pairs = new Map<string, string | null>();
  for (const pair of header.split(',')) {
    const [key, value, ...rest] = pair.split(' ');
    const keyOk = !!key && /^[\x21-\x2b\x2d-\x7e]+$/.test(key) && !pairs.has(key);
    const valueOk = value === undefined || (value.length % 4 === 0 && /^[\d+/A-Za-z]*={0,2}$/.test(value));
    if (!keyOk || !valueOk || rest.length) throw new Error('Invalid Upload-Metadata');
    pairs.set(key, value ? Buffer.from(value, 'base64').toString('utf8') : null);
  }
  return Object.fromEntries(pairs);
}

function stringifyMetadata(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

function uploadMetadata(request: FastifyRequest): Record<string, string | null> {
  const raw = request.headers['upload-metadata'];
  if (raw === undefined || raw === '') return {};
  try {
    return parseMetadata(String(raw));
  } catch {
    throw new AppError('VALIDATION', {}, [{ path: 'Upload-Metadata', code: 'INVALID_VALUE' }]);
  }
}

/**
 * The file's fingerprint the browser sends in the metadata (UPLOAD_FINGERPRINT_PATTERN), kept
 * with the upload so that a resume from another browser checks it is the same file; it must
 * speak of a file of the announced size. Absent: none is kept (an older client).
 */
function uploadFingerprint(metadata: Record<string, string | null>, size: number): string | null {
  const value = metadata.fingerprint;
  if (value === undefined || value === null) return null;
  const match = UPLOAD_FINGERPRINT_PATTERN.exec(value);
  if (!match || Number(match[2]) !== size) throw new AppError('VALIDATION', {}, [{ path: 'fingerprint', code: 'INVALID_VALUE' }]);
  return value;
}

/**
 * A refusal of the tus protocol itself, answered in plain text as tus servers do (the web tells
 * them from the API's envelope: it retries a 409 offset conflict, not a VIDEO_ALREADY_UPLOADED).
 */
class TusRefusal extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, text: string, headers: Record<string, string> = {}) {
    super(text);
    this.status = status;
    this.headers = headers;
  }
}

/** Upload-Offset, Content-Type… not what tus asks for. */
const refusals = {
  version: () => new TusRefusal(412, 'Tus-Resumable Required\n', { 'tus-version': TUS_VERSION }),
  missing: () => new TusRefusal(404, 'The file for this url was not found\n'),
  gone: () => new TusRefusal(410, 'The file for this url no longer exists\n'),
  offset: () => new TusRefusal(409, 'Upload-Offset conflict\n'),
  // The body is not read: the connection closes after the answer.
  tooBig: () => new TusRefusal(413, "upload's size exceeded\n", { connection: 'close' }),
  busy: () => new TusRefusal(423, 'The upload is busy, try again\n'),
};

/** 412 unless the client speaks tus 1.0.0 (OPTIONS need not say it). */
function checkVersion(request: FastifyRequest): void {
  if (request.headers['tus-resumable'] !== TUS_VERSION) throw refusals.version();
}

/**
 * The resumable upload of a video's file: a small tus 1.0.0 server (core protocol, creation,
 * creation-with-upload and termination), bytes in the upload store (a file in DATA_DIR/uploads,
 * or S3 multipart parts with their state in the database). Fastify authenticates and checks the
 * video first; a PATCH body is then piped from the socket into the store, never buffered whole. Only the person who created an upload may
 * look at, continue or delete it; anyone else gets 404.
 */
export function uploadRoutes(deps: { videos: VideoService; uploads: UploadStore; maxUploadBytes: number }): FastifyPluginAsyncZod {
  const { videos, maxUploadBytes } = deps;
  const store = deps.uploads;

  /** The caller's own upload, or 404; continuing or deleting it only while it is still open. */
  async function ownUpload(request: FastifyRequest<{ Params: { id: string } }>, { open }: { open: boolean }) {
    const video = await videos.uploadOf(request.params.id, requireUser(request).id);
    if (!video) throw notFound();
    if (open && video.mediaStatus !== 'uploading') throw new AppError('VIDEO_ALREADY_UPLOADED');
    return video;
  }

  /** Runs `work` while no other request of this process touches the upload (an older one is stopped). */
  async function exclusive<T>(id: string, work: (onStop: (stop: () => void) => void) => Promise<T>): Promise<T> {
    const lock = await store.lock(id).catch((err: unknown) => {
      throw err instanceof UploadLockTimeout ? refusals.busy() : err;
    });
    try {
      return await work(lock.onStop);
    } finally {
      lock.release();
    }
  }

  /**
   * Appends the request body at `offset` (it must be where the file ends: 409 otherwise), never
   * beyond Upload-Length; the finish hook runs once the last byte is in. A cut connection keeps
   * what was written: the next HEAD says how far it got.
   */
  async function receive(request: FastifyRequest, reply: FastifyReply, id: string, offset: number, status: 201 | 204) {
    const { size, received } = await exclusive(id, async (onStop) => {
      const info = await store.info(id);
      const current = await store.offset(id);
      if (!info) throw refusals.missing();
      if (current === undefined) throw refusals.gone();
      if (current !== offset) throw refusals.offset();
      const length = byteCount(request.headers['content-length']);
      if (length !== undefined && offset + length > info.size) throw refusals.tooBig();
      return { size: info.size, received: await store.receive(id, request.raw, offset, length ?? info.size - offset, onStop) };
    });
    const newOffset = offset + received.bytes;
    switch (received.end) {
      case 'aborted':
        // Nobody to answer: the bytes that arrived are in the file, HEAD will say so.
        request.log.info({ uploadId: id, offset: newOffset }, 'upload connection cut');
        reply.hijack();
        if (!reply.raw.destroyed) reply.raw.destroy();
        return reply;
      case 'too-big':
        throw new TusRefusal(413, 'Maximum size exceeded\n', { connection: 'close' });
      case 'stopped':
        // Taken over by a newer request of the same upload: the rest of this body is not read.
        reply.header('connection', 'close');
        break;
      case 'complete':
        break;
    }
    if (newOffset === size) await videos.uploadFinished(id, size);
    return reply.code(status).header('upload-offset', String(newOffset)).send();
  }

  return async (app) => {
    await store.prepare();
    // PATCH bodies are the file's bytes: left unread here, so that they stream to disk.
    app.addContentTypeParser(OCTET_STREAM, (_request, _payload, done) => done(null));
    // Every answer of these routes says the protocol, the API's refusals included.
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('tus-resumable', TUS_VERSION);
      done();
    });
    app.setErrorHandler((error, _request, reply) => {
      // Anything else goes to the envelope of the parent handler.
      if (!(error instanceof TusRefusal)) throw error;
      return reply.code(error.status).headers(error.headers).type('text/plain; charset=utf-8').send(error.message);
    });
    // Administrators send the video of a best case they create (modules/best-cases).
    const access = { access: ['learner', 'administrator'] as const };

    app.options(`/uploads/`, { config: access, schema: { tags: ['uploads'] } }, async (_request, reply) =>
      reply
        .code(204)
        .header('tus-version', TUS_VERSION)
        .header('tus-extension', TUS_EXTENSIONS)
        .header('tus-max-size', String(maxUploadBytes))
        .send(),
    );

    app.post(`/uploads/`, { config: access, schema: { tags: ['uploads'] } }, async (request, reply) => {
      const user = requireUser(request);
      const size = uploadLength(request);
      const metadata = uploadMetadata(request);
      if (size > maxUploadBytes) {
        const lang = requestLanguage(request);
        // The name is only said back in the message; it is never kept.
        const file = metadata.filename || (lang === 'fr' ? 'Ce fichier' : 'This file');
        throw new AppError('UPLOAD_TOO_BIG', { file, max: formatBytes(maxUploadBytes, lang) });
      }
      const videoId = metadata.videoId;
      if (!videoId || !uuid.safeParse(videoId).success) throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'FIELD_REQUIRED' }]);
      const fingerprint = uploadFingerprint(metadata, size);
      await videos.uploadTarget(user, videoId);
      checkVersion(request);

      const id = randomUUID();
      if (!(await videos.claimUpload(user.id, videoId, id, size, fingerprint, requestLanguage(request))))
        throw new AppError('VIDEO_ALREADY_UPLOADED');
      await store.create({
        id,
        size,
        videoId,
        owner: user.id,
        createdAt: new Date().toISOString(),
        ...(metadata.filetype ? { filetype: metadata.filetype } : {}),
      });
      // Relative to the host the browser used, so it works behind the Vite proxy or any reverse
      // proxy (which may say it mounts the app under a prefix).
      reply.header('location', `${forwardedPrefix(request.headers['x-forwarded-prefix'])}${UPLOADS_PATH}/${id}`);
      if (request.headers['content-type'] === OCTET_STREAM) return receive(request, reply, id, 0, 201);
      if (size === 0) await videos.uploadFinished(id, 0);
      return reply.code(201).send();
    });

    app.route({
      method: 'HEAD',
      url: '/uploads/:id',
      config: access,
      schema: { tags: ['uploads'], params: idParams },
      handler: async (request, reply) => {
        const video = await ownUpload(request, { open: false });
        checkVersion(request);
        const { id } = request.params;
        // A PATCH still writing is stopped first, so that the offset is what is on disk.
        const { info, offset } = await exclusive(id, async () => ({ info: await store.info(id), offset: await store.offset(id) }));
        if (!info) throw refusals.missing();
        if (offset === undefined) throw refusals.gone();
        // Every byte is there but the finish did not run (a crash, the queue down): now it does.
        if (offset === info.size && video.mediaStatus === 'uploading') await videos.uploadFinished(id, info.size);
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .header('upload-offset', String(offset))
          .header('upload-length', String(info.size))
          .header('upload-metadata', stringifyMetadata({ videoId: info.videoId, filetype: info.filetype }))
          .send();
      },
    });

    app.patch('/uploads/:id', { config: access, schema: { tags: ['uploads'], params: idParams } }, async (request, reply) => {
      await ownUpload(request, { open: true });
      checkVersion(request);
      const rawOffset = request.headers['upload-offset'];
      if (rawOffset === undefined) throw new TusRefusal(403, 'Upload-Offset header required\n');
      const offset = byteCount(rawOffset);
      if (offset === undefined) throw new TusRefusal(400, 'Invalid upload-offset\n');
      const contentType = request.headers['content-type'];
      if (contentType === undefined) throw new TusRefusal(403, 'Content-Type header required\n');
      if (contentType !== OCTET_STREAM) throw new TusRefusal(400, 'Invalid content-type\n');
      // The length was given at creation; it cannot be declared again.
      if (request.headers['upload-length'] !== undefined) throw new TusRefusal(400, 'Invalid upload-length\n');
      return receive(request, reply, request.params.id, offset, 204);
    });

    app.delete('/uploads/:id', { config: access, schema: { tags: ['uploads'], params: idParams } }, async (request, reply) => {
      await ownUpload(request, { open: true });
      checkVersion(request);
      const { id } = request.params;
      await exclusive(id, async () => {
        const info = await store.info(id);
        const offset = await store.offset(id);
        if (offset === undefined) throw refusals.missing();
        if (info && offset === info.size) throw new TusRefusal(400, 'Cannot terminate an already completed upload\n');
        await store.remove(id);
      });
      // The bytes are gone whatever happens here; the video waits for a new upload.
      await videos
        .uploadTerminated(id)
        .catch((err: unknown) => request.log.error({ err, uploadId: id }, 'upload termination not recorded'));
      return reply.code(204).send();
    });
  };
}
