import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoreReviewResponse } from '@sutura/domain/review';
import { api } from '@/lib/http';
import { videoKeys } from '@/features/videos/api/video-keys';

/**
 * An administrator sends an analysed case for another, independent review; the case (its status,
 * its result) is read afresh, now waiting for another expert.
 */
export function useRequestReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoId: string) => api<MoreReviewResponse>('POST', `/admin/videos/${encodeURIComponent(videoId)}/reviews`, { body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: videoKeys.all }),
  });
}
