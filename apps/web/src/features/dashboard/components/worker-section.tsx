import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { WorkerDashboard } from '@sutura/domain/dashboard';
import { KeyNumber, KeyNumbers } from '@/features/dashboard/components/key-number';

/** An editor's or an expert's work: the pool they can claim from, what they hold, the month's work. */
export function WorkerSection({ role, data }: { role: 'editor' | 'expert'; data: WorkerDashboard }) {
  const { t } = useTranslation('dashboard');
  const space = role === 'editor' ? '/editor' : '/expert';
  const headingId = `dashboard-${role}`;

  return (
    <Box component="section" aria-labelledby={headingId} data-testid={headingId} sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="h3" component="h2" id={headingId}>
        {t(`${role}.title`)}
      </Typography>
      <KeyNumbers label={t(`${role}.title`)}>
        <KeyNumber testId={`dashboard-${role}-pool`} label={t(`${role}.pool`)} value={data.pool} />
        <KeyNumber testId={`dashboard-${role}-held`} label={t('worker.held')} value={data.held.length} />
        <KeyNumber testId={`dashboard-${role}-done`} label={t(`${role}.done`)} value={data.doneThisMonth} />
      </KeyNumbers>
      {data.held.length > 0 && (
        <Card variant="outlined" sx={{ borderRadius: 3 }}>
          <CardContent sx={{ display: 'grid', gap: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 700 }}>
              {t('worker.heldTitle')}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
              {data.held.map((item) => (
                <Box
                  component="li"
                  key={item.videoId}
                  data-testid={`dashboard-${role}-held-item`}
                  sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography sx={{ overflowWrap: 'anywhere' }}>{item.surgery ?? t('learner.latest.noSurgery')}</Typography>
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('worker.hoursLeft', { count: item.hoursLeft })}
                    </Typography>
                  </Box>
                  <Button component={RouterLink} to={`${space}/${item.videoId}`} variant="contained" size="small">
                    {t('worker.continue')}
                  </Button>
                </Box>
              ))}
            </Box>
          </CardContent>
        </Card>
      )}
    </Box>
  );
}
