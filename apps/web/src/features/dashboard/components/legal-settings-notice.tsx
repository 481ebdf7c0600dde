import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { api } from '@/lib/http';

/**
 * For administrators: the LEGAL_* settings this installation lacks, which the server also warns
 * about at start-up. Readers of the legal texts see "not provided" where they are missing.
 */
export function LegalSettingsNotice() {
  const { t } = useTranslation('dashboard');
  const { data } = useQuery({
    queryKey: ['legal', 'missing'],
    queryFn: () => api<{ missing: string[] }>('GET', '/legal/missing'),
    staleTime: Infinity,
  });
  if (!data?.missing.length) return null;
  return (
    <Alert severity="warning" data-testid="legal-settings-missing" sx={{ mb: 3, overflowWrap: 'anywhere' }}>
      <AlertTitle>{t('legalMissing.title')}</AlertTitle>
      {t('legalMissing.text', { count: data.missing.length })}
      <Box component="code" sx={{ display: 'block', mt: 1, fontSize: 13 }}>
        {data.missing.join(', ')}
      </Box>
    </Alert>
  );
}
