import type { IncomingMessage } from 'node:http';
import { UPLOADS_PREFIX } from './storage.ts';

/** What is kept beside an upload's bytes: never the client's file name. */
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

/** How a request body ended up in the store. */
export type Received =
  | { end: 'complete'; bytes: number }
  /** The connection was cut: what arrived before is kept. */
  | { end: 'aborted'; bytes: number }
  /** Another request on the same upload took it over. */
  | { end: 'stopped'; bytes: number }
  /** The body went past the room it had; what came before the chunk that overflowed is kept. */
  | { end: 'too-big'; bytes: number };

export class UploadLockTimeout extends Error {}

/** The storage key of an upload's bytes once they are all there (what `videos.source_key` names). */
export const uploadKey = (id: string) => `${UPLOADS_PREFIX}/${id}`;

/**
 * The bytes of tus uploads while they arrive. Local disk: one file per upload in DATA_DIR/uploads
 * with an info file beside it. S3: S3 multipart parts, the state in the database, so that an
 * upload begun through one API process continues through any other.
 */
export interface UploadStore {
  readonly kind: 'local' | 's3';
  /** Made at start-up so that a problem shows at once. */
  prepare(): Promise<void>;
  create(info: UploadInfo): Promise<void>;
  /** The announced size and metadata of an upload, or undefined when it is unknown. */
  info(id: string): Promise<{ size: number; videoId: string | undefined; filetype: string | undefined } | undefined>;
  /** How many bytes are kept, or undefined when they are gone. */
  offset(id: string): Promise<number | undefined>;
  /** When the last bytes were kept (for the expiry of idle uploads). */
  lastWrite(id: string): Promise<Date | undefined>;
  /** Every byte of the upload, its state and its parts. */
  remove(id: string): Promise<void>;
  /** Every upload the store holds, with when it last received bytes (the sweep of uploads no row names). */
  list(): AsyncIterable<{ id: string; modifiedAt: Date }>;
  /** Waits for the upload to be free in this process (stopping whoever holds it). */
  lock(id: string): Promise<{ release: () => void; onStop: (stop: () => void) => void }>;
  /**
   * Writes a request body from `start`, at most `room` bytes (the rest of Upload-Length). Settles
   * once the bytes are kept. When the last byte is in, `uploadKey(id)` is the whole file.
   */
  receive(id: string, body: IncomingMessage, start: number, room: number, onStop: (stop: () => void) => void): Promise<Received>;
}

interface Holder {
  released: Promise<void>;
  /** Set once a newer request waits: the holder stops reading its body as soon as it can. */
  stopRequested: boolean;
  /** Stops reading the holder's body, keeping what it received. */
  stopper: (() => void) | undefined;
}

/** One request at a time per upload in this process: a new one stops the previous (a client resuming after a connection it gave up on). */
export function createUploadLocks(lockTimeoutMs = 30_000): UploadStore['lock'] {
  const holders = new Map<string, Holder>();
  return async function lock(id) {
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
  };
}
