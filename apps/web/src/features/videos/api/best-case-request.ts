import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BestCaseRequest } from '@sutura/domain/best-cases';
import { api } from '@/lib/http';

const key = (videoId: string) => ['best-cases', 'request', videoId] as const;

/** What an administrator asked of the author about this case; null when nothing was asked. */
export const bestCaseRequestOptions = (videoId: string) =>
  queryOptions({
    queryKey: key(videoId),
    queryFn: () => api<BestCaseRequest | null>('GET', `/videos/${encodeURIComponent(videoId)}/best-case`),
    // Asked together with the case (video-detail.ts): not asked again when the page mounts.
    staleTime: 30_000,
  });

export function useBestCaseRequest(videoId: string, enabled: boolean) {
  return useQuery({ ...bestCaseRequestOptions(videoId), enabled });
}
