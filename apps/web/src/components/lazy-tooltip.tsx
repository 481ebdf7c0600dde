import { cloneElement, useEffect, useState, type ReactElement, type Ref } from 'react';
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
 * Where the focus is going while the element it leaves says so (a focusout): React may draw
 * during that event, before the focus has arrived. Set for the event's length, in the capture
 * phase at the document, before React's own listeners.
 */
let incoming: EventTarget | null = null;
let following = false;
function followIncomingFocus(): void {
  if (following) return;
  following = true;
  document.addEventListener(
    'focusout',
    (event) => {
      incoming = event.relatedTarget;
      setTimeout(() => (incoming = null));
    },
    true,
  );
  document.addEventListener('focusin', () => (incoming = null), true);
}

/**
 * Follows the button as React attaches and detaches it. React detaches a removed button's ref
 * before it takes the button out of the page: the focus is still on it then, or on its way to it
 * (a Tab's focusout, during which React may draw), and is kept (with whether its ring showed)
 * for the button that replaces it, given to it as React attaches it, in the same commit. The
 * same button attached again has kept its focus.
 */
class FocusKeeper {
  private drawn: HTMLElement | null = null;
  /**
   * The focus the previous button had (or was receiving) when it was detached, and whether its
   * ring showed; undefined: the browser decides, as for a focus that had not arrived yet.
   */
  private held: { visible: boolean | undefined } | null = null;

  constructor() {
    followIncomingFocus();
  }

  readonly attach = (node: HTMLElement | null): void => {
    const previous = this.drawn;
    if (!node) {
      if (previous?.contains(document.activeElement)) {
        this.held = { visible: previous.matches(':focus-visible') || previous.querySelector(':focus-visible') !== null };
      } else {
        this.held = incoming instanceof Node && previous?.contains(incoming) ? { visible: undefined } : null;
      }
      return;
    }
    const focus = this.held;
    this.held = null;
    this.drawn = node;
    if (!focus || node === previous || node.contains(document.activeElement)) return;
    node.focus(
      focus.visible === undefined ? { preventScroll: true } : ({ preventScroll: true, focusVisible: focus.visible } as FocusOptions),
    );
  };
}

/**
 * MUI's Tooltip (and the positioning library under it), fetched once the page is drawn and
 * someone moves the mouse, touches the screen or presses a key: well before they rest on a
 * button long enough for its tooltip, and never by a visit that does neither (a page opened in
 * the background, a screen shown and left alone) nor during the first screen's own loading.
 *
 * Wrapping the button in the tooltip makes React draw it anew: a button that had the focus (the
 * very key press that fetched the tooltip may have brought it there, or a later one while the
 * tooltip was on its way) gets it back in the same commit, with its focus ring, before the
 * browser draws a frame where the focus is nowhere. Whether it had the focus is read as React
 * detaches the old button, still in the page: a key press between the tooltip's arrival and
 * React's drawing is seen too.
 */
export function LazyTooltip({ title, children }: { title: string; children: ReactElement<{ ref?: Ref<HTMLElement> }> }) {
  const [Tooltip, setTooltip] = useState<Tooltip | null>(() => loaded);
  const [keeper] = useState(() => new FocusKeeper());
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
  const child = cloneElement(children, { ref: keeper.attach });
  if (!Tooltip) return child;
  return <Tooltip title={title}>{child}</Tooltip>;
}
