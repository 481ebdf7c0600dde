import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDay } from '@/components/video/format';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useLearnerCurves } from '@/lib/programmes';
import { LearningCurves } from '@/components/programmes/learning-curves';

/** `/programmes/:id/learners/:learnerId`: a learner's curves per procedure, their analysed cases and the experts' advice. */
export function LearnerPage() {
  const { id = '', learnerId = '' } = useParams();
  const { t } = useTranslation('programmes');
  const { session } = useSession();
  const lang = currentLanguage();
  const data = useLearnerCurves(id, learnerId);
  if (data.isPending) return <Skeleton variant="rounded" height={320} />;
  if (data.isError) return <Alert severity="error">{errorText(data.error)}</Alert>;
  const { learner, programme, cases } = data.data;
  const fmt = (v: number | null) => (v === null ? '—' : new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(v));
  return (
    <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
      <Box>
        {session?.userId !== learnerId && (
          <Link component={RouterLink} to={`/programmes/${id}`} variant="body2">
            {t('learner.back', { programme: programme?.name ?? '' })}
          </Link>
        )}
        <Typography component="h1" variant="h5" data-testid="learner-title">
          {learner.firstName} {learner.lastName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {programme?.name}
        </Typography>
      </Box>
      <Box component="section" aria-labelledby="learner-curves" sx={{ display: 'grid', gap: 1.5 }}>
        <Typography component="h2" variant="h6" id="learner-curves">
          {t('learner.curves')}
        </Typography>
        <LearningCurves data={data.data} headingLevel="h3" />
      </Box>
      <Box component="section" aria-labelledby="learner-cases" sx={{ display: 'grid', gap: 1.5 }}>
        <Typography component="h2" variant="h6" id="learner-cases">
          {t('learner.cases', { count: cases.length })}
        </Typography>
        {cases.length === 0 && <Typography color="text.secondary">{t('curves.empty')}</Typography>}
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {cases.map((c) => (
            <Paper component="li" key={c.videoId} variant="outlined" sx={{ p: 2, display: 'grid', gap: 1 }} data-testid="learner-case">
              <Typography component="h3" sx={{ fontWeight: 700 }}>
                {c.surgery?.name ?? t('learner.noSurgery')}
                {' · '}
                {c.operatedOn
                  ? t('learner.operatedOn', { day: formatDay(c.operatedOn, lang) })
                  : c.sentAt
                    ? t('learner.sentOn', { day: formatDay(c.sentAt.slice(0, 10), lang) })
                    : ''}
              </Typography>
              <Typography variant="body2">
                {t('learner.ratings', { global: fmt(c.globalRating), goals: fmt(c.goalsTotal), count: c.reviews })}
              </Typography>
              {c.advice.map((a) => (
                <Box key={a.round} component="blockquote" sx={{ m: 0, pl: 1.5, borderLeft: 3, borderColor: 'divider' }}>
                  <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {a.text}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t('learner.adviceBy', { expert: a.expert || t('learner.formerExpert') })}
                  </Typography>
                </Box>
              ))}
            </Paper>
          ))}
        </Box>
      </Box>
    </Box>
  );
}
