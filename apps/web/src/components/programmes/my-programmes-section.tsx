import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useSession } from '@/lib/session';
import { useMyProgrammes } from '@/lib/my-programmes';
import { ProgrammeFacts } from './programme-facts';

/** Account: the programmes the person belongs to and who directs them, and those they direct. */
export function MyProgrammesSection() {
  const { t } = useTranslation('programmes');
  const { session } = useSession();
  const mine = useMyProgrammes();
  if (!mine.data || (mine.data.memberOf.length === 0 && mine.data.directed.length === 0)) return null;
  const { memberOf, directed } = mine.data;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="programmes-section-title"
      sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}
      data-testid="account-programmes"
    >
      <Typography id="programmes-section-title" variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('account.title')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
        {memberOf.map((p) => (
          <Box component="li" key={p.id} data-testid="account-programme">
            <Typography sx={{ fontWeight: 700 }}>{p.name}</Typography>
            <ProgrammeFacts programme={p} />
            <Typography variant="body2">
              {p.directors.length
                ? t('account.directedBy', { names: p.directors.map((d) => `${d.firstName} ${d.lastName}`).join(', ') })
                : t('account.noDirector')}
            </Typography>
            <Link component={RouterLink} to={`/programmes/${p.id}/learners/${session?.userId ?? ''}`} variant="body2">
              {t('account.whatDirectorsSee')}
            </Link>
          </Box>
        ))}
        {directed.map((p) => (
          <Box component="li" key={`d-${p.id}`}>
            <Typography sx={{ fontWeight: 700 }}>{p.name}</Typography>
            <Typography variant="body2">{t('account.youDirect')}</Typography>
            <Link component={RouterLink} to={`/programmes/${p.id}`} variant="body2">
              {t('account.openCohort')}
            </Link>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
