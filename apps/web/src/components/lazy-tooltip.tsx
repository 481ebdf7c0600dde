import { useEffect, useState, type ReactElement } from 'react';
import type TooltipComponent from '@mui/material/Tooltip';
import { afterFirstPaint } from '@/lib/first-paint';

type Tooltip = typeof TooltipComponent;
let loaded: Tooltip | null = null;

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
