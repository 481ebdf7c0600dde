import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where media bytes live. Keys are relative paths chosen by the server, never by a client. */
export interface Storage {
  put(key: string, body: Readable | Buffer): Promise<{ size: number }>;
  /**
   * Takes a finished local file as the object: moved when it can be (same filesystem), never
   * copied twice. The file is gone from its place afterwards.
   */
  putFile(key: string, file: string): Promise<{ size: number }>;
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /** Removes every object under a prefix (all files of a video, of a person). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object, with when it was last written (the sweep of files no row names). */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
}

export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return full;
  };
  return {
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
      return createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        return (await stat(resolve(key))).size;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async deletePrefix(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
    async *list() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const full = path.join(entry.parentPath, entry.name);
        const info = await stat(full).catch(() => undefined);
        if (info) yield { key: path.relative(root, full).split(path.sep).join('/'), modifiedAt: info.mtime };
      }
    },
  };
}
