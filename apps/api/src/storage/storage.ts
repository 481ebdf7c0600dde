import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Scratch } from './scratch.ts';

/** Keys under this prefix are tus uploads: their bytes while they arrive, then the source a video is processed from. */
export const UPLOADS_PREFIX = 'uploads';

/**
 * Where media bytes live. Keys are relative paths chosen by the server, never by a client
 * (`videos/<id>/video.mp4`, `users/<id>/avatar-<id>.webp`, `uploads/<id>`).
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Where the objects are, for logs and the start line (a folder, or `s3://bucket`). */
  readonly location: string;
  put(key: string, body: Readable | Buffer): Promise<{ size: number }>;
  /**
   * Takes a finished local file as the object: moved when it can be (same filesystem), never
   * copied twice. The file is gone from its place afterwards.
   */
  putFile(key: string, file: string): Promise<{ size: number }>;
  /** The object's bytes, or those from `start` to `end` included. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /** Removes every object under a prefix (all files of a video, of a person). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object (under `prefix/` when given), with its size and when it was last written. */
  list(prefix?: string): AsyncIterable<{ key: string; size: number; modifiedAt: Date }>;
  /**
   * Runs `work` on the object as a local file: the stored file itself on local disk (never to be
   * changed), a copy in the scratch space otherwise, removed when `work` ends.
   */
  withLocalFile<T>(key: string, scratch: Scratch, work: (file: string) => Promise<T>): Promise<T>;
  /** A short-lived URL that reads the object without the API, where the store has one (S3); null on local disk. */
  presignedUrl(key: string, opts: { expiresInSeconds: number; contentType?: string }): Promise<string | null>;
}

/**
 * Media as local files: objects under `root` (DATA_DIR/media), and uploads (`uploads/<id>`)
 * in `uploadsRoot` (DATA_DIR/uploads), where tus writes them.
 */
export type LocalStorage = Storage & { kind: 'local'; uploadsRoot: string };

export function createLocalStorage(root: string, opts: { uploadsRoot?: string } = {}): LocalStorage {
  const uploadsRoot = opts.uploadsRoot ?? path.join(root, UPLOADS_PREFIX);
  const within = (base: string, rel: string, key: string) => {
    const full = path.resolve(base, rel);
    if (!full.startsWith(path.resolve(base) + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return full;
  };
  const resolve = (key: string) =>
    key.startsWith(`${UPLOADS_PREFIX}/`) ? within(uploadsRoot, key.slice(UPLOADS_PREFIX.length + 1), key) : within(root, key, key);

  async function* walk(base: string, keyPrefix: string): AsyncIterable<{ key: string; size: number; modifiedAt: Date }> {
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const full = path.join(entry.parentPath, entry.name);
      const info = await stat(full).catch(() => undefined);
      const rel = path.relative(base, full).split(path.sep).join('/');
      if (info) yield { key: keyPrefix + rel, size: info.size, modifiedAt: info.mtime };
    }
  }

  return {
    kind: 'local',
    location: root,
    uploadsRoot,
    async put(key, body) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      // Written beside and renamed, so a reader never sees half a file; a name of its own, so two
      // writers of the same key (a job run twice) never rename each other's file.
      const partial = `${full}.${randomUUID()}.partial`;
      if (Buffer.isBuffer(body)) {
        const out = createWriteStream(partial);
        await new Promise<void>((ok, ko) => out.end(body, () => ok()).on('error', ko));
      } else {
        await pipeline(body, createWriteStream(partial));
      }
      await rename(partial, full);
      return { size: (await stat(full)).size };
    },
    async putFile(key, file) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      try {
        await rename(file, full);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        // Another filesystem: copied beside and renamed, so a reader never sees half a file.
        const partial = `${full}.${randomUUID()}.partial`;
        await copyFile(file, partial);
        await rename(partial, full);
        await rm(file, { force: true });
      }
      return { size: (await stat(full)).size };
    },
    async read(key, range) {
      const full = resolve(key);
      // Opened before it is handed over, so that a missing object fails here, not in the pipe.
      await stat(full);
      return createReadStream(full, range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        const info = await stat(resolve(key));
        return info.isFile() ? info.size : undefined;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async deletePrefix(prefix) {
      // A job may still be writing under it (a ladder's segments while the video is deleted): a
      // folder emptied and then given a new file refuses its removal (ENOTEMPTY), and the removal
      // starts again on what is there then. The writer, once it finds its video gone, removes what
      // it wrote after.
      await rm(resolve(prefix), { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
    },
    async *list(prefix) {
      if (prefix) {
        yield* walk(prefix === UPLOADS_PREFIX ? uploadsRoot : resolve(prefix), `${prefix}/`);
        return;
      }
      for await (const entry of walk(root, '')) if (!entry.key.startsWith(`${UPLOADS_PREFIX}/`)) yield entry;
      yield* walk(uploadsRoot, `${UPLOADS_PREFIX}/`);
    },
    async withLocalFile(key, _scratch, work) {
      const full = resolve(key);
      await stat(full);
      return work(full);
    },
    async presignedUrl() {
      return null;
    },
  };
}
