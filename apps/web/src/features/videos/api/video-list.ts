import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { VideoStatus, VideoTab, videoListResponse } from '@sutura/domain/videos';
import { api, type QueryParams } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { videoKeys } from '@/features/videos/api/video-keys';

export type VideoList = z.infer<typeof videoListResponse>;

/** The orders the list offers, as the `sort` of GET /videos. */
export const VIDEO_SORT_OPTIONS = {
  newest: ['-createdAt'],
  oldest: ['createdAt'],
  duration: ['-duration'],
  surgery: ['surgery'],
} as const satisfies Record<string, readonly string[]>;
export type VideoSort = keyof typeof VIDEO_SORT_OPTIONS;

export const VIDEO_PAGE_SIZE = 12;

export interface VideoListParams {
  tab: VideoTab;
  surgeryId?: string;
  organId?: string;
  status?: VideoStatus;
  favourite?: boolean;
  /** Days, `YYYY-MM-DD`; `to` includes the whole day. */
  from?: string;
  to?: string;
  sort: VideoSort;
  page: number;
}

export function toQuery(params: VideoListParams): QueryParams {
  const filter: Record<string, string | boolean> = { tab: params.tab };
  if (params.surgeryId) filter.surgeryId = params.surgeryId;
  if (params.organId) filter.organId = params.organId;
  if (params.status) filter.status = params.status;
  if (params.favourite) filter.favourite = true;
  if (params.from) filter.from = params.from;
  if (params.to) filter.to = params.to;
  return { filter, sort: [...VIDEO_SORT_OPTIONS[params.sort]], page: params.page, limit: VIDEO_PAGE_SIZE };
}

/** Whether a list key is one of the same tab's (its params are the key's last part). */
function sameTab(key: readonly unknown[] | undefined, tab: VideoTab): boolean {
  const params = key?.[3] as Partial<VideoListParams> | undefined;
  return params?.tab === tab;
}

export const getVideoList = (params: VideoListParams) => api<VideoList>('GET', '/videos', { query: toQuery(params) });

export const videoListOptions = (lang: string, params: VideoListParams) =>
  queryOptions({
    queryKey: videoKeys.list(lang, params),
    queryFn: () => getVideoList(params),
    // Another page or filter of the same tab keeps its cards on screen (dimmed, with a progress
    // bar) until the answer arrives; another tab never shows the previous tab's cards: its
    // skeletons show at once.
    placeholderData: (previous, previousQuery) => (sameTab(previousQuery?.queryKey, params.tab) ? keepPreviousData(previous) : undefined),
  });

export function useVideoList(params: VideoListParams) {
  return useQuery(videoListOptions(currentLanguage(), params));
}
