import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { reclaimBodyBuffers } from '../../memory.ts';

/**
 * What is kept beside an upload's bytes, in `<id>.json`: never the client's file name. The
 * offset is not in it: it is the size of the bytes file (no fsync, a stat is enough), so that
 * whatever reached the disk before a cut connection counts.
 */
export interface UploadInfo {
  id: string;
  size: number;
  videoId: string;
  /** The person who created the upload. */
  owner: string;
  createdAt: string;
  /** The type the client announced (`video/mp4`); only said back in HEAD's Upload-Metadata. */
  filetype?: string;
}

/** How a request body ended up in the file. */
export type Received =
  | { end: 'complete'; bytes: number }
  /** The connection was cut: what arrived before is kept. */
  | { end: 'aborted'; bytes: number }
  /** Another request on the same upload took it over. */
  | { end: 'stopped'; bytes: number }
  /** The body went past the room it had; what came before the chunk that overflowed is kept. */
  | { end: 'too-big'; bytes: number };

interface Holder {
  released: Promise<void>;
  /** Set once a newer request waits: the holder stops reading its body as soon as it can. */
  stopRequested: boolean;
  /** Stops reading the holder's body, keeping what it received. */
  stopper: (() => void) | undefined;
}

export class UploadLockTimeout extends Error {}

/** An info file written by @tus/file-store before this store (uploads in progress at the upgrade). */
interface LegacyInfo {
  size?: unknown;
  metadata?: { videoId?: unknown; filetype?: unknown } | null;
  creation_date?: unknown;
}

/**
 * The bytes of tus uploads, one file per upload in `directory` (DATA_DIR/uploads/<id>, which is
 * what `videos.source_key` points at), with its info file `<id>.json`. A request body is piped
 * from the socket into the file with backpressure: nothing is buffered beyond the write stream's
 * high-water mark. One request at a time per upload in this process: a new one stops the
 * previous (a client resuming after a connection it gave up on), like @tus/server's locker.
 */
export function createUploadStore(directory: string, opts: { lockTimeoutMs?: number } = {}) {
  const lockTimeoutMs = opts.lockTimeoutMs ?? 30_000;
  const holders = new Map<string, Holder>();

  const fileOf = (id: string) => path.join(directory, id);
  const infoOf = (id: string) => `${fileOf(id)}.json`;

  /** Waits for the upload to be free (stopping whoever holds it); returns the release and a way to be stopped. */
  async function lock(id: string): Promise<{ release: () => void; onStop: (stop: () => void) => void }> {
    const deadline = Date.now() + lockTimeoutMs;
    for (let current = holders.get(id); current; current = holders.get(id)) {
      current.stopRequested = true;
      current.stopper?.();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        current.released.then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()));
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) throw new UploadLockTimeout(`upload ${id} is still busy`);
    }
    let release!: () => void;
    const holder: Holder = { released: new Promise<void>((resolve) => (release = resolve)), stopRequested: false, stopper: undefined };
    holders.set(id, holder);
    return {
      release: () => {
        if (holders.get(id) === holder) holders.delete(id);
        release();
      },
      onStop: (stop) => {
        holder.stopper = stop;
        if (holder.stopRequested) stop();
      },
    };
  }

  return {
    directory,
    fileOf,

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

    /** The bytes file and its info file. */
    async remove(id: string): Promise<void> {
      await rm(fileOf(id), { force: true });
      await rm(infoOf(id), { force: true });
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
export type UploadStore = ReturnType<typeof createUploadStore>;
