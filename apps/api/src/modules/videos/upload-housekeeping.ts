import { and, eq, isNotNull, notExists } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { legalHolds, media, videos } from '../../db/schema.ts';
import type { Audit } from '../audit/audit.service.ts';
import { UPLOADS_PREFIX, type Storage } from '../../storage/storage.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
import { removeUploadFilesOf } from './upload-files.ts';
import { surgeryNamesOf } from '../cases/names.ts';

/** A file younger than this is never swept: its row may be about to be written (a transcode's outputs). */
const SWEEP_MIN_AGE_MS = 3600_000;

/**
 * The periodic jobs that keep storage bounded: unfinished uploads expire after `expiryHours`
 * without a byte (the author is told `warnHours` before; the uploads retention rule, audited as
 * such; a case under legal hold is kept), and files that no row names are removed. Both are safe
 * to run twice and on any worker.
 */
export function createUploadHousekeeping(deps: {
  db: Db;
  storage: Storage;
  uploads: UploadStore;
  notifications: NotificationService;
  /** The uploads retention rule (modules/retention), read at each run. */
  expiryHours: () => Promise<number>;
  warnHours: number;
  audit: Audit;
  clock: () => Date;
  log: Logger;
}) {
  const { db, storage, uploads, notifications, clock } = deps;

  const surgeryName = (surgeryId: string | null) => surgeryNamesOf(db, surgeryId);

  /** A best case's video is managed in the administration (modules/best-cases), a case on its page. */
  const linkOf = (row: { id: string; purpose: string }) => (row.purpose === 'best_case' ? '/admin/best-cases' : `/videos/${row.id}`);

  return {
    /** Warns about, then removes, uploads that have received nothing for too long. */
    async expireUploads(): Promise<{ warned: number; expired: number }> {
      const now = clock().getTime();
      const expiryMs = (await deps.expiryHours()) * 3600_000;
      const warnMs = Math.max(0, expiryMs - deps.warnHours * 3600_000);
      const rows = await db
        .select()
        .from(videos)
        .where(
          and(
            eq(videos.mediaStatus, 'uploading'),
            isNotNull(videos.uploadId),
            notExists(db.select().from(legalHolds).where(eq(legalHolds.videoId, videos.id))),
          ),
        );
      let warned = 0;
      let expired = 0;
      for (const row of rows) {
        // The last byte received dates the upload; the row's update time when nothing arrived.
        const written = (await uploads.lastWrite(row.uploadId!))?.getTime() ?? row.updatedAt.getTime();
        const idle = now - Math.max(written, row.updatedAt.getTime());
        if (idle >= expiryMs) {
          const [gone] = await db
            .update(videos)
            .set({ uploadId: null, sourceSize: null, uploadWarnedAt: null, updatedAt: new Date(now) })
            .where(and(eq(videos.id, row.id), eq(videos.uploadId, row.uploadId!), eq(videos.mediaStatus, 'uploading')))
            .returning({ id: videos.id });
          if (!gone) continue;
          const bytes = (await uploads.offset(row.uploadId!)) ?? 0;
          await removeUploadFilesOf({ storage, uploads }, row);
          await deps.audit(null, 'retention.deleted', 'video', row.id, null, {
            rule: 'uploads',
            what: 'abandoned_upload',
            keys: [`${UPLOADS_PREFIX}/${row.uploadId}`],
            bytes,
          });
          await notifications.notify(row.authorId, 'uploadExpired', aboutCase(await surgeryName(row.surgeryId), row), linkOf(row));
          expired += 1;
        } else if (idle >= warnMs && !row.uploadWarnedAt) {
          const [marked] = await db
            .update(videos)
            .set({ uploadWarnedAt: new Date(now) })
            .where(and(eq(videos.id, row.id), eq(videos.uploadId, row.uploadId!)))
            .returning({ id: videos.id });
          if (!marked) continue;
          const hours = Math.max(1, Math.round((expiryMs - idle) / 3600_000));
          await notifications.notify(
            row.authorId,
            'uploadExpiring',
            { ...aboutCase(await surgeryName(row.surgeryId), row), hours },
            linkOf(row),
          );
          warned += 1;
        }
      }
      return { warned, expired };
    },

    /** Removes media objects and upload files that no row names any more (crashes, interrupted deletions). */
    async sweepOrphans(): Promise<{ removed: number }> {
      const before = clock().getTime() - SWEEP_MIN_AGE_MS;
      let removed = 0;
      const keys = new Set((await db.select({ key: media.storageKey }).from(media)).map((r) => r.key));
      for await (const object of storage.list()) {
        // Uploads are the upload store's: swept below by their ids.
        if (object.key.startsWith(`${UPLOADS_PREFIX}/`)) continue;
        if (keys.has(object.key) || object.modifiedAt.getTime() > before) continue;
        await storage.delete(object.key);
        removed += 1;
      }
      const rows = await db.select({ uploadId: videos.uploadId, sourceKey: videos.sourceKey }).from(videos);
      const named = new Set<string>();
      for (const row of rows) {
        if (row.uploadId) named.add(row.uploadId);
        if (row.sourceKey?.startsWith(`${UPLOADS_PREFIX}/`)) named.add(row.sourceKey.slice(UPLOADS_PREFIX.length + 1));
      }
      for await (const upload of uploads.list()) {
        if (named.has(upload.id) || upload.modifiedAt.getTime() > before) continue;
        await uploads.remove(upload.id);
        removed += 1;
      }
      if (removed) deps.log.info({ removed }, 'storage sweep removed files no row names');
      return { removed };
    },
  };
}
export type UploadHousekeeping = ReturnType<typeof createUploadHousekeeping>;
