import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VideoDetail } from '@sutura/domain/videos';
import { api } from '@/lib/http';
import { currentLanguage, i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query';
import { analysisResultOptions, prefetchEarlyResult } from '@/features/videos/api/analysis-result';
import { bestCaseRequestOptions } from '@/features/videos/api/best-case-request';
import { selfAssessmentOptions } from '@/features/videos/api/self-assessment';
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
    queryFn: async () => {
      const video = await getVideo(id);
      prefetchCaseParts(video, lang);
      return video;
    },
    // Asked before the page mounts (prefetchCasePage); realtime events and mutations refresh it.
    staleTime: 30_000,
    refetchInterval: (query) => {
      const video = query.state.data;
      const expiry = video ? earliestExpiry(video) : null;
      if (expiry === null) return false;
      const lifetime = expiry - query.state.dataUpdatedAt;
      return Math.max(5_000, lifetime * 0.8);
    },
  });

/**
 * The parts of a case page that depend on the case, asked the moment the case arrives rather
 * than once the page has drawn with it: the author's self-assessment, the expert's result (when
 * not brought already with the case, prefetchCasePage) for an analysed case of one's own (or an
 * administrator's), and the author's best-case request.
 */
function prefetchCaseParts(video: VideoDetail, lang: string): void {
  const own = video.access === 'author' || video.access === 'admin';
  if (own && video.status === 'analysed') {
    // The author's result waits for the self-assessment: served, it would lock an open invitation.
    if (video.access === 'author')
      void queryClient.fetchQuery(selfAssessmentOptions(video.id, lang, video.status)).then(
        (self) => (self.invite ? undefined : queryClient.prefetchQuery(analysisResultOptions(video.id, lang))),
        () => undefined,
      );
    else void queryClient.prefetchQuery(analysisResultOptions(video.id, lang));
    if (video.access === 'author') void queryClient.prefetchQuery(bestCaseRequestOptions(video.id));
  }
}

/**
 * A case page's data and texts, asked together as soon as its address is known (the first URL
 * with the app's code, or a navigation): the case and its result (with its expert's profile) side
 * by side, while the session and the page's code load, rather than one after another. Resolves
 * once they are there: the first screen then draws the case with them, not a skeleton first.
 */
export function prefetchCasePage(id: string): Promise<unknown> {
  const lang = currentLanguage();
  return Promise.all([
    // Every namespace the page draws with (the case's data and NASA-TLX use the upload form's
    // words, the result its drawings'): one the first draw found missing would hold it, then draw it again.
    i18n.loadNamespaces(['videos', 'analysis', 'best-cases', 'case-file', 'upload', 'drawing']),
    queryClient.prefetchQuery(videoDetailOptions(id, lang)),
    prefetchEarlyResult(id, lang),
  ]);
}

export function useVideoDetail(id: string) {
  return useQuery(videoDetailOptions(id, currentLanguage()));
}
