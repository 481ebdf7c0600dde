import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UPLOADS_PREFIX, type Storage } from './storage.ts';

/**
 * The media part of a backup from an S3 store: every object (unfinished uploads aside, as on
 * local disk) written under `target` by its key, so that the backup has the same `media/` folder
 * as a local installation's; `npm run storage:migrate` puts it back into a bucket.
 */
export async function backupStoredMedia(storage: Storage, target: string): Promise<{ objects: number; bytes: number }> {
  await mkdir(target, { recursive: true });
  let objects = 0;
  let bytes = 0;
  for await (const object of storage.list()) {
    if (object.key.startsWith(`${UPLOADS_PREFIX}/`)) continue;
    const file = path.resolve(target, object.key);
    if (!file.startsWith(path.resolve(target) + path.sep)) continue;
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(await storage.read(object.key), createWriteStream(file));
    objects += 1;
    bytes += object.size;
  }
  return { objects, bytes };
}
