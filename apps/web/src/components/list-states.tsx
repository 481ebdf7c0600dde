import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import type { SxProps, Theme } from '@mui/material/styles';
import { RetryAlert } from '@/components/retry-alert';

/** Cards side by side: one a row at 390 px, up to four on a wide screen. */
export const cardGridSx = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))', xl: 'repeat(4, minmax(0, 1fr))' },
} as const;

/**
 * A page of cards as a list, one card an item; dimmed while the next page replaces a shown one
 * (placeholder data), busy while it loads.
 */
export function CardGrid<T extends { id: string }>({
  items,
  busy,
  dimmed = false,
  children,
}: {
  items: readonly T[];
  busy: boolean;
  dimmed?: boolean;
  children(item: T): ReactNode;
}) {
  return (
    <Box component="ul" sx={{ ...cardGridSx, listStyle: 'none', p: 0, m: 0, opacity: dimmed ? 0.6 : 1 }} aria-busy={busy}>
      {items.map((item) => (
        <Box component="li" key={item.id}>
          {children(item)}
        </Box>
      ))}
    </Box>
  );
}

/** How many pages a list of `total` items has (at least one). */
export const pageCount = (total: number | undefined, pageSize: number) =>
  total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));

interface ListQuery<P> {
  data: P | undefined;
  isError: boolean;
  error: unknown;
  refetch(): Promise<unknown>;
}

/**
 * A page of a list, or what stands in its place: a failed load (with a retry), skeletons while
 * it loads, or what the page says when it holds nothing.
 */
export function ListStates<P extends { data: readonly unknown[] }>({
  query,
  retry,
  loading,
  empty,
  children,
}: {
  query: ListQuery<P>;
  /** The retry button's text. */
  retry: string;
  /** The skeletons' name for screen readers, how many, how high, and how they are laid out. */
  loading: { label: string; count: number; height: number; sx: SxProps<Theme> };
  empty: ReactNode;
  children(page: P): ReactNode;
}) {
  if (query.isError) {
    return <RetryAlert error={query.error} retry={retry} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) {
    return (
      <Box role="status" aria-label={loading.label} sx={loading.sx}>
        {Array.from({ length: loading.count }, (_, i) => (
          <Skeleton key={i} variant="rounded" height={loading.height} />
        ))}
      </Box>
    );
  }
  if (query.data.data.length === 0) return empty;
  return children(query.data);
}

/**
 * The pages of a list, under it; nothing when there is only one. `labels` names the keys that
 * read the buttons to screen readers (`<labels>.page`, `.current`, `.first`, `.last`, `.next`, `.previous`).
 */
export function ListPagination({
  pages,
  page,
  onChange,
  labels,
  mt,
}: {
  pages: number;
  page: number;
  onChange(page: number): void;
  labels?: string;
  /** Space above it, in theme units. */
  mt?: number;
}) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <Pagination
      count={pages}
      page={Math.min(page, pages)}
      onChange={(_, next) => onChange(next)}
      color="primary"
      sx={{ mt, display: 'flex', justifyContent: 'center' }}
      getItemAriaLabel={
        labels
          ? (type, p, selected) => (type === 'page' ? t(`${labels}.${selected ? 'current' : 'page'}`, { page: p }) : t(`${labels}.${type}`))
          : undefined
      }
    />
  );
}
