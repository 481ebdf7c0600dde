import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { errorText } from '@/lib/http';
import { useMyProgrammes } from '@/lib/my-programmes';
import { ProgrammeFacts } from '@/components/programmes/programme-facts';

/** `/programmes`: the programmes the person directs (straight to the cohort when there is one). */
export function ProgrammesPage() {
  const { t } = useTranslation('programmes');
  const mine = useMyProgrammes();
  if (mine.isPending) return <Skeleton variant="rounded" height={160} />;
  if (mine.isError) return <Alert severity="error">{errorText(mine.error)}</Alert>;
  const directed = mine.data.directed;
  if (directed.length === 1) return <Navigate to={`/programmes/${directed[0]!.id}`} replace />;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography component="h1" variant="h5">
        {t('list.title')}
      </Typography>
      {directed.length === 0 ? (
        <Typography color="text.secondary">{t('list.none')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {directed.map((p) => (
            <Paper component="li" key={p.id} variant="outlined" sx={{ p: 2 }}>
              <Link component={RouterLink} to={`/programmes/${p.id}`} variant="h6" data-testid="programme-link">
                {p.name}
              </Link>
              <ProgrammeFacts programme={p} />
            </Paper>
          ))}
        </Box>
      )}
    </Box>
  );
}
