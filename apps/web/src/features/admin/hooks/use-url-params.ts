import { useCallback } from 'react';
import { useUrlSearch } from '@/lib/url-search';

/**
 * A page's filters live in its URL (shareable, kept by the back button); a change of filter goes
 * back to page 1.
 */
export function useUrlParams<K extends string>(keys: readonly K[]) {
  const [search, setSearch] = useUrlSearch();
  const values = Object.fromEntries(keys.map((k) => [k, search.get(k) ?? ''])) as Record<K, string>;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const update = useCallback(
    (changes: Partial<Record<K | 'page', string>>) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes) as [string, string | undefined][]) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearch],
  );
  return { values, page, update };
}
