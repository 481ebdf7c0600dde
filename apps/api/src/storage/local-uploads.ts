import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { reclaimBodyBuffers } from '../memory.ts';
import { createUploadLocks, type Received, type UploadInfo, type UploadStore } from './uploads.ts';

/** An info file written by @tus/file-store before this store (uploads in progress at the upgrade). */
interface LegacyInfo {
  size?: unknown;
  metadata?: { videoId?: unknown; filetype?: unknown } | null;
  creation_date?: unknown;
}

/**
 * The bytes of tus uploads on local disk, one file per upload in `directory` (DATA_DIR/uploads/<id>,
 * which is the storage key `uploads/<id>` that `videos.source_key` names), with its info file
 * `<id>.json`. The offset is the size of the bytes file (no fsync, a stat is enough), so that
 * whatever reached the disk before a cut connection counts. A request body is piped
 * from the socket into the file with backpressure: nothing is buffered beyond the write stream's
 * high-water mark. One request at a time per upload in this process: a new one stops the
 * previous (a client resuming after a connection it gave up on), like @tus/server's locker.
 */
export function createLocalUploadStore(directory: string, opts: { lockTimeoutMs?: number } = {}): UploadStore {
  const lock = createUploadLocks(opts.lockTimeoutMs);
  const fileOf = (id: string) => path.join(directory, id);
  const infoOf = (id: string) => `${fileOf(id)}.json`;

  return {
    kind: 'local',

    /** The directory, made at start-up so that a problem with it shows at once. */
    async prepare(): Promise<void> {
      await mkdir(directory, { recursive: true });
    },

    /** An empty bytes file and its info file. */
    async create(info: UploadInfo): Promise<void> {
      await mkdir(directory, { recursive: true });
      await writeFile(fileOf(info.id), '', { flag: 'wx' });
      await writeFile(infoOf(info.id), JSON.stringify(info));
    },

    /** The announced size and metadata of an upload, or undefined when its info file is missing. */
    async info(id: string): Promise<{ size: number; videoId: string | undefined; filetype: string | undefined } | undefined> {
      let raw: (Partial<UploadInfo> & LegacyInfo) | undefined;
      try {
        raw = JSON.parse(await readFile(infoOf(id), 'utf8')) as Partial<UploadInfo> & LegacyInfo;
      } catch {
        return undefined;
      }
      if (typeof raw?.size !== 'number') return undefined;
      const videoId = raw.videoId ?? raw.metadata?.videoId;
      const filetype = raw.filetype ?? raw.metadata?.filetype;
      return {
        size: raw.size,
        videoId: typeof videoId === 'string' ? videoId : undefined,
        filetype: typeof filetype === 'string' ? filetype : undefined,
      };
    },

    /** How many bytes are on disk, or undefined when the bytes file is missing. */
    async offset(id: string): Promise<number | undefined> {
      return stat(fileOf(id)).then(
        (s) => (s.isFile() ? s.size : undefined),
        () => undefined,
      );
    },

    async lastWrite(id: string): Promise<Date | undefined> {
      return stat(fileOf(id)).then(
        (s) => s.mtime,
        () => undefined,
      );
    },

    /** The bytes file and its info file. */
    async remove(id: string): Promise<void> {
      await rm(fileOf(id), { force: true });
      await rm(infoOf(id), { force: true });
    },

    async *list() {
      const seen = new Map<string, Date>();
      for (const name of await readdir(directory).catch(() => [] as string[])) {
        const info = await stat(path.join(directory, name)).catch(() => undefined);
        if (!info?.isFile()) continue;
        const id = name.replace(/\.json$/, '');
        const latest = seen.get(id);
        if (!latest || latest < info.mtime) seen.set(id, info.mtime);
      }
      for (const [id, modifiedAt] of seen) yield { id, modifiedAt };
    },

    lock,

    /**
     * Writes a request body into the upload's file from `start`, at most `room` bytes (the rest
     * of Upload-Length). Settles once the written bytes are in the file (the write stream closed).
     */
    receive(id: string, body: IncomingMessage, start: number, room: number, onStop: (stop: () => void) => void): Promise<Received> {
      if (body.readableEnded) return Promise.resolve({ end: 'complete', bytes: 0 });
      return new Promise<Received>((resolve, reject) => {
        const out = createWriteStream(fileOf(id), { flags: 'r+', start });
        let bytes = 0;
        let end: Received['end'] | undefined;
        let failure: Error | undefined;

        const onData = (chunk: Buffer) => {
          if (bytes + chunk.length > room) {
            // The client sends more than it announced: the chunk that goes past is not written.
            finish('too-big');
            return;
          }
          bytes += chunk.length;
          reclaimBodyBuffers(chunk.length);
          if (!out.write(chunk)) body.pause();
        };
        const onDrain = () => {
          if (!end) body.resume();
        };
        const onEnd = () => finish('complete');
        const onError = () => finish('aborted');
        // 'close' follows 'end' on a complete body (handled by then); before it, the connection is gone.
        const onClose = () => finish('aborted');

        function finish(how: Received['end']) {
          if (end) return;
          end = how;
          body.off('data', onData);
          body.off('end', onEnd);
          body.off('error', onError);
          body.off('close', onClose);
          out.off('drain', onDrain);
          if (how !== 'complete' && !body.destroyed) body.pause();
          if (!out.destroyed) out.end();
        }

        out.on('error', (err) => {
          failure ??= err;
          finish('aborted');
        });
        out.once('close', () => (failure ? reject(failure) : resolve({ end: end ?? 'aborted', bytes })));
        out.on('drain', onDrain);
        body.on('data', onData);
        body.once('end', onEnd);
        body.once('error', onError);
        body.once('close', onClose);
        onStop(() => finish('stopped'));
        if (body.destroyed) finish('aborted');
      });
    },
  };
}
