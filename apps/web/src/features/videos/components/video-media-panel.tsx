import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import HourglassTopOutlined from '@mui/icons-material/HourglassTopOutlined';
import type { VideoDetail } from '@sutura/domain/videos';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { CaseFileButton } from '@/features/videos/add/case-file-button';
import { useRetryVideo } from '@/features/videos/api/video-actions';
import { VideoPlayer, type VideoPlayerProps } from '@/components/video/video-player';
import { useUploadProgress } from '@/lib/use-upload-progress';

function StatePanel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      data-testid="media-panel"
      sx={{
        p: { xs: 2.5, sm: 4 },
        borderRadius: 2,
        minHeight: { sm: 240 },
        display: 'grid',
        gap: 1.5,
        alignContent: 'center',
        justifyItems: 'center',
        textAlign: 'center',
      }}
    >
      <Box sx={{ color: 'text.secondary', display: 'flex' }} aria-hidden>
        {icon}
      </Box>
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The top of a video case's page: the player once the media is ready; before, where the upload or
 * the processing stands (live), or why it failed with what the author can do about it.
 */
export function VideoMediaPanel({
  video,
  canAct,
  onUrlsExpired,
  player,
}: {
  video: VideoDetail;
  canAct: boolean;
  onUrlsExpired(): void;
  /** The analysis result's comment marks, the moment asked for by a link or a click on a comment. */
  player?: Pick<VideoPlayerProps, 'markers' | 'seekRequest' | 'startAt' | 'overlay' | 'caption' | 'onMediaElement'>;
}) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const retry = useRetryVideo();
  const uploadPercent = useUploadProgress(video.id);
  const title = video.surgery?.name ?? t('card.noSurgery');

  switch (video.mediaStatus) {
    case 'ready':
      return video.videoUrl ? (
        <VideoPlayer
          videoUrl={video.videoUrl}
          posterUrl={video.posterUrl}
          storyboard={video.storyboard}
          title={title}
          onUrlsExpired={onUrlsExpired}
          steps={video.steps}
          {...player}
        />
      ) : null;
    case 'uploading':
      return (
        <StatePanel
          icon={<CloudUploadOutlined sx={{ fontSize: 48 }} />}
          title={t(uploadPercent === null ? 'upload.unfinishedTitle' : 'upload.runningTitle')}
        >
          {uploadPercent === null ? (
            <>
              <Typography sx={{ maxWidth: 520 }}>{t(canAct ? 'upload.unfinishedAuthor' : 'upload.unfinished')}</Typography>
              {canAct && <CaseFileButton video={video} mode="resume" />}
            </>
          ) : (
            <Box sx={{ width: '100%', maxWidth: 420 }}>
              <Typography sx={{ fontWeight: 700, mb: 1 }}>
                {t('media.uploading', { percent: t('common:percent', { value: uploadPercent }) })}
              </Typography>
              <LinearProgress
                variant="determinate"
                value={uploadPercent}
                aria-label={t('upload.progressLabel')}
                sx={{ height: 8, borderRadius: 4 }}
              />
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
                {t('upload.runningHint')}
              </Typography>
            </Box>
          )}
        </StatePanel>
      );
    case 'processing': {
      const value = Math.round(video.processingProgress);
      return (
        <StatePanel icon={<HourglassTopOutlined sx={{ fontSize: 48 }} />} title={t('processing.title')}>
          <Box sx={{ width: '100%', maxWidth: 420 }}>
            <Typography sx={{ fontWeight: 700, mb: 1 }} data-testid="processing-progress">
              {t('media.processing', { percent: t('common:percent', { value }) })}
            </Typography>
            <LinearProgress
              variant="determinate"
              value={value}
              aria-label={t('processing.progressLabel')}
              sx={{ height: 8, borderRadius: 4 }}
            />
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
              {t('processing.hint')}
            </Typography>
          </Box>
        </StatePanel>
      );
    }
    case 'failed': {
      // A file the pipeline refused has no source left: only a processing crash can be retried.
      const retriable = canAct && video.failureReason === 'MEDIA_PROCESSING_FAILED';
      return (
        <Alert
          severity="error"
          data-testid="media-panel"
          action={
            retriable && (
              <Button
                color="inherit"
                onClick={() => retry.mutate(video.id, { onError: (error) => toast('error', errorText(error)) })}
                disabled={retry.isPending}
                startIcon={retry.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
                data-testid="retry-video"
              >
                {t('failed.retry')}
              </Button>
            )
          }
        >
          <AlertTitle>{t('failed.title')}</AlertTitle>
          {video.failureMessage ?? t('failed.unknown')}
          {canAct && video.kind === 'video' && (
            <Box sx={{ mt: 1.5 }}>
              <CaseFileButton video={video} mode="replace" />
            </Box>
          )}
        </Alert>
      );
    }
  }
}
