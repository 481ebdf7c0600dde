import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import DeleteSweepOutlined from '@mui/icons-material/DeleteSweepOutlined';
import { STORAGE_KEYS } from '@sutura/domain/limits';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { RetentionSummary } from '@/components/retention-summary';
import { useRetentionSummary } from '@/features/settings/api/retention-summary';
import { CookiePolicyText, GeneralConditionsText, LegalNoticeText, PrivacyPolicyText } from '@/components/legal/legal-texts';

const textFrame = { p: { xs: 2, sm: 3 } } as const;

export function GeneralConditionsPage() {
  return (
    <SettingsPage path="/settings/condition" maxWidth={860}>
      <Paper variant="outlined" sx={textFrame}>
        <GeneralConditionsText />
      </Paper>
    </SettingsPage>
  );
}

export function PrivacyPolicyPage() {
  const { t } = useTranslation('retention');
  const summary = useRetentionSummary();
  return (
    <SettingsPage path="/settings/privacy" maxWidth={860}>
      <Paper variant="outlined" component="section" aria-labelledby="privacy-retention-title" sx={{ ...textFrame, mb: 2 }}>
        <Typography id="privacy-retention-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
          {t('privacy.title')}
        </Typography>
        {summary.data ? (
          <RetentionSummary rules={summary.data} testId="privacy-retention" />
        ) : summary.isError ? (
          <Typography color="error">{t('privacy.unavailable')}</Typography>
        ) : (
          <Skeleton variant="rectangular" height={96} />
        )}
      </Paper>
      <Paper variant="outlined" sx={textFrame}>
        <PrivacyPolicyText />
      </Paper>
    </SettingsPage>
  );
}

export function LegalNoticePage() {
  return (
    <SettingsPage path="/settings/legal-notice" maxWidth={860}>
      <Paper variant="outlined" sx={textFrame}>
        <LegalNoticeText />
      </Paper>
    </SettingsPage>
  );
}

/** Removes the display preferences kept on this device (not the session), then reloads. */
export function clearStoredPreferences(): void {
  for (const key of [STORAGE_KEYS.theme, STORAGE_KEYS.language, STORAGE_KEYS.colorMode]) {
    try {
      localStorage.removeItem(key);
    } catch (error) {
      console.error(error);
    }
  }
  document.cookie = `${STORAGE_KEYS.colorMode}=; Max-Age=0; path=/; SameSite=Lax`;
  window.location.reload();
}

export function CookiesPage() {
  const { t } = useTranslation('settings');
  return (
    <SettingsPage path="/settings/manage-cookies" maxWidth={860}>
      <Paper variant="outlined" sx={textFrame}>
        <CookiePolicyText />
      </Paper>
      <Paper variant="outlined" sx={{ ...textFrame, mt: 2 }} component="section" aria-labelledby="clear-preferences-title">
        <Typography id="clear-preferences-title" variant="h3" component="h3" sx={{ mb: 1 }}>
          {t('cookies.clearTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('cookies.clearDescription')}
        </Typography>
        <Button
          variant="outlined"
          startIcon={<DeleteSweepOutlined aria-hidden />}
          onClick={clearStoredPreferences}
          data-testid="clear-stored-preferences"
        >
          {t('cookies.clear')}
        </Button>
      </Paper>
    </SettingsPage>
  );
}
