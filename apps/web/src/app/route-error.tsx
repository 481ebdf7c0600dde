import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Logo } from '@/components/logo';

function ErrorScreen({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation('common');
  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default', color: 'text.primary' }}
    >
      <Box sx={{ maxWidth: 480, textAlign: 'center', display: 'grid', gap: 2, justifyItems: 'center' }}>
        <Logo size={56} compact />
        <Typography variant="h1">{title}</Typography>
        <Typography>{text}</Typography>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          {t('backToHome')}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * Inside the shell: a page the person's role may not open (SPEC §6), said plainly instead of a
 * page that fails on the server's refusal.
 */
export function NotAllowedPage() {
  const { t } = useTranslation('common');
  return (
    <Box
      data-testid="not-allowed"
      sx={{ maxWidth: 520, mx: 'auto', textAlign: 'center', display: 'grid', gap: 2, justifyItems: 'center', py: 4 }}
    >
      <Typography variant="h2" component="h1">
        {t('notAllowedTitle')}
      </Typography>
      <Typography>{t('notAllowedText')}</Typography>
      <Button component={RouterLink} to="/dashboard" variant="contained">
        {t('backToHome')}
      </Button>
    </Box>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return <ErrorScreen title={t('notFoundTitle')} text={t('errors:NOT_FOUND')} />;
}

/** Shown when a page throws while rendering, instead of a blank screen. */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  console.error(error);
  return <ErrorScreen title={t('errorTitle')} text={t('errors:GENERIC')} />;
}
