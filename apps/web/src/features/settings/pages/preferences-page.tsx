import { useTranslation } from 'react-i18next';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { SettingsPage } from '@/features/settings/components/settings-page';

/** `/settings/preferences` (learner only): whether ratings are displayed. */
export function PreferencesPage() {
  const { t } = useTranslation('settings');
  const { session, updatePreferences } = useSession();
  const toast = useToast();
  const showRatings = session?.preferences.showRatings ?? DEFAULT_PREFERENCES.showRatings;

  const change = async (next: boolean) => {
    try {
      await updatePreferences({ showRatings: next });
    } catch (error) {
      toast('error', errorText(error));
    }
  };

  return (
    <SettingsPage path="/settings/preferences" intro={t('preferences.intro')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <FormControlLabel
          control={
            <Switch
              checked={showRatings}
              onChange={(_, checked) => void change(checked)}
              slotProps={{ input: { 'aria-describedby': 'show-ratings-help', 'data-testid': 'show-ratings' } as object }}
            />
          }
          label={<Typography sx={{ fontWeight: 700 }}>{t('preferences.showRatings.label')}</Typography>}
        />
        <Typography id="show-ratings-help" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('preferences.showRatings.description')}
        </Typography>
      </Paper>
    </SettingsPage>
  );
}
