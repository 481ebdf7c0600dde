import { useSyncExternalStore } from 'react';

/** "Pause on drawings", kept on this device (on by default): a viewing habit, not an account setting. */
const KEY = 'sutura.pauseOnDrawings';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setPauseOnDrawings(on: boolean) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // Private browsing without storage: the choice lasts as long as the page.
  }
  for (const listener of listeners) listener();
}

export function usePauseOnDrawings(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => true,
  );
}
