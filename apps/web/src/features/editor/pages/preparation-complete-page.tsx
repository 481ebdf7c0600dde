import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { usePreparation } from '@/features/editor/api/preparation';
import { useEditorRealtime } from '@/features/editor/hooks/use-editor-realtime';
import { formatDuration } from '@/features/videos/format';

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

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', width: '100%' }}>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2.5, sm: 4 }, borderRadius: 2, display: 'grid', gap: 2, justifyItems: 'center', textAlign: 'center' }}
      >
        {failed ? null : done ? (
          <CheckCircleOutlined color="primary" sx={{ fontSize: 56 }} aria-hidden />
        ) : (
          <CircularProgress aria-hidden />
        )}
        <Typography variant="h2" component="h2" data-testid="complete-title" data-state={failed ? 'failed' : done ? 'done' : 'rendering'}>
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
    </Box>
  );
}
