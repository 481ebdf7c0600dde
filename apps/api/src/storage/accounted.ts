import { eq, like, or, sql } from 'drizzle-orm';
import type { StorageKind } from '@sutura/domain/retention';
import type { Db } from '../db/client.ts';
import { storageObjects } from '../db/schema.ts';
import { UPLOADS_PREFIX, type Storage } from './storage.ts';
import { uploadKey, type UploadStore } from './uploads.ts';

const VIDEO_KEY = /^videos\/([0-9a-f-]{36})\/(.*)$/;

/**
 * The kind of an object, read from its key (keys are chosen by the server). Under `videos/<id>/`:
 * `prepared-N/` is the rendered video, `hls/` its renditions, `pictures/` and `analysis/voice-` what
 * their names say, anything else (the processed source, its poster and storyboard) the source.
 * Under `users/<id>/`: the profile picture, and the copies of a person's data (`exports/`).
 */
export function kindOfKey(key: string): StorageKind {
  if (key.startsWith(`${UPLOADS_PREFIX}/`)) return 'uploads';
  if (/^users\/[^/]+\/avatar-/.test(key)) return 'avatars';
  if (/^users\/[^/]+\/exports\//.test(key)) return 'exports';
  const video = VIDEO_KEY.exec(key);
  if (!video) return 'other';
  const rest = video[2]!;
  if (rest.startsWith('hls/')) return 'renditions';
  if (rest.startsWith('prepared-')) return 'rendered';
  if (rest.startsWith('pictures/')) return 'pictures';
  if (rest.startsWith('analysis/voice-')) return 'voice';
  return 'sources';
}

/** The case an object belongs to, read from its key. */
export function videoIdOfKey(key: string): string | null {
  return VIDEO_KEY.exec(key)?.[1] ?? null;
}

const ACCOUNTED = Symbol('accounted');

/** The rows of the accounting: one per object, written and removed with it. */
export function createStorageAccounting(db: Db) {
  const escape = (prefix: string) => prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return {
    async record(key: string, size: number): Promise<void> {
      await db
        .insert(storageObjects)
        .values({ key, size, kind: kindOfKey(key), videoId: videoIdOfKey(key) })
        .onConflictDoUpdate({ target: storageObjects.key, set: { size, writtenAt: sql`now()` } });
    },
    async forget(key: string): Promise<void> {
      await db.delete(storageObjects).where(eq(storageObjects.key, key));
    },
    async forgetPrefix(prefix: string): Promise<void> {
      const base = prefix.replace(/\/+$/, '');
      await db.delete(storageObjects).where(or(eq(storageObjects.key, base), like(storageObjects.key, `${escape(base)}/%`)));
    },
    /** An upload's bytes and whatever the upload store keeps beside them (`uploads/<id>.tail/…`). */
    async forgetUpload(id: string): Promise<void> {
      const key = uploadKey(id);
      await db.delete(storageObjects).where(or(eq(storageObjects.key, key), like(storageObjects.key, `${escape(key)}.%`)));
    },
  };
}
export type StorageAccounting = ReturnType<typeof createStorageAccounting>;

/**
 * The store with its accounting: every object written through it gets its row in `storage_objects`,
 * every object deleted loses it. The row is written after the object (a crash between leaves an
 * orphan, which the reconciliation reports) and removed after the object is gone. Wrapping twice
 * gives the same store.
 */
export function createAccountedStorage<S extends Storage>(storage: S, db: Db): S {
  if ((storage as unknown as Record<symbol, unknown>)[ACCOUNTED]) return storage;
  const accounting = createStorageAccounting(db);
  const wrapped: S = {
    ...storage,
    [ACCOUNTED]: true,
    async put(key, body) {
      const written = await storage.put(key, body);
      await accounting.record(key, written.size);
      return written;
    },
    async putFile(key, file) {
      const written = await storage.putFile(key, file);
      await accounting.record(key, written.size);
      return written;
    },
    async delete(key) {
      await storage.delete(key);
      await accounting.forget(key);
    },
    async deletePrefix(prefix) {
      await storage.deletePrefix(prefix);
      await accounting.forgetPrefix(prefix);
    },
  };
  return wrapped;
}

/**
 * The upload store with its accounting: an upload's row (`uploads/<id>`, kind 'uploads') follows
 * the bytes kept after every request, and goes when the upload is removed.
 */
export function createAccountedUploads(uploads: UploadStore, db: Db): UploadStore {
  if ((uploads as unknown as Record<symbol, unknown>)[ACCOUNTED]) return uploads;
  const accounting = createStorageAccounting(db);
  return {
    ...uploads,
    [ACCOUNTED]: true,
    kind: uploads.kind,
    prepare: () => uploads.prepare(),
    async create(info) {
      await uploads.create(info);
      await accounting.record(uploadKey(info.id), 0);
    },
    info: (id) => uploads.info(id),
    offset: (id) => uploads.offset(id),
    lastWrite: (id) => uploads.lastWrite(id),
    list: () => uploads.list(),
    lock: (id) => uploads.lock(id),
    async receive(id, body, start, room, onStop) {
      const received = await uploads.receive(id, body, start, room, onStop);
      const kept = await uploads.offset(id);
      if (kept !== undefined) await accounting.record(uploadKey(id), kept);
      return received;
    },
    async remove(id) {
      await uploads.remove(id);
      await accounting.forgetUpload(id);
    },
  } as UploadStore;
}
