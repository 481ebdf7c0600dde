import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import CompareOutlined from '@mui/icons-material/CompareOutlined';
import { ApiRequestError } from '@/lib/http';
import { formatDuration } from '@/components/video/format';
import { OrganLabel } from '@/components/video/organ-label';
import { VideoPlayer } from '@/components/video/video-player';
import { TeachingDrawingList } from '@/components/drawing/teaching-drawing-list';
import { useBestCase } from '@/features/best-cases/api/best-cases';
import { useBestCaseDrawingPlayback } from '@/features/best-cases/components/best-case-drawings';
import { RetryAlert } from '@/components/retry-alert';

/** `/best-cases/:id`: the video with its steps (the chips seek), the surgery, organ and the administrator's texts. */
export function BestCasePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation(['best-cases', 'videos']);
  const query = useBestCase(id);
  const drawings = useBestCaseDrawingPlayback(id);
  const [seekRequest, setSeekRequest] = useState<{ time: number } | null>(null);

  if (query.error instanceof ApiRequestError && (query.error.status === 404 || query.error.status === 400)) {
    return (
      <Paper
        variant="outlined"
        data-testid="best-case-not-found"
        sx={{ p: 4, textAlign: 'center', maxWidth: 640, mx: 'auto', borderRadius: 3 }}
      >
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          {t('detail.notFoundTitle')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('detail.notFound')}</Typography>
        <Button component={RouterLink} to="/best-cases" variant="contained">
          {t('detail.backToList')}
        </Button>
      </Paper>
    );
  }
  if (query.isError && !query.data) {
    return <RetryAlert error={query.error} retry={t('list.retry')} onRetry={() => void query.refetch()} />;
  }
  const bestCase = query.data;
  if (!bestCase) {
    return (
      <Box role="status" aria-label={t('list.loading')} sx={{ maxWidth: 1200, mx: 'auto' }}>
        <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto', maxHeight: '60vh' }} />
        <Skeleton variant="text" sx={{ fontSize: 28, mt: 2, width: '40%' }} />
      </Box>
    );
  }
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', width: '100%', display: 'grid', gap: 3 }}>
      {bestCase.videoUrl && (
        <VideoPlayer
          videoUrl={bestCase.videoUrl}
          posterUrl={bestCase.posterUrl}
          storyboard={bestCase.storyboard}
          title={bestCase.title}
          onUrlsExpired={() => void query.refetch()}
          steps={bestCase.steps}
          seekRequest={seekRequest}
          {...drawings.player}
        />
      )}
      <TeachingDrawingList drawings={drawings.drawings} onSeek={(time) => setSeekRequest({ time })} />
      <Box component="header" sx={{ display: 'grid', gap: 0.5 }}>
        <Typography variant="h2" component="h2" data-testid="best-case-heading" sx={{ overflowWrap: 'anywhere' }}>
          {bestCase.title}
        </Typography>
        <Typography sx={{ fontWeight: 700 }}>{bestCase.surgery?.name ?? t('videos:card.noSurgery')}</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, color: 'text.secondary' }}>
          {bestCase.organ && (
            <Typography component="span">
              <OrganLabel organ={bestCase.organ} />
            </Typography>
          )}
          {bestCase.duration !== null && (
            <Typography component="span">{t('detail.duration', { duration: formatDuration(bestCase.duration) })}</Typography>
          )}
          {bestCase.steps.length > 0 && <Typography component="span">{t('detail.stepCount', { count: bestCase.steps.length })}</Typography>}
        </Box>
        <Box>
          <Button
            component={RouterLink}
            to={`/best-cases/${encodeURIComponent(bestCase.id)}/compare`}
            variant="outlined"
            startIcon={<CompareOutlined aria-hidden />}
            data-testid="compare-with-best-case"
          >
            {t('menu:compare')}
          </Button>
        </Box>
      </Box>
      <Paper variant="outlined" component="section" aria-labelledby="best-case-about" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}>
        <Typography id="best-case-about" variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('detail.about')}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="best-case-description">
          {bestCase.description}
        </Typography>
      </Paper>
    </Box>
  );
}
