import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AnalysisResult } from '@sutura/domain/analysis';
import { isErrorCode } from '@sutura/domain/errors';
import type { publicUserSchema } from '@sutura/domain/users';
import { api, API_BASE, ApiRequestError, SESSION_HEADERS } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query';

export type PublicUser = z.infer<typeof publicUserSchema>;

/** The expert's public profile shown beside the result (SPEC §7 call table). */
export const expertProfileOptions = (expertId: string, lang: string) =>
  queryOptions({
    queryKey: ['users', 'public', expertId, lang] as const,
    queryFn: () =>
      api<PublicUser>('GET', `/users/${expertId}`, {
        query: { select: ['career', 'information', 'mediaId'], populate: ['career.specialty', 'media'] },
      }),
    staleTime: 5 * 60_000,
  });

/**
 * The expert's analysis of an analysed video (docs/analysis-contract.md). Under the video's
 * detail key, so that a status change or a showRatings change (which refreshes everything)
 * fetches it again.
 */
export const analysisResultOptions = (videoId: string, lang: string) =>
  queryOptions({
    queryKey: ['videos', 'detail', videoId, lang, 'analysis'] as const,
    queryFn: async () => {
      const result = await api<AnalysisResult>('GET', `/videos/${videoId}/analysis`);
      // The experts' profiles are asked as soon as their ids are known, not after the page draws.
      const ids = new Set([result.expert.id, ...result.reviews.map((r) => r.expert.id)]);
      for (const id of ids) if (id) void queryClient.prefetchQuery(expertProfileOptions(id, lang));
      return result;
    },
    // Asked together with the case (video-detail.ts): not asked again when the page mounts.
    staleTime: 30_000,
  });

export function useAnalysisResult(videoId: string, enabled: boolean) {
  return useQuery({ ...analysisResultOptions(videoId, currentLanguage()), enabled });
}

/** The PDF report in the reader's language, saved under the name the server gives it. */
export async function downloadAnalysisReport(videoId: string): Promise<void> {
  const response = await fetch(`${API_BASE}/videos/${videoId}/analysis/report?langCode=${currentLanguage()}`, {
    headers: SESSION_HEADERS,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    const code = isErrorCode(body?.error?.code) ? body.error.code : 'GENERIC';
    throw new ApiRequestError(response.status, code, body?.error?.message ?? response.statusText);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'analysis-report.pdf';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the address can go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
