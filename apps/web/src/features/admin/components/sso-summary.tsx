import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { identityLabel, useSsoAdmin, useSsoOptions, useUserIdentities } from '@/lib/sso';

import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

/** The sign-in services of the installation: each provider, the roles its groups give, SSO-only or not. */
export function SsoSummary() {
  const options = useSsoOptions();
  const hasProviders = (options.data?.providers.length ?? 0) > 0;
  if (!hasProviders) return null;
  return <SsoDetails />;
}

function SsoDetails() {
  const { t } = useTranslation('admin');
  const view = useSsoAdmin();
  const lang = currentLanguage();
  if (view.isError) return <Alert severity="error">{errorText(view.error)}</Alert>;
  if (!view.data) return null;
  const { providers, ssoOnly, breakGlassEmail } = view.data;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="sso-summary-title" sx={{ p: 2, mb: 2 }} data-testid="sso-summary">
      <Typography id="sso-summary-title" variant="h3" component="h2" sx={{ mb: 1 }}>
        {t('sso.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {ssoOnly ? t('sso.ssoOnly', { email: breakGlassEmail ?? '—' }) : t('sso.passwordToo')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
        {providers.map((provider) => (
          <Box component="li" key={provider.id} data-testid={`sso-provider-${provider.id}`}>
            <Typography sx={{ fontWeight: 600 }}>
              {provider.name[lang]}{' '}
              <Typography component="span" variant="body2" color="text.secondary">
                ({provider.kind === 'psc' ? t('sso.kinds.psc') : t('sso.kinds.hospital')})
              </Typography>
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {provider.issuer}
            </Typography>
            {provider.roles ? (
              <Box
                component="ul"
                aria-label={t('sso.rolesFrom', { claim: provider.roles.claim })}
                sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5 }}
              >
                {Object.entries(provider.roles.map).map(([group, roles]) => (
                  <Box component="li" key={group} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5 }}>
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {t('sso.group', { claim: provider.roles!.claim, group })}
                    </Typography>
                    {roles.map((role) => (
                      <Chip key={role} size="small" variant="outlined" color="secondary" label={t(`roles.${role}`)} />
                    ))}
                  </Box>
                ))}
              </Box>
            ) : (
              <Typography variant="body2">{t('sso.noRoles')}</Typography>
            )}
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

/** A person's linked identities, asked when an administrator opens them. */
export function UserIdentities({ userId }: { userId: string }) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const identities = useUserIdentities(userId, open);
  const lang = currentLanguage();
  if (!open) {
    return (
      <Box>
        <Button size="small" variant="text" onClick={() => setOpen(true)} data-testid="admin-user-identities">
          {t('sso.showIdentities')}
        </Button>
      </Box>
    );
  }
  if (identities.isError) return <Alert severity="error">{errorText(identities.error)}</Alert>;
  if (!identities.data) return <Typography variant="body2">{t('sso.loading')}</Typography>;
  const list = identities.data.identities;
  return (
    <Box data-testid="admin-user-identity-list">
      {list.length === 0 ? (
        <Typography variant="body2">{t('sso.noIdentity')}</Typography>
      ) : (
        <Box component="ul" aria-label={t('sso.identities')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {list.map((identity) => (
            <Typography component="li" variant="body2" key={identity.id} sx={{ overflowWrap: 'anywhere' }}>
              {identity.provider.name[lang]} · {identityLabel(identity)}
              {identity.rolesFromProvider ? ` · ${t('sso.rolesFollow')}` : ''}
            </Typography>
          ))}
        </Box>
      )}
      {!identities.data.hasPassword && (
        <Typography variant="body2" color="text.secondary">
          {t('sso.noPassword')}
        </Typography>
      )}
    </Box>
  );
}
