import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/**
 * The one pattern of every mutating button: `run` starts the action, and any call while it is
 * still running (a double click, Enter pressed twice) is dropped, before React has even drawn
 * the disabled button; `pending` disables it and shows its progress meanwhile.
 */
export function useSingleFlight<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
): {
  run: (...args: A) => Promise<void>;
  pending: boolean;
} {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  const latest = useRef(action);
  useLayoutEffect(() => {
    latest.current = action;
  });
  const run = useCallback(async (...args: A) => {
    if (running.current) return;
    running.current = true;
    setPending(true);
    try {
      await latest.current(...args);
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);
  return { run, pending };
}
