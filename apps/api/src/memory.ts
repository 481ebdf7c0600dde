import v8 from 'node:v8';
import vm from 'node:vm';

type Gc = (options: { type: 'major' | 'minor'; execution?: 'sync'; flavor?: 'regular' | 'last-resort' }) => void;
let gc: Gc | null | undefined;

/** V8's `gc()`, as --expose-gc gives it, without the flag on the command line (null if unavailable). */
function v8Gc(): Gc | null {
  if (gc !== undefined) return gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as Gc;
    v8.setFlagsFromString('--no-expose-gc');
  } catch {
    gc = null;
  }
  return gc;
}

/**
 * Gives back what start-up used once. Loading the modules (drizzle's pg-core schema builders
 * alone allocate over 100 MB of short-lived objects), the migrations and the seed grow V8's
 * young generation to its largest (128 MB) and leave it full of garbage that no ordinary GC
 * returns to the system. A memory-reducing full GC (what V8 does under memory pressure)
 * shrinks it back; it takes a fraction of a second, once, before the server listens.
 */
export function releaseStartupMemory(): void {
  v8Gc()?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** Bytes of request bodies between two young-generation GCs. */
const RECLAIM_EVERY = 4 * 1024 * 1024;
let sinceReclaim = 0;

/**
 * Every chunk of a request body is a new buffer outside V8's heap (64 KiB from the socket),
 * which only a GC frees. V8 counts such memory allocated since the last full GC towards the
 * old generation's limit, which here leaves a slack of about 10 MB: left alone, a streaming
 * upload sets off a full mark-compact of the whole heap (30+ MB: tens of milliseconds) every
 * 10 MB or so, and the buffers pile up in between. A young-generation GC every few MB (under
 * a millisecond: the dead buffers are young) frees them first: an upload then costs about the
 * CPU of a bare Node server piping into a file, and the resident memory stays flat.
 */
export function reclaimBodyBuffers(bytes: number): void {
  sinceReclaim += bytes;
  if (sinceReclaim < RECLAIM_EVERY) return;
  sinceReclaim = 0;
  v8Gc()?.({ type: 'minor' });
}
