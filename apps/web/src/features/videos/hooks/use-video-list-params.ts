import { useCallback, useMemo } from 'react';
import { useUrlSearch } from '@/lib/url-search';
import { VIDEO_STATUSES, VIDEO_TABS, type VideoStatus, type VideoTab } from '@sutura/domain/videos';
import { VIDEO_SORT_OPTIONS, type VideoListParams, type VideoSort } from '@/features/videos/api/video-list';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/** The statuses a tab can hold; a status filter is offered only where there is a choice. */
export const TAB_STATUSES: Record<VideoTab, readonly VideoStatus[]> = {
  mine: ['saved'],
  toAnalyze: VIDEO_STATUSES.filter((s) => s !== 'saved' && s !== 'analysed'),
  analysed: ['analysed'],
  shared: VIDEO_STATUSES,
};

export function parseListParams(search: URLSearchParams): VideoListParams {
  const tab = oneOf(search.get('tab'), VIDEO_TABS) ?? 'mine';
  const status = oneOf(search.get('status'), TAB_STATUSES[tab]);
  const uuid = (key: string) => (UUID.test(search.get(key) ?? '') ? search.get(key)! : undefined);
  const day = (key: string) => (DAY.test(search.get(key) ?? '') ? search.get(key)! : undefined);
  const page = Number(search.get('page'));
  return {
    tab,
    surgeryId: uuid('surgery'),
    organId: uuid('organ'),
    status: TAB_STATUSES[tab].length > 1 ? status : undefined,
    favourite: tab !== 'shared' && search.get('favourite') === '1' ? true : undefined,
    from: day('from'),
    to: day('to'),
    sort: oneOf(search.get('sort'), Object.keys(VIDEO_SORT_OPTIONS) as VideoSort[]) ?? 'newest',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

function toSearch(params: VideoListParams): URLSearchParams {
  const out = new URLSearchParams({ tab: params.tab });
  if (params.surgeryId) out.set('surgery', params.surgeryId);
  if (params.organId) out.set('organ', params.organId);
  if (params.status) out.set('status', params.status);
  if (params.favourite) out.set('favourite', '1');
  if (params.from) out.set('from', params.from);
  if (params.to) out.set('to', params.to);
  if (params.sort !== 'newest') out.set('sort', params.sort);
  if (params.page > 1) out.set('page', String(params.page));
  return out;
}

/** How many filters narrow the list (the tab, the order and the page are not filters). */
export function activeFilterCount(params: VideoListParams): number {
  return [params.surgeryId, params.organId, params.status, params.favourite, params.from, params.to].filter(Boolean).length;
}

/**
 * The tab, filters, order and page of /videos live in the URL, so a reload, a shared link or the
 * back button shows the same list. Any change but the page goes back to page 1.
 */
export function useVideoListParams() {
  const [search, setSearch] = useUrlSearch();
  const params = useMemo(() => parseListParams(search), [search]);

  const update = useCallback(
    (changes: Partial<VideoListParams>) => {
      setSearch(
        (prev) => {
          const current = parseListParams(prev);
          const next: VideoListParams = { ...current, ...changes, page: changes.page ?? 1 };
          if (changes.tab && changes.tab !== current.tab) next.status = undefined;
          return toSearch(next);
        },
        { replace: !changes.tab && !changes.page },
      );
    },
    [setSearch],
  );

  const clearFilters = useCallback(() => {
    setSearch((prev) => {
      const { tab, sort } = parseListParams(prev);
      return toSearch({ tab, sort, page: 1 });
    });
  }, [setSearch]);

  return { params, update, clearFilters };
}
