import { useSyncExternalStore } from 'react';

/** A page opened in a background tab records no paint: past this, it is taken as drawn. */
const PAINT_WAIT_MS = 5000;

/**
 * Runs once the page has drawn its first text (at once when it has), for what the first screen
 * does not need to draw: started then, it does not share the network and the main thread with
 * the first screen's own code. Returns what cancels it.
 */
export function afterFirstPaint(run: () => void): () => void {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint') || painted()) {
    run();
    return () => undefined;
  }
  let done = false;
  const stop = () => {
    done = true;
    observer.disconnect();
    window.clearTimeout(fallback);
  };
  const start = () => {
    if (done) return;
    stop();
    run();
  };
  const observer = new PerformanceObserver(() => {
    if (painted()) start();
  });
  observer.observe({ type: 'paint', buffered: true });
  const fallback = window.setTimeout(start, PAINT_WAIT_MS);
  return stop;
}

let painted = false;
const waiting = new Set<() => void>();
let cancelWait: (() => void) | undefined;

function subscribeToPaint(changed: () => void): () => void {
  if (painted) return () => undefined;
  waiting.add(changed);
  cancelWait ??= afterFirstPaint(() => {
    painted = true;
    for (const notify of waiting) notify();
    waiting.clear();
  });
  return () => waiting.delete(changed);
}

/**
 * Whether the page has drawn its first text: a read the first screen does not draw with waits for
 * it, so that it does not lengthen the way to the first screen on a slow phone.
 */
export function usePainted(): boolean {
  return useSyncExternalStore(subscribeToPaint, () => painted);
}
