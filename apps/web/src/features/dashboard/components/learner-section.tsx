import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import ArrowForward from '@mui/icons-material/ArrowForward';
import InsightsOutlined from '@mui/icons-material/InsightsOutlined';
import type { LearnerDashboard } from '@sutura/domain/dashboard';
import { currentLanguage } from '@/lib/i18n';
import { formatDate } from '@/components/video/format';
import { KeyNumber, KeyNumbers } from '@/features/dashboard/components/key-number';

/** A learner's cases: how many, where they wait, the latest feedback and their mean rating. */
export function LearnerSection({ data }: { data: LearnerDashboard }) {
  const { t } = useTranslation('dashboard');
  const lang = currentLanguage();
  const latest = data.latestFeedback;
  const showRatings = data.averageGlobalRating !== undefined;
  const rating = (value: number) => t('learner.ratingValue', { value: value.toLocaleString(lang) });

  return (
    <Box component="section" aria-labelledby="dashboard-learner" data-testid="dashboard-learner" sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="h3" component="h2" id="dashboard-learner">
        {t('learner.title')}
      </Typography>
      <KeyNumbers label={t('learner.title')}>
        <KeyNumber testId="dashboard-uploaded" label={t('learner.uploaded')} value={data.uploaded} />
        <KeyNumber
          testId="dashboard-waiting"
          label={t('learner.waiting')}
          value={data.waiting.total}
          detail={t('learner.waitingSplit', { preparation: data.waiting.preparation, analysis: data.waiting.analysis })}
        />
        <KeyNumber testId="dashboard-analysed" label={t('learner.analysed')} value={data.analysed} />
        {showRatings && (
          <KeyNumber
            testId="dashboard-average"
            label={t('learner.average')}
            value={data.averageGlobalRating != null ? rating(data.averageGlobalRating) : <span aria-hidden>—</span>}
            detail={data.averageGlobalRating == null ? t('learner.noRating') : undefined}
          />
        )}
      </KeyNumbers>
      <Card variant="outlined" sx={{ borderRadius: 3 }} data-testid="dashboard-latest-feedback">
        <CardContent sx={{ display: 'grid', gap: 1 }}>
          <Typography component="h3" sx={{ fontWeight: 700 }}>
            {t('learner.latest.title')}
          </Typography>
          {latest ? (
            <>
              <Typography>{latest.surgery ?? t('learner.latest.noSurgery')}</Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('learner.latest.on', { date: formatDate(latest.submittedAt, lang) })}
              </Typography>
              {latest.awaitingSelfAssessment ? (
                <Typography variant="body2" data-testid="dashboard-latest-awaiting">
                  {t('learner.latest.awaitingSelfAssessment')}
                </Typography>
              ) : (
                showRatings &&
                latest.globalRating != null && (
                  <Typography variant="body2" data-testid="dashboard-latest-rating">
                    {t('learner.latest.rating', { value: rating(latest.globalRating) })}
                  </Typography>
                )
              )}
              <Box>
                <Button component={RouterLink} to={`/videos/${latest.videoId}`} endIcon={<ArrowForward aria-hidden />}>
                  {t('learner.latest.open')}
                </Button>
              </Box>
            </>
          ) : (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('learner.latest.none')}
            </Typography>
          )}
        </CardContent>
      </Card>
      <Box>
        <Button component={RouterLink} to="/my-stats" variant="outlined" startIcon={<InsightsOutlined aria-hidden />}>
          {t('learner.stats')}
        </Button>
      </Box>
    </Box>
  );
}
