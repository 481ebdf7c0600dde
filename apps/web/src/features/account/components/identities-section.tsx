import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import LinkOffOutlined from '@mui/icons-material/LinkOffOutlined';
import { identityLabel, useMyIdentities, useRemoveIdentity, useSsoOptions } from '@/lib/sso';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';

/** What identifies the person at the provider: their RPPS, else their email, else the provider's subject. */

/** The identities of the provider (Pro Santé Connect, the hospital's) linked to the account, each removable. */
export function IdentitiesSection() {
  const { t } = useTranslation('account');
  const toast = useToast();
  const queryClient = useQueryClient();
  const options = useSsoOptions();
  const identities = useMyIdentities();
  const remove = useRemoveIdentity();
  const lang = currentLanguage();
  const providers = options.data?.providers ?? [];
  const linked = identities.data?.identities ?? [];
  if (providers.length === 0 && linked.length === 0) return null;
  const date = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(iso));

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="identities-title"
      sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}
      data-testid="identities"
    >
      <Typography id="identities-title" variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('identities.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('identities.summary')}
      </Typography>
      {identities.isError && <Alert severity="error">{errorText(identities.error)}</Alert>}
      {identities.data && linked.length === 0 && <Typography sx={{ mb: 2 }}>{t('identities.none')}</Typography>}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {linked.map((identity) => (
          <Box
            component="li"
            key={identity.id}
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, justifyContent: 'space-between' }}
            data-testid="identity"
          >
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }}>{identity.provider.name[lang]}</Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {identityLabel(identity)} · {t('identities.linkedAt', { date: date(identity.linkedAt) })}
              </Typography>
            </Box>
            <PendingButton
              size="small"
              variant="outlined"
              color="error"
              icon={<LinkOffOutlined aria-hidden />}
              pending={remove.isPending && remove.variables === identity.id}
              disabled={remove.isPending}
              aria-label={t('identities.removeNamed', { provider: identity.provider.name[lang] })}
              onClick={() =>
                remove.mutate(identity.id, {
                  onSuccess: (next) => {
                    queryClient.setQueryData(['sso', 'identities', 'me'], next);
                    toast('success', t('identities.removed'));
                  },
                  onError: (error) => toast('error', errorText(error)),
                })
              }
            >
              {t('identities.remove')}
            </PendingButton>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}
