import { and, count, eq, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import { formatBytes } from '@sutura/domain/errors';
import type { Language } from '@sutura/domain/i18n';
import { VIDEO_SOCKET_EVENTS, type MediaStatus, type VideoDetail, type VideoProgressEvent } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import { media, users, videoPictures, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Storage } from '../../storage/storage.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';

import type { CaseViews, VideoRow } from '../cases/case-views.ts';
import { surgeryNamesOf } from '../cases/names.ts';
import { removeUploadFilesOf, UPLOADS_DIR, type StorageQuotas } from './upload-files.ts';

/** Tells the author how the processing of their file goes. */
export function progressPusher(hub: RealtimeHub) {
  return function pushProgress(row: Pick<VideoRow, 'id' | 'authorId'>, mediaStatus: MediaStatus, progress: number) {
    const payload: VideoProgressEvent = { videoId: row.id, mediaStatus, progress };
    hub.emitToUser(row.authorId, VIDEO_SOCKET_EVENTS.progress, payload);
  };
}

/** What a learner sends of a case: its pictures, and its video file through tus (tus.ts). */
export function createVideoUploads(deps: {
  db: Db;
  storage: Storage;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  queue: Queue;
  hub: RealtimeHub;
  uploads: UploadStore;
  quotas: StorageQuotas;
  clock: () => Date;
  views: CaseViews;
}) {
  const { db, storage, mediaService, notifications, audit, queue, hub, clock, views } = deps;
  const { load, detailOf } = views;
  const pushProgress = progressPusher(hub);
  const removeUploadFiles = (row: Pick<VideoRow, 'uploadId' | 'sourceKey'>) => removeUploadFilesOf({ storage, uploads: deps.uploads }, row);

  return {
    /** A picture of a case, added by its author while the case is saved. */
    async addPicture(viewer: RequestUser, videoId: string, bytes: Buffer, ip: string | null = null) {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      const stored = await mediaService.storePicture(viewer.id, row.id, bytes);
      const [position] = await db.select({ n: count() }).from(videoPictures).where(eq(videoPictures.videoId, row.id));
      await db.insert(videoPictures).values({ videoId: row.id, mediaId: stored.id, position: position?.n ?? 0, createdAt: clock() });
      await audit(viewer.id, 'video.picture_added', 'video', row.id, ip, { mediaId: stored.id });
      return { id: stored.id, url: mediaService.urlFor(stored.id, viewer.id)!, kind: stored.kind };
    },

    /** By the picture's id in the detail, or by its media id (what the upload answered). */
    async removePicture(
      viewer: RequestUser,
      videoId: string,
      pictureId: string,
      lang: Language,
      ip: string | null = null,
    ): Promise<VideoDetail> {
      const { row } = await load(videoId, viewer, ['author']);
      if (row.status !== 'saved') throw new AppError('VIDEO_NOT_EDITABLE');
      const [picture] = await db
        .select()
        .from(videoPictures)
        .where(and(eq(videoPictures.videoId, row.id), or(eq(videoPictures.id, pictureId), eq(videoPictures.mediaId, pictureId))));
      if (!picture) throw notFound();
      // The media row cascades to the picture row; the file goes with it.
      await mediaService.remove(picture.mediaId);
      await audit(viewer.id, 'video.picture_removed', 'video', row.id, ip, { mediaId: picture.mediaId });
      return detailOf(row, 'author', viewer.id, lang);
    },

    // ---- The tus side (tus.ts): who may upload, and what a finished upload starts.

    /** The caller's video that may receive a file now; 404, 400 or 409 otherwise. */
    async uploadTarget(viewer: RequestUser, videoId: string): Promise<VideoRow> {
      const [bestCase] = await db
        .select()
        .from(videos)
        .where(and(eq(videos.id, videoId), eq(videos.purpose, 'best_case'), eq(videos.authorId, viewer.id)));
      // A best case's video: only the administrator who created it sends its file.
      const { row } = bestCase && viewer.roles.includes('administrator') ? { row: bestCase } : await load(videoId, viewer, ['author']);
      if (row.kind !== 'video') throw new AppError('VALIDATION', {}, [{ path: 'videoId', code: 'INVALID_VALUE' }]);
      // A failed file may be replaced; one being processed or ready may not.
      if (row.status !== 'saved' || (row.mediaStatus !== 'uploading' && row.mediaStatus !== 'failed')) {
        throw new AppError('VIDEO_ALREADY_UPLOADED');
      }
      return row;
    },

    /**
     * Records a new upload on the video, atomically: false when the video changed meanwhile.
     * The upload it replaces (an abandoned one, or a failed file) is deleted.
     */
    async claimUpload(
      viewerId: string,
      videoId: string,
      uploadId: string,
      size: number,
      fingerprint: string | null,
      lang: Language,
    ): Promise<boolean> {
      const before = await db.transaction(async (tx) => {
        // The person's row is locked: two uploads created at once are counted one after the other.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, viewerId)).for('update');
        const [inFlight] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${videos.sourceSize}), 0)` })
          .from(videos)
          .where(
            and(eq(videos.authorId, viewerId), eq(videos.mediaStatus, 'uploading'), isNotNull(videos.uploadId), ne(videos.id, videoId)),
          );
        const flying = Number(inFlight?.bytes ?? 0);
        if (flying + size > deps.quotas.bytesInFlight)
          throw new AppError('QUOTA_UPLOADS_IN_FLIGHT', { max: formatBytes(deps.quotas.bytesInFlight, lang) });
        const [stored] = await tx
          .select({ bytes: sql<string>`coalesce(sum(${media.size}), 0)` })
          .from(media)
          .where(eq(media.ownerId, viewerId));
        if (Number(stored?.bytes ?? 0) + flying + size > deps.quotas.totalBytes)
          throw new AppError('QUOTA_STORAGE', { max: formatBytes(deps.quotas.totalBytes, lang) });
        const [current] = await tx.select().from(videos).where(eq(videos.id, videoId)).for('update');
        const [claimed] = await tx
          .update(videos)
          .set({
            uploadId,
            uploadWarnedAt: null,
            uploadFingerprint: fingerprint,
            sourceSize: size,
            sourceKey: null,
            mediaStatus: 'uploading',
            failureReason: null,
            processingProgress: 0,
            updatedAt: clock(),
          })
          .where(
            and(
              eq(videos.id, videoId),
              eq(videos.authorId, viewerId),
              eq(videos.kind, 'video'),
              eq(videos.status, 'saved'),
              inArray(videos.mediaStatus, ['uploading', 'failed']),
            ),
          )
          .returning({ id: videos.id });
        return claimed ? current : null;
      });
      if (!before) return false;
      await removeUploadFiles(before);
      return true;
    },

    /** The video an upload belongs to, when the caller is the one who created it. */
    async uploadOf(uploadId: string, viewerId: string): Promise<VideoRow | undefined> {
      const [row] = await db
        .select()
        .from(videos)
        .where(and(eq(videos.uploadId, uploadId), eq(videos.authorId, viewerId)));
      return row;
    },

    /** The upload was terminated by its author: the video waits for a new one. */
    async uploadTerminated(uploadId: string): Promise<void> {
      await db
        .update(videos)
        .set({ uploadId: null, uploadFingerprint: null, updatedAt: clock() })
        .where(and(eq(videos.uploadId, uploadId), eq(videos.mediaStatus, 'uploading')));
    },

    /**
     * Every byte is there: the source is recorded, the author told, the pipeline queued. Runs
     * once per upload even when the client repeats its last request.
     */
    async uploadFinished(uploadId: string, size: number): Promise<void> {
      // The status and the pipeline's job in one transaction: a crash between the two cannot
      // leave a video processing with nothing queued; when it rolls back the video is still
      // uploading, and the client's retry of its last request finishes it again.
      const row = await db.transaction(async (tx) => {
        const [changed] = await tx
          .update(videos)
          .set({
            sourceKey: `${UPLOADS_DIR}/${uploadId}`,
            sourceSize: size,
            mediaStatus: 'processing',
            processingProgress: 0,
            failureReason: null,
            updatedAt: clock(),
          })
          .where(and(eq(videos.uploadId, uploadId), eq(videos.mediaStatus, 'uploading')))
          .returning();
        if (changed) await queue.send('video.process', { videoId: changed.id }, { tx });
        return changed;
      });
      if (!row) return;
      await audit(row.authorId, 'video.uploaded', 'video', row.id, null, { size });
      pushProgress(row, 'processing', 0);
      await notifications.notify(
        row.authorId,
        'videoUploaded',
        aboutCase(await surgeryNamesOf(db, row.surgeryId), row),
        `/videos/${row.id}`,
      );
    },
  };
}
