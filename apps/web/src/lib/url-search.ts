import { useCallback } from 'react';
import { useSearchParams, type NavigateOptions } from 'react-router';

/**
 * A page's address parameters, and a setter that applies a change to the address as it is now.
 *
 * React Router's functional `setSearchParams` hands its updater the parameters of the last render,
 * so two changes made before the page renders again (a date filled, then the next one) lose the
 * first. The app runs in a `BrowserRouter`, whose navigations write `window.location`
 * synchronously: reading it gives every change the one before.
 */
export function useUrlSearch() {
  const [search, setSearch] = useSearchParams();
  const change = useCallback(
    (apply: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) =>
      setSearch(apply(new URLSearchParams(window.location.search)), options),
    [setSearch],
  );
  return [search, change] as const;
}
