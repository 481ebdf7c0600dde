import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/http';

/**
 * saved: the server holds what is on screen; pending: a change waits for its save; saving: a save
 * is under way; offline: the server could not be reached, the change is kept on this device and
 * sent again; lost: the server refused it (the hold expired or was taken over) — nothing more is sent.
 */
export type SaveStatus = 'saved' | 'pending' | 'saving' | 'offline' | 'lost';

/** Changes are sent this long after the last one, so a burst of keys makes one save. */
const AUTOSAVE_DELAY_MS = 800;
const OFFLINE_RETRY_MS = 4000;

interface AutosaveOptions<T> {
  /** What is on screen now. */
  value: T;
  /** What the server held when the page opened. */
  initial: T;
  same(a: T, b: T): boolean;
  save(value: T): Promise<void>;
  /** Where an unsaved change is kept on this device, so a reload without a connection keeps it. */
  storageKey: string;
}

export function readLocalDraft<T>(storageKey: string): T | null {
  try {
    const raw = localStorage.getItem(storageKey);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function writeLocalDraft(storageKey: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, JSON.stringify(value));
  } catch {
    // A full or disabled storage only loses the offline copy; the save itself goes on.
  }
}

/**
 * Saves a draft a moment after each change, one save at a time and always the newest value;
 * keeps the unsaved value on the device and sends it again when the connection comes back.
 */
export function useAutosave<T>({ value, initial, same, save, storageKey }: AutosaveOptions<T>) {
  const [status, setStatus] = useState<SaveStatus>(() => (same(value, initial) ? 'saved' : 'pending'));
  const [error, setError] = useState<ApiRequestError | null>(null);
  const latest = useRef(value);
  const saved = useRef(initial);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const lost = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const helpers = useRef({ same, save, storageKey });
  useLayoutEffect(() => {
    helpers.current = { same, save, storageKey };
    latest.current = value;
  });

  /** Sends the newest value if it differs from the saved one; true once the server holds it. */
  const flush = useCallback(async function send(): Promise<boolean> {
    clearTimeout(timer.current);
    if (lost.current) return false;
    while (inFlight.current) await inFlight.current;
    if (lost.current) return false;
    const { same: equal, save: persist, storageKey: key } = helpers.current;
    const sending = latest.current;
    if (equal(sending, saved.current)) {
      writeLocalDraft(key, null);
      setStatus('saved');
      return true;
    }
    setStatus('saving');
    const run = (async () => {
      try {
        await persist(sending);
        saved.current = sending;
        setError(null);
        return true;
      } catch (caught) {
        const apiError = caught instanceof ApiRequestError ? caught : null;
        if (apiError && apiError.status >= 400 && apiError.status < 500) {
          lost.current = apiError.status === 409;
          setError(apiError);
          setStatus(apiError.status === 409 ? 'lost' : 'pending');
        } else {
          setStatus('offline');
          timer.current = setTimeout(() => void send(), OFFLINE_RETRY_MS);
        }
        return false;
      }
    })();
    inFlight.current = run;
    const ok = await run;
    inFlight.current = null;
    if (!ok) return false;
    // A change made while this save travelled is sent next.
    if (!equal(latest.current, sending)) return send();
    writeLocalDraft(key, null);
    setStatus('saved');
    return true;
  }, []);

  useEffect(() => {
    if (lost.current) return;
    if (helpers.current.same(value, saved.current)) return;
    writeLocalDraft(helpers.current.storageKey, value);
    setStatus((s) => (s === 'offline' ? s : 'pending'));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
  }, [value, flush]);

  useEffect(() => {
    const online = () => void flush();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      // Leaving the page with a change still waiting: it is sent now rather than dropped.
      if (timer.current !== undefined && !helpers.current.same(latest.current, saved.current)) void flush();
      clearTimeout(timer.current);
    };
  }, [flush]);

  // A change not yet sent when the page closes: the browser asks before leaving.
  useEffect(() => {
    if (status === 'saved' || status === 'lost') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [status]);

  /** The draft is given up (the hold given back): nothing waiting is sent, now or on leaving. */
  const discard = useCallback(() => {
    lost.current = true;
    clearTimeout(timer.current);
    timer.current = undefined;
    writeLocalDraft(helpers.current.storageKey, null);
  }, []);

  return { status, error, flush, discard };
}
