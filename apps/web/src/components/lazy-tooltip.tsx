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
    const cancel = whenIdle(() => {
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
