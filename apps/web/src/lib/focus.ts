import { useEffect, useRef } from 'react';

/** Whether the keyboard focus is lost: on the page's body, or on an element no longer shown. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

/**
 * Moves the focus to an element once it is shown (a page's heading, a new item), unless something
 * on the page took it already (a field with autofocus, a dialog). The element needs tabIndex={-1}
 * when it is not a control. `when` delays it until the content it points at is there.
 */
export function useFocusOnArrival<T extends HTMLElement>(when = true) {
  const ref = useRef<T>(null);
  const done = useRef(false);
  useEffect(() => {
    if (!when || done.current || !ref.current) return;
    done.current = true;
    const active = document.activeElement;
    const main = document.getElementById('main-content');
    // Focus already inside the new content (not on the page itself) stays where it is.
    if (active && active !== main && main?.contains(active) && active !== ref.current) return;
    ref.current.focus();
  }, [when]);
  return ref;
}
