import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FileStore } from '@tus/file-store';
import { Metadata, Server, type Upload } from '@tus/server';
import { errorMessage, formatBytes } from '@sutura/domain/errors';
import type { Language } from '@sutura/domain/i18n';
import { requireUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import type { VideoService } from './videos.service.ts';

/** Where the tus routes live under /v1; an upload's URL is this plus its id. */
const UPLOADS_PATH = '/v1/uploads';
const idParams = z.object({ id: z.uuid() });
const uuid = z.uuid();

/** A path prefix a reverse proxy says it mounts the app under (`X-Forwarded-Prefix: /sutura`). */
function forwardedPrefix(value: string | null): string {
  const prefix = value?.split(',')[0]?.trim().replace(/\/+$/, '') ?? '';
  return /^(\/[\w.~-]+)*$/.test(prefix) ? prefix : '';
}

/** Announced size of a new upload; a deferred length is not accepted (it could not be refused up front). */
function uploadLength(request: FastifyRequest): number {
  const raw = request.headers['upload-length'];
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw) || request.headers['upload-defer-length'] !== undefined) {
    throw new AppError('VALIDATION', {}, [{ path: 'Upload-Length', code: 'FIELD_REQUIRED' }]);
  }
  return Number(raw);
}

function uploadMetadata(request: FastifyRequest): Record<string, string | null> {
  const raw = request.headers['upload-metadata'];
  if (raw === undefined || raw === '') return {};
  try {
    return Metadata.parse(String(raw));
  } catch {
    throw new AppError('VALIDATION', {}, [{ path: 'Upload-Metadata', code: 'INVALID_VALUE' }]);
  }
}

/**
 * The resumable upload of a video's file (tus 1.0 through @tus/server, bytes in
 * DATA_DIR/uploads). Fastify authenticates and checks the video first, then hands the raw
 * request over: the body streams to disk without being buffered. Only the person who created
 * an upload may look at, continue or delete it; anyone else gets 404.
 */
export function uploadRoutes(deps: { videos: VideoService; maxUploadBytes: number }): FastifyPluginAsyncZod {
  const { videos, maxUploadBytes } = deps;
  /** Who is creating which upload, from Fastify's checks to the tus hooks of the same request. */
  const creating = new WeakMap<IncomingMessage, { userId: string; videoId: string; lang: Language }>();

  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: new FileStore({ directory: videos.uploadsDir }),
    maxSize: maxUploadBytes,
    // Same origin only: no Access-Control-Allow-Origin header.
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    namingFunction: () => randomUUID(),
    getFileIdFromRequest: (req) => {
      const id = new URL(req.url).pathname.split('/').pop();
      return id && uuid.safeParse(id).success ? id : undefined;
    },
    // Relative to the host the browser used, so it works behind the Vite proxy or any reverse
    // proxy (which may say it mounts the app under a prefix).
    generateUrl: (req, { id }) => `${forwardedPrefix(req.headers.get('x-forwarded-prefix'))}${UPLOADS_PATH}/${id}`,
    onUploadCreate: async (req, upload: Upload) => {
      const raw = req.runtime?.node?.req;
      const who = raw ? creating.get(raw as IncomingMessage) : undefined;
      if (!who || upload.size === undefined) throw { status_code: 500, body: 'Upload not prepared\n' };
      if (!(await videos.claimUpload(who.userId, who.videoId, upload.id, upload.size))) {
        const body = {
          success: false,
          error: { code: 'VIDEO_ALREADY_UPLOADED', message: errorMessage('VIDEO_ALREADY_UPLOADED', who.lang) },
        };
        throw { status_code: 409, body: JSON.stringify(body) };
      }
      // The original file name is never kept, not even in the upload's info file.
      const metadata: Record<string, string> = { videoId: who.videoId };
      if (typeof upload.metadata?.filetype === 'string') metadata.filetype = upload.metadata.filetype;
      return { metadata };
    },
    onUploadFinish: async (_req, upload: Upload) => {
      await videos.uploadFinished(upload.id, upload.size ?? upload.offset);
      return {};
    },
  });
  tus.on('POST_TERMINATE', (_req: unknown, _res: unknown, id: string) => {
    void videos.uploadTerminated(id).catch(() => {});
  });

  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    reply.hijack();
    try {
      await tus.handle(request.raw, reply.raw);
    } catch (err) {
      request.log.error({ err }, 'upload failed');
      if (reply.raw.headersSent) reply.raw.destroy();
      else reply.raw.writeHead(500).end();
    }
  }

  /** The caller's own upload, or 404; continuing or deleting it only while it is still open. */
  async function ownUpload(request: FastifyRequest<{ Params: { id: string } }>, { open }: { open: boolean }) {
    const video = await videos.uploadOf(request.params.id, requireUser(request).id);
    if (!video) throw notFound();
    if (open && video.mediaStatus !== 'uploading') throw new AppError('VIDEO_ALREADY_UPLOADED');
  }

  return async (app) => {
    // PATCH bodies are the file's bytes: left unread here, so that tus streams them to disk.
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const access = { access: ['learner'] as const };

    app.options(`/uploads/`, { config: access, schema: { tags: ['uploads'] } }, handOver);

    app.post(`/uploads/`, { config: access, schema: { tags: ['uploads'] } }, async (request, reply) => {
      const user = requireUser(request);
      const size = uploadLength(request);
      const metadata = uploadMetadata(request);
      if (size > maxUploadBytes) {
        const lang = requestLanguage(request);
        const file = metadata.filename || (lang === 'fr' ? 'Ce fichier' : 'This file');
        throw new AppError('UPLOAD_TOO_BIG', { file, max: formatBytes(maxUploadBytes, lang) });
      }
      const videoId = metadata.videoId;
      if (!videoId || !uuid.safeParse(videoId).success) throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'FIELD_REQUIRED' }]);
      await videos.uploadTarget(user, videoId);
      creating.set(request.raw, { userId: user.id, videoId, lang: requestLanguage(request) });
      return handOver(request, reply);
    });

    app.route({
      method: 'HEAD',
      url: '/uploads/:id',
      config: access,
      schema: { tags: ['uploads'], params: idParams },
      handler: async (request, reply) => {
        await ownUpload(request, { open: false });
        return handOver(request, reply);
      },
    });

    app.patch('/uploads/:id', { config: access, schema: { tags: ['uploads'], params: idParams } }, async (request, reply) => {
      await ownUpload(request, { open: true });
      return handOver(request, reply);
    });

    app.delete('/uploads/:id', { config: access, schema: { tags: ['uploads'], params: idParams } }, async (request, reply) => {
      await ownUpload(request, { open: true });
      return handOver(request, reply);
    });
  };
}
