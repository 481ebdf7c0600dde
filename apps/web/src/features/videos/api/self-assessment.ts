import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SelfAssessment } from '@sutura/domain/self-assessment';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { videoKeys } from '@/features/videos/api/video-keys';

export const selfAssessmentPath = (id: string) => `/videos/${encodeURIComponent(id)}/self-assessment`;

/**
 * The author's self-assessment of a case (docs/self-assessment.md). Under the case's detail key
 * and keyed by its status, so that the case turning 'analysed' asks again before the result is
 * asked (the result, once served, locks the self-assessment).
 */
export const selfAssessmentOptions = (videoId: string, lang: string, status: string) =>
  queryOptions({
    queryKey: [...videoKeys.detail(videoId, lang), 'self-assessment', status] as const,
    queryFn: () => api<SelfAssessment>('GET', selfAssessmentPath(videoId)),
    staleTime: 30_000,
  });

export function useSelfAssessment(videoId: string, status: string, enabled: boolean) {
  return useQuery({ ...selfAssessmentOptions(videoId, currentLanguage(), status), enabled });
}
