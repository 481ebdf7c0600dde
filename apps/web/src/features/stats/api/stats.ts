import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LearnerSelfVsExpert } from '@sutura/domain/self-assessment';
import type { LearnerNasaTlx, LearnerStats, LearnerStepTimes, StatsComparison } from '@sutura/domain/stats';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';

export const statsKeys = {
  mine: (compare: StatsComparison, showRatings: boolean) => ['stats', 'me', compare, showRatings] as const,
  nasaTlx: (compare: StatsComparison) => ['stats', 'me', 'nasa-tlx', compare] as const,
  steps: (surgeryId: string | null, lang: string) => ['stats', 'me', 'steps', surgeryId, lang] as const,
};

/** The learner's statistics; the key follows showRatings, so turning them on reads them afresh. */
export function useMyStats(compare: StatsComparison, enabled = true) {
  const { session } = useSession();
  const showRatings = session?.preferences.showRatings ?? true;
  return useQuery({
    queryKey: statsKeys.mine(compare, showRatings),
    queryFn: () => api<LearnerStats>('GET', '/stats/me', { query: { filter: { compare } } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The learner's NASA-TLX against the average (read only when its tab is open). */
export function useMyNasaTlx(compare: StatsComparison, enabled = true) {
  return useQuery({
    queryKey: statsKeys.nasaTlx(compare),
    queryFn: () => api<LearnerNasaTlx>('GET', '/stats/me/nasa-tlx', { query: { filter: { compare } } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The step times of one surgery (null: the surgery of most of the learner's prepared cases); names in the page's language. */
export function useMyStepTimes(surgeryId: string | null, enabled = true) {
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  return useQuery({
    queryKey: statsKeys.steps(surgeryId, lang),
    queryFn: () =>
      api<LearnerStepTimes>('GET', '/stats/me/steps', { query: { langCode: lang, ...(surgeryId ? { filter: { surgeryId } } : {}) } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Self against expert month by month (docs/statistics.md); the key follows showRatings. */
export function useMySelfVsExpert(enabled = true) {
  const { session } = useSession();
  const showRatings = session?.preferences.showRatings ?? true;
  return useQuery({
    queryKey: ['stats', 'me', 'self-assessment', showRatings] as const,
    queryFn: () => api<LearnerSelfVsExpert>('GET', '/stats/me/self-assessment'),
    enabled,
  });
}
