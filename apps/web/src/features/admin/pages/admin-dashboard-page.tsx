import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CardActionArea from '@mui/material/CardActionArea';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type SvgIcon from '@mui/material/SvgIcon';
import AssignmentIndOutlined from '@mui/icons-material/AssignmentIndOutlined';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import HourglassTopOutlined from '@mui/icons-material/HourglassTopOutlined';
import MovieEditIcon from '@mui/icons-material/MovieEdit';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import { WAITING_STATUSES, type AdminCounts } from '@sutura/domain/admin';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useAdminCounts, useAdminStreaming } from '@/features/admin/api/admin';
import { ReadOnlyNotice } from '@/features/admin/components/read-only-notice';

type CountKey = Exclude<keyof AdminCounts, 'month' | 'timeZone'>;
/** What a count takes in, said under it: the month and time zone, what waiting means. */
const HINTS: Partial<Record<CountKey, 'uploadedThisMonthHint' | 'waitingPreparationHint' | 'waitingAnalysisHint'>> = {
  uploadedThisMonth: 'uploadedThisMonthHint',
  waitingPreparation: 'waitingPreparationHint',
  waitingAnalysis: 'waitingAnalysisHint',
};

const CARDS: { key: CountKey; to: string; icon: typeof SvgIcon; colour: 'primary' | 'secondary' | 'error' }[] = [
  { key: 'users', to: '/admin/users', icon: PeopleOutlined, colour: 'primary' },
  { key: 'editors', to: '/admin/users?role=editor', icon: MovieEditIcon, colour: 'primary' },
  { key: 'experts', to: '/admin/users?role=expert', icon: RateReviewOutlined, colour: 'primary' },
  { key: 'uploadedThisMonth', to: '/admin/surgery-videos', icon: CloudUploadOutlined, colour: 'secondary' },
  {
    key: 'waitingPreparation',
    to: `/admin/surgery-videos?status=${WAITING_STATUSES.waitingPreparation}`,
    icon: HourglassTopOutlined,
    colour: 'error',
  },
  {
    key: 'waitingAnalysis',
    to: `/admin/surgery-videos?status=${WAITING_STATUSES.waitingAnalysis}`,
    icon: AssignmentIndOutlined,
    colour: 'error',
  },
];

/** `/admin`: the six numbers of SPEC §1, each a link to the list it counts. */
export function AdminDashboardPage() {
  const { t } = useTranslation(['admin', 'errors']);
  const counts = useAdminCounts();
  const streaming = useAdminStreaming();
  const number = new Intl.NumberFormat(currentLanguage());
  // The month counted is the installation's (its time zone), named in the reader's language.
  const month = counts.data
    ? new Intl.DateTimeFormat(currentLanguage(), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${counts.data.month}-01T00:00:00Z`),
      )
    : '';
  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }} data-testid="admin-page">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('admin:dashboard.intro')}
      </Typography>
      <ReadOnlyNotice />
      {counts.isError && <Alert severity="error">{errorText(counts.error)}</Alert>}
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
        }}
      >
        {CARDS.map(({ key, to, icon: Icon, colour }) => {
          const label = t(`admin:dashboard.${key}`);
          return (
            <li key={key}>
              <Paper variant="outlined" sx={{ height: '100%' }}>
                <CardActionArea
                  component={RouterLink}
                  to={to}
                  data-testid={`admin-count-${key}`}
                  sx={{ p: 2, height: '100%', display: 'flex', alignItems: 'center', gap: 2, justifyContent: 'flex-start' }}
                >
                  <Box
                    sx={{
                      width: 48,
                      height: 48,
                      borderRadius: '50%',
                      display: 'grid',
                      placeItems: 'center',
                      flexShrink: 0,
                      bgcolor: `${colour}.main`,
                      color: `${colour}.contrastText`,
                    }}
                  >
                    <Icon aria-hidden />
                  </Box>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography
                      component="p"
                      sx={{ fontSize: 32, fontWeight: 700, lineHeight: 1.2 }}
                      data-testid={`admin-count-${key}-value`}
                    >
                      {counts.data ? number.format(counts.data[key]) : <Skeleton width={60} />}
                    </Typography>
                    <Typography component="p" color="text.secondary">
                      {label}
                    </Typography>
                    {HINTS[key] && counts.data && (
                      <Typography component="p" variant="body2" color="text.secondary" data-testid={`admin-count-${key}-hint`}>
                        {t(`admin:dashboard.${HINTS[key]}`, { month, zone: counts.data.timeZone })}
                      </Typography>
                    )}
                  </Box>
                </CardActionArea>
              </Paper>
            </li>
          );
        })}
      </Box>
      {streaming.data && (
        <Typography color="text.secondary" sx={{ mt: 2 }} data-testid="admin-streaming">
          {!streaming.data.enabled
            ? t('admin:dashboard.streamingOff')
            : streaming.data.left > 0
              ? t('admin:dashboard.streamingLeft', {
                  count: streaming.data.left,
                  left: number.format(streaming.data.left),
                  ready: number.format(streaming.data.ready),
                })
              : t('admin:dashboard.streamingDone', { count: streaming.data.ready, ready: number.format(streaming.data.ready) })}
        </Typography>
      )}
    </Box>
  );
}
