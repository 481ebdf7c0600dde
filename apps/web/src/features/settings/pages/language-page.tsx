import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { isLanguage, LANGUAGES, type Language } from '@sutura/domain/i18n';
import { LANGUAGE_RELOAD_DELAY_MS } from '@sutura/domain/limits';
import { api } from '@/lib/http';
import { currentLanguage, setLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { SettingsPage } from '@/features/settings/components/settings-page';

/** Each language is named in itself, so a person who cannot read the current one finds theirs. */
const NATIVE_NAMES: Record<Language, string> = { fr: 'Français', en: 'English' };

/**
 * `/settings/lang` (SPEC §5): a signed-in person's choice goes to their preferences on the
 * server and to this device; when saving fails the selection is cleared and nothing else happens.
 */
export function LanguagePage() {
  const { t } = useTranslation('settings');
  const { session, updatePreferences } = useSession();
  const [cleared, setCleared] = useState(false);
  const [saving, setSaving] = useState(false);

  const preferred = session?.preferences.langCode;
  const selected: Language | '' = cleared ? '' : isLanguage(preferred) ? preferred : currentLanguage();
  const followsDevice = !cleared && preferred === 'auto';

  const choose = async (value: string) => {
    if (!isLanguage(value)) return;
    setCleared(false);
    setSaving(true);
    try {
      if (session) {
        await updatePreferences({ langCode: value });
        await setLanguage(value);
      } else {
        await api('PUT', '/users/language', { body: { langCode: value } });
        await setLanguage(value);
        window.setTimeout(() => window.location.reload(), LANGUAGE_RELOAD_DELAY_MS);
      }
    } catch (error) {
      console.error(error);
      setCleared(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsPage path="/settings/lang" intro={t('language.intro')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <FormControl fullWidth disabled={saving}>
          <FormLabel id="language-label" sx={{ mb: 1, fontWeight: 700 }}>
            {t('language.label')}
          </FormLabel>
          <RadioGroup aria-labelledby="language-label" name="language" value={selected} onChange={(_, value) => void choose(value)}>
            {LANGUAGES.map((code) => (
              <FormControlLabel
                key={code}
                value={code}
                lang={code}
                control={<Radio slotProps={{ input: { 'data-testid': `lang-option-${code}` } as object }} />}
                label={NATIVE_NAMES[code]}
                sx={{ py: 0.5 }}
              />
            ))}
          </RadioGroup>
        </FormControl>
        {followsDevice && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('language.followsDevice')}
          </Typography>
        )}
      </Paper>
    </SettingsPage>
  );
}
