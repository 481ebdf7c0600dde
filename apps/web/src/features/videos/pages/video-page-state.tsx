import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { UseQueryResult } from '@tanstack/react-query';
import type { VideoDetail } from '@sutura/domain/videos';
import { ApiRequestError } from '@/lib/http';
import { VideoNotFound } from '@/features/videos/components/video-not-found';
import { RetryAlert } from '@/components/retry-alert';

/** Loading, not found (404 for anyone a case does not concern) or another error, before a video page shows. */
export function VideoPageState({ query, children }: { query: UseQueryResult<VideoDetail>; children: (video: VideoDetail) => ReactNode }) {
  const { t } = useTranslation('videos');
  // 400 only comes from an address that is no video id at all.
  if (query.error instanceof ApiRequestError && (query.error.status === 404 || query.error.status === 400)) return <VideoNotFound />;
  if (query.isError && !query.data) {
    return <RetryAlert error={query.error} retry={t('list.retry')} onRetry={() => void query.refetch()} />;
  }
  if (!query.data) {
    return (
      <Box role="status" aria-label={t('detail.loading')} sx={{ maxWidth: 1400, mx: 'auto' }}>
        <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto', maxHeight: '60vh' }} />
        <Skeleton variant="text" sx={{ fontSize: 28, mt: 2, width: '40%' }} />
        <Skeleton variant="rounded" height={200} sx={{ mt: 2 }} />
      </Box>
    );
  }
  return children(query.data);
}
