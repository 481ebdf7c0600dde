import { useQuery } from '@tanstack/react-query';
import type { Comparison, ComparisonChoices } from '@sutura/domain/comparison';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

/** What is compared with a best case: an analysed case, or another best case. */
export type ComparisonSource = 'case' | 'best_case';

const base = (source: ComparisonSource, id: string) =>
  `${source === 'case' ? '/videos' : '/best-cases'}/${encodeURIComponent(id)}/comparison`;

export const comparisonKeys = {
  choices: (lang: string, source: ComparisonSource, id: string) => ['comparison', 'choices', lang, source, id] as const,
  one: (lang: string, source: ComparisonSource, id: string, bestCaseId: string) =>
    ['comparison', 'one', lang, source, id, bestCaseId] as const,
};

/** The published best cases of the same surgery it may be compared with. */
export function useComparisonChoices(source: ComparisonSource, id: string) {
  return useQuery({
    queryKey: comparisonKeys.choices(currentLanguage(), source, id),
    queryFn: () => api<ComparisonChoices>('GET', base(source, id)),
    retry: false,
  });
}

/** Both sides, their steps matched; the signed URLs expire, so the page fetches again on a player error. */
export function useComparison(source: ComparisonSource, id: string, bestCaseId: string | null) {
  return useQuery({
    queryKey: comparisonKeys.one(currentLanguage(), source, id, bestCaseId ?? ''),
    queryFn: () => api<Comparison>('GET', `${base(source, id)}/${encodeURIComponent(bestCaseId ?? '')}`),
    enabled: !!bestCaseId,
    retry: false,
  });
}
