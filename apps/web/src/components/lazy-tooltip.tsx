import { useEffect, useState, type ReactElement } from 'react';
import type TooltipComponent from '@mui/material/Tooltip';

type Tooltip = typeof TooltipComponent;
let loaded: Tooltip | null = null;

function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 200);
  return () => window.clearTimeout(handle);
}

/** A page opened in a background tab records no paint: past this, it is taken as drawn. */
const PAINT_WAIT_MS = 5000;

/**
 * Runs once the page has drawn its first text, then at the next idle moment: while the fonts
 * arrive the main thread is idle too, and the first screen's scripts must not share the network
 * with this one.
 */
function afterFirstPaint(run: () => void): () => void {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint') || painted()) {
    return whenIdle(run);
  }
  let cancelIdle: (() => void) | undefined;
  const start = () => {
    if (cancelIdle) return;
    observer.disconnect();
    window.clearTimeout(fallback);
    cancelIdle = whenIdle(run);
  };
  const observer = new PerformanceObserver(() => {
    if (painted()) start();
  });
  observer.observe({ type: 'paint', buffered: true });
  const fallback = window.setTimeout(start, PAINT_WAIT_MS);
  return () => {
    observer.disconnect();
    window.clearTimeout(fallback);
    cancelIdle?.();
  };
}

/** What tells that someone is using the page with a mouse, a finger or a keyboard. */
const PRESENCE_EVENTS = ['pointermove', 'pointerdown', 'keydown'] as const;

/** Runs once, at the first move of a pointer, touch or key press on the page. */
function atFirstPresence(run: () => void): () => void {
  const stop = () => {
    for (const type of PRESENCE_EVENTS) window.removeEventListener(type, start, true);
  };
  const start = () => {
    stop();
    run();
  };
  for (const type of PRESENCE_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
  return stop;
}

let loading: Promise<Tooltip> | null = null;
function loadTooltip(): Promise<Tooltip> {
  loading ??= import('@mui/material/Tooltip').then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * MUI's Tooltip (and the positioning library under it), fetched once the page is drawn and
 * someone moves the mouse, touches the screen or presses a key: well before they rest on a
 * button long enough for its tooltip, and never by a visit that does neither (a page opened in
 * the background, a screen shown and left alone) nor during the first screen's own loading.
 */
export function LazyTooltip({ title, children }: { title: string; children: ReactElement }) {
  const [Tooltip, setTooltip] = useState<Tooltip | null>(() => loaded);
  useEffect(() => {
    if (Tooltip) return;
    let active = true;
    let cancelPresence: (() => void) | undefined;
    const cancelPaint = afterFirstPaint(() => {
      cancelPresence = atFirstPresence(() => {
        loadTooltip().then(
          (component) => {
            if (active) setTooltip(() => component);
          },
          (error: unknown) => console.error(error),
        );
      });
    });
    return () => {
      active = false;
      cancelPaint();
      cancelPresence?.();
    };
  }, [Tooltip]);
  if (!Tooltip) return children;
  return <Tooltip title={title}>{children}</Tooltip>;
}
