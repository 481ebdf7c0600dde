import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { LiveAnnouncement, progressMilestone } from '@/components/live-announcement';
import Typography from '@mui/material/Typography';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import type { VideoSummary } from '@sutura/domain/videos';
import { useUploadProgress } from '@/lib/use-upload-progress';

/**
 * Where the media of a case stands while it is not ready: the upload running in this tab, the
 * server's processing (live from VIDEO_PROGRESS), or why it failed. Nothing once ready.
 */
export function MediaState({ video }: { video: Pick<VideoSummary, 'id' | 'mediaStatus' | 'processingProgress' | 'failureMessage'> }) {
  const { t } = useTranslation('videos');
  const uploadPercent = useUploadProgress(video.id);

  switch (video.mediaStatus) {
    case 'ready':
      return null;
    case 'failed':
      return (
        <Box data-testid="media-state" data-media-status="failed" sx={{ display: 'flex', gap: 0.75, alignItems: 'flex-start' }}>
          <ErrorOutlined fontSize="small" sx={{ color: 'error.main', mt: '3px' }} aria-hidden />
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {t('media.failed')}
            {video.failureMessage ? ` ${video.failureMessage}` : ''}
          </Typography>
        </Box>
      );
    case 'uploading':
      if (uploadPercent === null) {
        return (
          <Typography data-testid="media-state" data-media-status="uploading" variant="body2" sx={{ fontWeight: 700 }}>
            {t('media.uploadUnfinished')}
          </Typography>
        );
      }
      return (
        <Progress
          label={t('media.uploading', { percent: t('common:percent', { value: uploadPercent }) })}
          announcement={t('media.uploading', { percent: t('common:percent', { value: progressMilestone(uploadPercent) }) })}
          value={uploadPercent}
          status="uploading"
        />
      );
    case 'processing': {
      const value = Math.round(video.processingProgress);
      return (
        <Progress
          label={t('media.processing', { percent: t('common:percent', { value }) })}
          announcement={t('media.processing', { percent: t('common:percent', { value: progressMilestone(value) }) })}
          value={value}
          status="processing"
        />
      );
    }
  }
}

/** A progress bar with its text; screen readers hear `announcement`, which changes at milestones only. */
function Progress({ label, announcement, value, status }: { label: string; announcement: string; value: number; status: string }) {
  return (
    <Box data-testid="media-state" data-media-status={status}>
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 0.5 }}>
        {label}
      </Typography>
      <LinearProgress variant="determinate" value={value} aria-label={label} sx={{ height: 6, borderRadius: 3 }} />
      <LiveAnnouncement text={announcement} />
    </Box>
  );
}
