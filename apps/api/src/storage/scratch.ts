import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The scratch space stayed full for longer than a job may wait. */
export class ScratchFull extends Error {}

/**
 * The local folder where ffmpeg reads copies of stored objects and writes what it makes
 * (SCRATCH_DIR, DATA_DIR/tmp by default). Bounded: the folders in use, this process's
 * announced needs and what other processes of the host have written, stay within `maxBytes`;
 * a job that would go past waits for room. Cleaned: a folder is removed when its work ends,
 * and what a killed process left is removed by the next one that starts.
 */
export interface Scratch {
  readonly dir: string;
  readonly maxBytes: number;
  /**
   * A fresh folder for `work`, removed afterwards whatever happens. `bytes` is what it will hold
   * at most (a copy of the source, the outputs): reserved until the work ends.
   */
  withDir<T>(prefix: string, bytes: number, work: (dir: string) => Promise<T>, opts?: { waitMs?: number }): Promise<T>;
  /**
   * How long an HTTP request waits for room (SCRATCH_REQUEST_WAIT_SECONDS) before it is answered
   * 503 with Retry-After: a job waits up to half an hour, a person in front of a form does not.
   */
  readonly requestWaitMs: number;
  /** Removes the folders of processes that are gone (run at start-up and before each reservation). */
  sweep(): Promise<void>;
  /** Bytes reserved by this process's running work. */
  reserved(): number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += await stat(path.join(entry.parentPath, entry.name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return total;
}

/** `<prefix><pid>.<instance>-<random>`: the instance tells this process from an earlier one with the same pid (a container restarted). */
const FOLDER = /^(.*?)(\d+)\.([0-9a-f]{8})-[^/]+$/;

export function createScratch(opts: { dir: string; maxBytes: number; waitMs?: number; requestWaitMs?: number; pollMs?: number }): Scratch {
  const { dir, maxBytes } = opts;
  const waitMs = opts.waitMs ?? 30 * 60_000;
  const requestWaitMs = opts.requestWaitMs ?? 10_000;
  const pollMs = opts.pollMs ?? 2_000;
  const instance = randomBytes(4).toString('hex');
  let reserved = 0;

  const ownedByThis = (name: string) => {
    const match = FOLDER.exec(name);
    return !!match && Number(match[2]) === process.pid && match[3] === instance;
  };

  async function sweep(): Promise<void> {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const match = FOLDER.exec(name);
      if (!match) {
        // Folders of an earlier version (`video-<id>-…`), once a day old: nothing works in them any more.
        const info = await stat(path.join(dir, name)).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > 86_400_000) await rm(path.join(dir, name), { recursive: true, force: true });
        continue;
      }
      const pid = Number(match[2]);
      const left = pid === process.pid ? match[3] !== instance : !alive(pid);
      if (left) await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }

  /** What other live processes of this host hold in the folder now. */
  async function othersUse(): Promise<number> {
    let total = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (ownedByThis(name)) continue;
      total += await sizeOf(path.join(dir, name));
    }
    return total;
  }

  return {
    dir,
    maxBytes,
    sweep,
    requestWaitMs,
    reserved: () => reserved,
    async withDir(prefix, bytes, work, call) {
      await mkdir(dir, { recursive: true });
      const need = Math.max(0, bytes);
      const deadline = Date.now() + (call?.waitMs ?? waitMs);
      for (;;) {
        await sweep();
        const used = reserved + (await othersUse());
        // Alone, a job is never refused: a source bigger than the bound still gets processed.
        if (used === 0 || used + need <= maxBytes) break;
        if (Date.now() >= deadline)
          throw new ScratchFull(`scratch space ${dir} stayed full (${used} bytes in use, ${need} needed, ${maxBytes} allowed)`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(pollMs, deadline - Date.now()))));
      }
      reserved += need;
      const folder = await mkdtemp(path.join(dir, `${prefix}${process.pid}.${instance}-`));
      try {
        return await work(folder);
      } finally {
        reserved -= need;
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}
