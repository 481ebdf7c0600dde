import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { shareVideoBody, updateVideoBody, VideoDetail } from '@sutura/domain/videos';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { updateVideo } from '@/features/videos/add/api/create-video';
import { videoKeys } from '@/features/videos/api/video-keys';

export type VideoChanges = z.output<typeof updateVideoBody>;
export type ShareBody = z.output<typeof shareVideoBody>;

const path = (id: string) => `/videos/${encodeURIComponent(id)}`;

/** The answer is the video as it now stands; the lists that show it are fetched again. */
function applyDetail(queryClient: QueryClient, video: VideoDetail) {
  queryClient.setQueryData(videoKeys.detail(video.id, currentLanguage()), video);
  return queryClient.invalidateQueries({ queryKey: videoKeys.lists });
}

function useVideoMutation<V>(mutationFn: (variables: V) => Promise<VideoDetail>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (video) => applyDetail(queryClient, video) });
}

/** The same PUT as the add page's, which saves a case again after a failed picture. */
export const useUpdateVideo = () => useVideoMutation(({ id, changes }: { id: string; changes: VideoChanges }) => updateVideo(id, changes));

export const sendVideo = ({ id, priority }: { id: string; priority: boolean }) =>
  api<VideoDetail>('POST', `${path(id)}/send`, { body: { priority } });
export const useSendVideo = () => useVideoMutation(sendVideo);

export const setFavourite = ({ id, favourite }: { id: string; favourite: boolean }) =>
  api<VideoDetail>('PUT', `${path(id)}/favourite`, { body: { favourite } });
export const useSetFavourite = () => useVideoMutation(setFavourite);

export const setOperationDay = ({ id, operatedOn }: { id: string; operatedOn: string | null }) =>
  api<VideoDetail>('PUT', `${path(id)}/operation-day`, { body: { operatedOn } });
export const useSetOperationDay = () => useVideoMutation(setOperationDay);

export const shareVideo = ({ id, body }: { id: string; body: ShareBody }) => api<VideoDetail>('POST', `${path(id)}/shares`, { body });
export const useShareVideo = () => useVideoMutation(shareVideo);

export const revokeShare = ({ id, userId }: { id: string; userId: string }) =>
  api<VideoDetail>('DELETE', `${path(id)}/shares/${encodeURIComponent(userId)}`);
export const useRevokeShare = () => useVideoMutation(revokeShare);

export const retryVideo = (id: string) => api<VideoDetail>('POST', `${path(id)}/retry`, { body: {} });
export const useRetryVideo = () => useVideoMutation(retryVideo);

export const deleteVideo = (id: string) => api<Record<string, never>>('DELETE', path(id));

/** The page of a deleted video leaves at once (the caller navigates); only the lists change. */
export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteVideo, onSuccess: () => queryClient.invalidateQueries({ queryKey: videoKeys.lists }) });
}
