import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ExpertList, expertListResponse } from '@sutura/domain/analysis';
import type { ClaimResponse } from '@sutura/domain/claims';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export type ExpertListPage = z.infer<typeof expertListResponse>;

export const EXPERT_PAGE_SIZE = 12;
/** Videos that arrive from the preparation stage are not announced on the socket: look again every minute. */
const POOL_REFRESH_MS = 60_000;

export const expertKeys = {
  all: ['expert'] as const,
  list: (lang: string, list: ExpertList, page: number) => ['expert', 'list', lang, list, page] as const,
};

const PATHS: Record<ExpertList, string> = { pool: '/expert/pool', held: '/expert/held', analysed: '/expert/analysed' };

export const getExpertList = (list: ExpertList, page: number) =>
  api<ExpertListPage>('GET', PATHS[list], { query: { page, limit: EXPERT_PAGE_SIZE } });

export const expertListOptions = (lang: string, list: ExpertList, page: number) =>
  queryOptions({
    queryKey: expertKeys.list(lang, list, page),
    queryFn: () => getExpertList(list, page),
    placeholderData: keepPreviousData,
    refetchInterval: list === 'pool' ? POOL_REFRESH_MS : false,
  });

export function useExpertList(list: ExpertList, page: number) {
  return useQuery(expertListOptions(currentLanguage(), list, page));
}

export const claimVideo = (videoId: string) => api<ClaimResponse>('POST', `/expert/videos/${videoId}/claim`, { body: {} });

/** Claims a video of the pool; every list changes with it. */
export function useClaimVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimVideo,
    onSettled: () => queryClient.invalidateQueries({ queryKey: expertKeys.all }),
  });
}
