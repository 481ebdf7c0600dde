import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LearnerStats, StatsComparison } from '@sutura/domain/stats';
import { api } from '@/lib/http';
import { useSession } from '@/lib/session';

export const statsKeys = { mine: (compare: StatsComparison, showRatings: boolean) => ['stats', 'me', compare, showRatings] as const };

/** The learner's statistics; the key follows showRatings, so turning them on reads them afresh. */
export function useMyStats(compare: StatsComparison) {
  const { session } = useSession();
  const showRatings = session?.preferences.showRatings ?? true;
  return useQuery({
    queryKey: statsKeys.mine(compare, showRatings),
    queryFn: () => api<LearnerStats>('GET', '/stats/me', { query: { filter: { compare } } }),
    placeholderData: keepPreviousData,
  });
}
