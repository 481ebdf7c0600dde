import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { useFocusOnArrival } from '@/lib/focus';

/** `/expert/:id/complete`: the analysis is submitted and the learner told (no back button: SPEC §2). */
export function AnalysisCompletePage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('analysis');
  // The keyboard arrives on what happened, not on the page's body.
  const heading = useFocusOnArrival<HTMLHeadingElement>();
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto', width: '100%' }}>
      <Paper
        variant="outlined"
        sx={{ p: { xs: 2.5, sm: 4 }, borderRadius: 2, display: 'grid', gap: 2, justifyItems: 'center', textAlign: 'center' }}
      >
        <CheckCircleOutlined color="primary" sx={{ fontSize: 56 }} aria-hidden />
        <Typography ref={heading} tabIndex={-1} variant="h2" component="h2" data-testid="analysis-complete-title">
          {t('complete.title')}
        </Typography>
        <Typography role="status">{t('complete.text')}</Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Button variant="contained" component={RouterLink} to="/expert" data-testid="complete-to-space">
            {t('complete.toSpace')}
          </Button>
          <Button variant="outlined" component={RouterLink} to={`/expert/${encodeURIComponent(id)}`}>
            {t('complete.review')}
          </Button>
        </Box>
      </Paper>
    </Box>
  );
}
