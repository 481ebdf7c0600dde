import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { sourceToResult } from '@sutura/domain/preparation';
import type { VideoStep } from '@sutura/domain/videos';
import { VideoPlayer } from '@/components/video/video-player';
import { usePreparation, type PreparationDetail } from '@/features/preparation/api/preparation';
import { useEditorRealtime } from '@/features/preparation/hooks/use-editor-realtime';
import { formatDuration } from '@/components/video/format';
import { useFocusOnArrival } from '@/lib/focus';

/** The draft's steps (source time) placed on the rendered video, as the learner and the expert will see them. */
function renderedSteps(detail: PreparationDetail): VideoStep[] {
  return detail.steps.map((step, index) => ({
    id: String(index),
    position: index,
    surgeryStepId: step.surgeryStepId,
    name: step.name,
    start: sourceToResult(step.start, detail.trims) ?? 0,
    end: sourceToResult(step.end, detail.trims) ?? 0,
  }));
}

/**
 * `/editor/:id/complete`: the preparation is submitted. The render's progress follows live (the
 * status event invalidates the query); a failed render sends the editor back to their work.
 */
export function PreparationCompletePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('editor');
  const query = usePreparation(id);
  useEditorRealtime();
  const detail = query.data;
  const failed = detail?.renderStatus === 'failed';
  const done = detail?.renderStatus === 'done' || (detail && detail.status !== 'in_preparation' && detail.status !== 'processing');
  const kept = detail ? detail.trims.reduce((total, r) => total + r.end - r.start, 0) : 0;
  // The keyboard arrives on what happened, not on the page's body.
  const heading = useFocusOnArrival<HTMLHeadingElement>();

  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', width: '100%', display: 'grid', gap: 3 }}>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2.5, sm: 4 }, borderRadius: 2, display: 'grid', gap: 2, justifyItems: 'center', textAlign: 'center' }}
      >
        {failed ? null : done ? (
          <CheckCircleOutlined color="primary" sx={{ fontSize: 56 }} aria-hidden />
        ) : (
          <CircularProgress aria-hidden />
        )}
        <Typography
          ref={heading}
          tabIndex={-1}
          variant="h2"
          component="h2"
          data-testid="complete-title"
          data-state={failed ? 'failed' : done ? 'done' : 'rendering'}
        >
          {t(failed ? 'complete.failedTitle' : done ? 'complete.doneTitle' : 'complete.renderingTitle')}
        </Typography>
        {detail && (
          <Typography sx={{ color: 'text.secondary' }}>
            {t('complete.summary', {
              surgery: detail.surgery?.name ?? t('pool.noSurgery'),
              steps: detail.steps.length,
              length: formatDuration(kept),
            })}
          </Typography>
        )}
        <Typography role="status">{t(failed ? 'complete.failedText' : done ? 'complete.doneText' : 'complete.renderingText')}</Typography>
        {query.isError && !detail && <Alert severity="error">{t('notFound')}</Alert>}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
          {failed && (
            <Button variant="contained" component={RouterLink} to={`/editor/${encodeURIComponent(id)}`} data-testid="complete-retry">
              {t('complete.backToWork')}
            </Button>
          )}
          <Button variant={failed ? 'outlined' : 'contained'} component={RouterLink} to="/editor" data-testid="complete-to-space">
            {t('complete.toSpace')}
          </Button>
        </Box>
      </Paper>
      {detail?.renderedUrl && (
        <Box component="section" aria-label={t('complete.rendered')} sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="h3" component="h3">
            {t('complete.rendered')}
          </Typography>
          <VideoPlayer
            videoUrl={detail.renderedUrl}
            posterUrl={detail.posterUrl}
            storyboard={detail.storyboard}
            title={detail.surgery?.name ?? t('pool.noSurgery')}
            onUrlsExpired={() => void query.refetch()}
            steps={renderedSteps(detail)}
          />
        </Box>
      )}
    </Box>
  );
}
