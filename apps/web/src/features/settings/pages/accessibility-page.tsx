import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '@sutura/domain/limits';
import { SettingsPage, useAllowedFor } from '@/features/settings/components/settings-page';

const SECTIONS = ['status', 'tested', 'how', 'limits', 'technologies', 'feedback', 'remedy'] as const;

/**
 * `/settings/accessibility`: the accessibility statement, as French public-sector sites publish it
 * under the RGAA (conformance, what was tested and how, known limits, contact, remedies).
 */
export function AccessibilityPage() {
  const { t } = useTranslation(['settings', 'menu']);
  const contact = useAllowedFor('/settings/contact');
  return (
    <SettingsPage path="/settings/accessibility" maxWidth={860}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 1 }} data-testid="accessibility-statement">
        <Typography>{t('accessibility.intro')}</Typography>
        {SECTIONS.map((section) => {
          const value: unknown = t(`accessibility.${section}`, { returnObjects: true });
          return (
            <Typography key={section} component="section" aria-labelledby={`accessibility-${section}`} variant="body1">
              <Typography id={`accessibility-${section}`} variant="h3" component="h2" sx={{ mt: 2, mb: 1 }}>
                {t(`accessibility.${section}Title`)}
              </Typography>
              {Array.isArray(value) ? (
                <Typography component="ul" sx={{ m: 0, pl: 3, display: 'grid', gap: 1 }}>
                  {value.map((item) => (
                    <li key={String(item)}>{String(item)}</li>
                  ))}
                </Typography>
              ) : (
                <Typography component="span" sx={{ display: 'block' }}>
                  {String(value)}
                </Typography>
              )}
              {section === 'feedback' && (
                <Typography component="span" sx={{ display: 'block', mt: 1 }}>
                  {contact && (
                    <>
                      <Link component={RouterLink} to="/settings/contact">
                        {t('menu:contact')}
                      </Link>
                      {' · '}
                    </>
                  )}
                  <Link component={RouterLink} to="/settings/legal-notice">
                    {t('menu:legalNotice')}
                  </Link>
                </Typography>
              )}
            </Typography>
          );
        })}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('accessibility.updated', { version: APP_VERSION })}
        </Typography>
      </Paper>
    </SettingsPage>
  );
}
