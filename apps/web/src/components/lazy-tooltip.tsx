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

/** A page opened in a background tab records no paint: past this, the tooltips load anyway. */
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

/**
 * MUI's Tooltip (and the positioning library under it), fetched once the page is drawn: the
 * header buttons of every screen show at once, and their tooltip is there by the time anyone
 * points at them.
 */
export function LazyTooltip({ title, children }: { title: string; children: ReactElement }) {
  const [Tooltip, setTooltip] = useState<Tooltip | null>(() => loaded);
  useEffect(() => {
    if (Tooltip) return;
    let active = true;
    const cancel = afterFirstPaint(() => {
      import('@mui/material/Tooltip').then(
        (module) => {
          loaded = module.default;
          if (active) setTooltip(() => module.default);
        },
        (error: unknown) => console.error(error),
      );
    });
    return () => {
      active = false;
      cancel();
    };
  }, [Tooltip]);
  if (!Tooltip) return children;
  return <Tooltip title={title}>{children}</Tooltip>;
}
