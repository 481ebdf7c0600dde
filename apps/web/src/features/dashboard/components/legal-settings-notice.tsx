import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { api } from '@/lib/http';

/** Where the settings are explained, as it reads in the documentation shipped with Sutura. */
const GUIDE = 'docs/configuration.md';

/**
 * For administrators: the legal texts lack the LEGAL_* settings that name who runs and hosts this
 * installation (the server also warns at start-up). One sentence says what is missing and who
 * fixes it where; the names, which only whoever installed Sutura needs, come on demand.
 */
export function LegalSettingsNotice() {
  const { t } = useTranslation('dashboard');
  const [open, setOpen] = useState(false);
  const { data } = useQuery({
    queryKey: ['legal', 'missing'],
    queryFn: () => api<{ missing: string[] }>('GET', '/legal/missing'),
    staleTime: Infinity,
  });
  if (!data?.missing.length) return null;
  const count = data.missing.length;
  return (
    <Alert severity="warning" data-testid="legal-settings-missing" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
      <AlertTitle>{t('legalMissing.title')}</AlertTitle>
      <Typography variant="body2" data-testid="legal-settings-missing-text">
        {t('legalMissing.text', { count })}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }} data-testid="legal-settings-missing-guide">
        {t('legalMissing.guide')}{' '}
        <Box component="code" sx={{ fontSize: 13 }}>
          {GUIDE}
        </Box>
        {t('legalMissing.guideSection')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mt: 1 }}>
        <Link component={RouterLink} to="/settings/legal-notice" variant="body2">
          {t('legalMissing.seeNotice')}
        </Link>
        <Button
          size="small"
          color="inherit"
          aria-expanded={open}
          aria-controls="legal-settings-missing-names"
          onClick={() => setOpen((o) => !o)}
          data-testid="legal-settings-missing-toggle"
          sx={{ textTransform: 'none' }}
        >
          {open ? t('legalMissing.hideNames') : t('legalMissing.showNames', { count })}
        </Button>
      </Box>
      <Box
        component="code"
        id="legal-settings-missing-names"
        hidden={!open}
        sx={{ mt: 1, fontSize: 13, '&:not([hidden])': { display: 'block' } }}
        data-testid="legal-settings-missing-names"
      >
        {data.missing.join(', ')}
      </Box>
    </Alert>
  );
}
