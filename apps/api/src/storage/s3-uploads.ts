import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { and, eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { tusUploads } from '../db/schema.ts';
import { reclaimBodyBuffers } from '../memory.ts';
import type { S3Storage } from './s3.ts';
import { UPLOADS_PREFIX } from './storage.ts';
import { createUploadLocks, uploadKey, type Received, type UploadStore } from './uploads.ts';

type State = typeof tusUploads.$inferSelect;

/** Parts of one upload sent to S3 at the same time (as the AWS SDK's own multipart upload does). */
const PARTS_IN_FLIGHT = 4;

/**
 * The part size of an upload of `size` bytes: 8 MiB, more for a file that would need more than
 * 9 000 of them (S3 allows 10 000). Derived from the size alone, so every process agrees.
 */
export function uploadPartBytes(size: number): number {
  const MIB = 1024 * 1024;
  return Math.max(8 * MIB, Math.ceil(size / 9000 / MIB) * MIB);
}

/**
 * tus uploads into an S3-compatible store, with no shared disk: the bytes go to an S3 multipart
 * upload of `uploads/<id>` as they arrive, one part per 8 MiB (uploadPartBytes), four at once; what is left at the
 * end of a request (a cut connection, a client's small chunk) waits in a tail object
 * `uploads/<id>.tail/<n>` and is sent with the next bytes. The state (size, offset, parts, tail)
 * is a row of `tus_uploads`, written after each part, conditionally on its version: whichever
 * API process receives the next request continues from it, and of two processes writing the
 * same upload at once only one records its bytes (the other stops, as when a newer request
 * takes an upload over). Memory: five part buffers per request (four being sent, one filling), used again part after part.
 */
export function createS3UploadStore(deps: {
  db: Db;
  storage: S3Storage;
  log: Logger;
  partBytes?: number;
  lockTimeoutMs?: number;
}): UploadStore {
  const { db, storage, log } = deps;

  const lock = createUploadLocks(deps.lockTimeoutMs);

  async function load(id: string): Promise<State | undefined> {
    const [row] = await db.select().from(tusUploads).where(eq(tusUploads.id, id));
    return row;
  }

  /** Records a new state if nobody else wrote since `version`; false when someone did. */
  async function save(id: string, version: number, next: Partial<State>): Promise<boolean> {
    const [row] = await db
      .update(tusUploads)
      .set({ ...next, version: version + 1, updatedAt: new Date() })
      .where(and(eq(tusUploads.id, id), eq(tusUploads.version, version)))
      .returning({ id: tusUploads.id });
    return !!row;
  }

  const store: UploadStore = {
    kind: 's3',
    async prepare() {
      await storage.ensureBucket();
    },

    async create(info) {
      await db.insert(tusUploads).values({
        id: info.id,
        videoId: info.videoId,
        ownerId: info.owner,
        size: info.size,
        filetype: info.filetype ?? null,
        createdAt: new Date(info.createdAt),
      });
      // An empty file is complete at once.
      if (info.size === 0) {
        await storage.put(uploadKey(info.id), Buffer.alloc(0));
        await db.update(tusUploads).set({ completed: true }).where(eq(tusUploads.id, info.id));
      }
    },

    async info(id) {
      const row = await load(id);
      return row ? { size: row.size, videoId: row.videoId, filetype: row.filetype ?? undefined } : undefined;
    },

    async offset(id) {
      const row = await load(id);
      if (!row) return undefined;
      return row.completed ? row.size : row.offset;
    },

    async lastWrite(id) {
      return (await load(id))?.updatedAt;
    },

    async remove(id) {
      const [row] = await db.delete(tusUploads).where(eq(tusUploads.id, id)).returning();
      if (row?.multipartId && !row.completed) {
        await storage.multipart
          .abort(uploadKey(id), row.multipartId)
          .catch((err: unknown) =>
            log.warn({ err, uploadId: id }, 'S3 multipart upload not aborted (a lifecycle rule of the bucket removes it)'),
          );
      }
      await storage.deletePrefix(`${uploadKey(id)}.tail`);
      await storage.delete(uploadKey(id));
    },

    async *list() {
      const rows = await db.select({ id: tusUploads.id, updatedAt: tusUploads.updatedAt }).from(tusUploads);
      const known = new Set<string>();
      for (const row of rows) {
        known.add(row.id);
        yield { id: row.id, modifiedAt: row.updatedAt };
      }
      // Objects of uploads without a row: a completed file whose row went, a tail written as the row was removed.
      for await (const object of storage.list(UPLOADS_PREFIX)) {
        const id = object.key.slice(UPLOADS_PREFIX.length + 1).replace(/\.tail\/.*$/, '');
        if (known.has(id)) continue;
        known.add(id);
        yield { id, modifiedAt: object.modifiedAt };
      }
    },

    lock,

    async receive(id: string, body: IncomingMessage, start: number, room: number, onStop: (stop: () => void) => void): Promise<Received> {
      let state = await load(id);
      if (!state || state.completed || state.offset !== start) return { end: 'stopped', bytes: 0 };
      const key = uploadKey(id);
      const partBytes = deps.partBytes ?? uploadPartBytes(state.size);
      /**
       * The parts are filled in buffers allocated once per request and used again once their part
       * is sent: a new 8 MiB buffer per part would outlive the young generation while it is sent,
       * and V8 answers such external memory with a full mark-compact every few parts (a third of
       * the process's time went to it).
       */
      const spare: Buffer<ArrayBuffer>[] = [];
      // No bigger than what this request can bring (with the tail): a small chunk takes a small buffer.
      const partBuffer = () => Buffer.allocUnsafeSlow(Math.min(partBytes, state!.tailSize + room));
      let filling = partBuffer();
      let filled = 0;
      let received = 0;
      /** Set when another process recorded bytes first: nothing more of this request is kept. */
      let lost = false;
      let flushing: Promise<void> = Promise.resolve();

      let nextPartNumber = state.parts.length + 1;
      let multipartId: Promise<string> | undefined = state.multipartId ? Promise.resolve(state.multipartId) : undefined;
      const filetype = state.filetype ?? undefined;
      /**
       * Sends one part (several go at once) and records it once the parts before it are recorded,
       * so that the recorded offset never counts a byte that is not in S3. Settles when it is sent.
       */
      const sendPart = (data: Buffer): Promise<unknown> => {
        const partNumber = nextPartNumber++;
        multipartId ??= storage.multipart.create(key, filetype);
        const sent = multipartId.then(async (uploadId) => ({
          uploadId,
          etag: await storage.multipart.uploadPart(key, uploadId, partNumber, data),
        }));
        flushing = flushing.then(async () => {
          const { uploadId, etag } = await sent;
          if (lost || !state) return;
          const next = {
            multipartId: uploadId,
            parts: [...state.parts, { partNumber, etag, size: data.length }],
            offset: state.parts.reduce((n, p) => n + p.size, 0) + data.length,
            tailKey: null,
            tailSize: 0,
          };
          if (!(await save(id, state.version, next))) {
            lost = true;
            return;
          }
          const oldTail = state.tailKey;
          state = { ...state, ...next, version: state.version + 1 };
          if (oldTail) await storage.delete(oldTail);
        });
        return sent;
      };

      let inFlight = 0;
      let partFailed = false;
      let onPartSent = () => {};
      /** Copies bytes into the part being filled; each full part is sent, and the next fills meanwhile. */
      const accept = (chunk: Buffer) => {
        for (let at = 0; at < chunk.length;) {
          const n = chunk.copy(filling, filled, at);
          if (n === 0) throw new Error('an upload request brought more bytes than it announced');
          filled += n;
          at += n;
          if (filled < partBytes) continue;
          const part = filling;
          filling = spare.pop() ?? partBuffer();
          filled = 0;
          inFlight += 1;
          sendPart(part).then(
            () => {
              inFlight -= 1;
              // Its bytes are in S3: the buffer fills again.
              spare.push(part);
              onPartSent();
            },
            () => {
              inFlight -= 1;
              partFailed = true;
              onPartSent();
            },
          );
        }
      };
      // The bytes kept in the tail come first in the next part.
      if (state.tailKey && state.tailSize > 0) {
        for await (const chunk of await storage.read(state.tailKey)) accept(chunk as Buffer);
      }

      const end = await new Promise<Received['end']>((resolve) => {
        let finished = false;
        onPartSent = () => {
          if (partFailed) finish('aborted');
          else if (lost) finish('stopped');
          else if (!finished && body.isPaused() && inFlight < PARTS_IN_FLIGHT) body.resume();
        };
        const onData = (chunk: Buffer) => {
          if (received + chunk.length > room) {
            finish('too-big');
            return;
          }
          received += chunk.length;
          reclaimBodyBuffers(chunk.length);
          accept(chunk);
          // A few parts are sent at once while the next fills; past that the socket waits.
          if (inFlight >= PARTS_IN_FLIGHT) body.pause();
        };
        const onEnd = () => finish('complete');
        const onError = () => finish('aborted');
        const onClose = () => finish('aborted');
        function finish(how: Received['end']) {
          if (finished) return;
          finished = true;
          body.off('data', onData);
          body.off('end', onEnd);
          body.off('error', onError);
          body.off('close', onClose);
          if (how !== 'complete' && !body.destroyed) body.pause();
          resolve(how);
        }
        body.on('data', onData);
        body.once('end', onEnd);
        body.once('error', onError);
        body.once('close', onClose);
        onStop(() => finish('stopped'));
        if (partFailed) finish('aborted');
        else if (body.readableEnded) finish('complete');
        else if (body.destroyed) finish('aborted');
      });

      await flushing;
      if (lost) return { end: 'stopped', bytes: 0 };
      const current = state;
      if (!current) return { end: 'stopped', bytes: 0 };
      const tail = filling.subarray(0, filled);
      const total = current.offset - current.tailSize + tail.length;
      if (total === current.size) {
        // The last bytes: the whole file becomes `uploads/<id>`.
        if (current.multipartId) {
          const parts = [...current.parts];
          if (tail.length) {
            const partNumber = parts.length + 1;
            parts.push({
              partNumber,
              etag: await storage.multipart.uploadPart(key, current.multipartId, partNumber, tail),
              size: tail.length,
            });
          }
          await storage.multipart.complete(key, current.multipartId, parts);
          if (!(await save(id, current.version, { parts, offset: current.size, tailKey: null, tailSize: 0, completed: true }))) {
            return { end: 'stopped', bytes: 0 };
          }
        } else {
          await storage.put(key, tail);
          if (!(await save(id, current.version, { offset: current.size, tailKey: null, tailSize: 0, completed: true }))) {
            return { end: 'stopped', bytes: 0 };
          }
        }
        if (current.tailKey) await storage.delete(current.tailKey);
      } else if (tail.length !== current.tailSize) {
        // Fewer bytes than a part: kept in a tail object of their own until more arrive.
        const tailKey = `${key}.tail/${randomUUID()}`;
        await storage.put(tailKey, tail);
        if (!(await save(id, current.version, { offset: total, tailKey, tailSize: tail.length }))) {
          await storage.delete(tailKey);
          return { end: 'stopped', bytes: 0 };
        }
        if (current.tailKey) await storage.delete(current.tailKey);
      }
      return { end, bytes: total - start };
    },
  };
  return store;
}
