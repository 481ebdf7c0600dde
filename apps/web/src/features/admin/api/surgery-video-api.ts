import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminVideoList } from '@sutura/domain/admin-catalog';
import type { MediaStatus, VideoStatus } from '@sutura/domain/videos';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export const SURGERY_VIDEO_PAGE_SIZE = 20;

export interface SurgeryVideoParams {
  status?: VideoStatus;
  mediaStatus?: MediaStatus;
  search?: string;
  /** Newest first unless `oldest`. */
  oldest: boolean;
  page: number;
}

const keys = { all: ['admin', 'surgery-videos'] as const };

/** One page of every case (GET /admin/surgery-videos). */
export function useSurgeryVideos(params: SurgeryVideoParams) {
  const filter: Record<string, string> = {};
  if (params.status) filter.status = params.status;
  if (params.mediaStatus) filter.mediaStatus = params.mediaStatus;
  if (params.search) filter.search = params.search;
  return useQuery({
    queryKey: [...keys.all, currentLanguage(), params],
    queryFn: () =>
      api<AdminVideoList>('GET', '/admin/surgery-videos', {
        query: { filter, sort: [params.oldest ? 'createdAt' : '-createdAt'], page: params.page, limit: SURGERY_VIDEO_PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
}

function useSurgeryVideoMutation(mutationFn: (id: string) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }) });
}

/** Ends whoever holds the case: back to its pool, the holder told. */
export const useReleaseClaim = () =>
  useSurgeryVideoMutation((id) => api('POST', `/admin/surgery-videos/${encodeURIComponent(id)}/release`, { body: {} }));

/** Deletes the case with its files; its author is told. */
export const useDeleteSurgeryVideo = () =>
  useSurgeryVideoMutation((id) => api('DELETE', `/admin/surgery-videos/${encodeURIComponent(id)}`));
