import { UPLOADS_PREFIX, type Storage } from '../../storage/storage.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import type { VideoRow } from '../cases/case-views.ts';

/** The storage prefix of tus uploads; `videos.source_key` is a storage key (`uploads/<id>` until processed). */
export const UPLOADS_DIR = UPLOADS_PREFIX;

/** The uploaded bytes of a video (its tus upload, finished or not), wherever the upload stands. */
export async function removeUploadFilesOf(
  stores: { storage: Storage; uploads: UploadStore },
  row: Pick<VideoRow, 'uploadId' | 'sourceKey'>,
): Promise<void> {
  if (row.uploadId) await stores.uploads.remove(row.uploadId);
  if (row.sourceKey?.startsWith(`${UPLOADS_PREFIX}/`)) {
    const id = row.sourceKey.slice(UPLOADS_PREFIX.length + 1);
    if (id !== row.uploadId) await stores.uploads.remove(id);
    await stores.storage.delete(row.sourceKey);
  }
}

/** Per-person limits on what waits for, or takes, storage (docs/configuration.md). */
export interface StorageQuotas {
  casesWaitingForFile: number;
  bytesInFlight: number;
  totalBytes: number;
}
