import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AnalysisResult } from '@sutura/domain/analysis';
import type { publicUserSchema } from '@sutura/domain/users';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query';

export type PublicUser = z.infer<typeof publicUserSchema>;

/**
 * The expert's public profile shown beside the result (SPEC §7 call table); the result brings it
 * (keepExpertProfile), so this is asked only when it is not there.
 */
export const expertProfileOptions = (expertId: string, lang: string) =>
  queryOptions({
    queryKey: ['users', 'public', expertId, lang] as const,
    queryFn: () =>
      api<PublicUser>('GET', `/users/${expertId}`, {
        query: { select: ['career', 'information', 'mediaId'], populate: ['career.specialty', 'media'] },
      }),
    staleTime: 5 * 60_000,
  });

const resultKey = (videoId: string, lang: string) => ['videos', 'detail', videoId, lang, 'analysis'] as const;

/**
 * The expert's public profile, as the result carries it (name, specialty, avatar): kept under the
 * profile's own key, so the page draws it with the result instead of asking for it afterwards.
 */
function keepExpertProfile(result: AnalysisResult, lang: string): void {
  for (const expert of [result.expert, ...result.reviews.map((r) => r.expert)]) {
    if (!expert.id) continue;
    const profile: PublicUser = {
      id: expert.id,
      information: { firstName: expert.firstName, lastName: expert.lastName },
      career: { specialtyId: expert.specialty?.id ?? null, specialty: expert.specialty },
      mediaId: expert.media?.id ?? null,
      media: expert.media,
    };
    queryClient.setQueryData(expertProfileOptions(expert.id, lang).queryKey, profile);
  }
}

/**
 * The result asked together with the case, before the page knows whether the case is analysed
 * or whether its author is invited to assess themselves first: null then (`ifReady`), and the
 * result is not served (so not seen: the invitation comes first). A result it brings is kept as
 * the result's answer, which the page then draws without asking again.
 */
const earlyResultOptions = (videoId: string, lang: string) =>
  queryOptions({
    queryKey: [...resultKey(videoId, lang), 'if-ready'] as const,
    queryFn: async () => {
      const result = await api<AnalysisResult | null>('GET', `/videos/${encodeURIComponent(videoId)}/analysis`, {
        query: { ifReady: true },
      });
      if (result) {
        keepExpertProfile(result, lang);
        queryClient.setQueryData(resultKey(videoId, lang), result);
      }
      return result;
    },
    staleTime: 30_000,
  });

/** Asks for the result with the case (see earlyResultOptions); resolves once it has answered. */
export function prefetchEarlyResult(videoId: string, lang: string): Promise<void> {
  return queryClient.prefetchQuery(earlyResultOptions(videoId, lang));
}

/**
 * The expert's analysis of an analysed video (docs/analysis-contract.md), with its expert's
 * public profile. Under the video's detail key, so that a status change or a showRatings change
 * (which refreshes everything) fetches it again.
 */
export const analysisResultOptions = (videoId: string, lang: string) =>
  queryOptions({
    queryKey: resultKey(videoId, lang),
    queryFn: async () => {
      // Asked with the case and not answered yet: its answer, rather than a second request.
      const early = queryClient.getQueryState(earlyResultOptions(videoId, lang).queryKey);
      if (early?.fetchStatus === 'fetching') {
        const result = await queryClient.fetchQuery(earlyResultOptions(videoId, lang)).catch(() => null);
        if (result) return result;
      }
      const result = await api<AnalysisResult>('GET', `/videos/${encodeURIComponent(videoId)}/analysis`);
      keepExpertProfile(result, lang);
      return result;
    },
    // Asked together with the case (video-detail.ts): not asked again when the page mounts.
    staleTime: 30_000,
  });

export function useAnalysisResult(videoId: string, enabled: boolean) {
  return useQuery({ ...analysisResultOptions(videoId, currentLanguage()), enabled });
}
