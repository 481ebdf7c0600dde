import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VideoDetail } from '@sutura/domain/videos';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { videoKeys } from '@/features/videos/api/video-keys';
import { signedUrlExpiry } from '@/components/video/signed-url';

export type { VideoDetail };

export const getVideo = (id: string) => api<VideoDetail>('GET', `/videos/${encodeURIComponent(id)}`);

/** The earliest expiry among the signed URLs of a video, in ms since the epoch. */
function earliestExpiry(video: VideoDetail): number | null {
  const urls = [
    video.videoUrl,
    video.posterUrl,
    video.storyboard?.vtt,
    ...(video.storyboard?.sheets ?? []),
    ...video.pictures.map((p) => p.url),
  ];
  const times = urls.map((u) => (u ? signedUrlExpiry(u) : null)).filter((t): t is number => t !== null);
  return times.length ? Math.min(...times) : null;
}

/**
 * Signed URLs expire (SIGNED_URL_TTL_SECONDS): the detail is fetched again before they do, so
 * pictures and storyboard sheets opened later still load. The player keeps the URL it plays.
 */
export const videoDetailOptions = (id: string, lang: string) =>
  queryOptions({
    queryKey: videoKeys.detail(id, lang),
    queryFn: () => getVideo(id),
    refetchInterval: (query) => {
      const video = query.state.data;
      const expiry = video ? earliestExpiry(video) : null;
      if (expiry === null) return false;
      const lifetime = expiry - query.state.dataUpdatedAt;
      return Math.max(5_000, lifetime * 0.8);
    },
  });

export function useVideoDetail(id: string) {
  return useQuery(videoDetailOptions(id, currentLanguage()));
}
