import { cloneElement, useEffect, useLayoutEffect, useRef, useState, type ReactElement, type Ref } from 'react';
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

/** What the keyboard had on the button when the tooltip arrived: the focus, and whether it showed. */
interface HeldFocus {
  visible: boolean;
}

/**
 * MUI's Tooltip (and the positioning library under it), fetched once the page is drawn and
 * someone moves the mouse, touches the screen or presses a key: well before they rest on a
 * button long enough for its tooltip, and never by a visit that does neither (a page opened in
 * the background, a screen shown and left alone) nor during the first screen's own loading.
 *
 * Wrapping the button in the tooltip makes React draw it anew: a button that had the focus (the
 * very key press that fetched the tooltip may have brought it there) gets it back in the same
 * commit, with its focus ring, before the browser draws a frame where the focus is nowhere.
 */
export function LazyTooltip({ title, children }: { title: string; children: ReactElement<{ ref?: Ref<HTMLElement> }> }) {
  const [Tooltip, setTooltip] = useState<Tooltip | null>(() => loaded);
  // The button as drawn now: a new one once the tooltip wraps it.
  const [element, setElement] = useState<HTMLElement | null>(null);
  const held = useRef<HeldFocus | null>(null);
  const drawn = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    drawn.current = element;
  }, [element]);
  useEffect(() => {
    if (Tooltip) return;
    let active = true;
    let cancelPresence: (() => void) | undefined;
    const cancelPaint = afterFirstPaint(() => {
      cancelPresence = atFirstPresence(() => {
        loadTooltip().then(
          (component) => {
            if (!active) return;
            const element = drawn.current;
            held.current = element?.contains(document.activeElement)
              ? { visible: element.matches(':focus-visible') || element.querySelector(':focus-visible') !== null }
              : null;
            setTooltip(() => component);
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
  useLayoutEffect(() => {
    const focus = held.current;
    if (!focus || !element) return;
    held.current = null;
    if (!element.contains(document.activeElement)) element.focus({ preventScroll: true, focusVisible: focus.visible } as FocusOptions);
  }, [element]);
  const child = cloneElement(children, { ref: setElement });
  if (!Tooltip) return child;
  return <Tooltip title={title}>{child}</Tooltip>;
}
