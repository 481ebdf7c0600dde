import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import BrightnessAutoOutlined from '@mui/icons-material/BrightnessAutoOutlined';
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import { THEME_PREFERENCES, type ThemePreference } from '@sutura/domain/preferences';
import { useColorMode } from '@/lib/theme';
import { SettingsPage } from '@/features/settings/components/settings-page';

const ICONS: Record<ThemePreference, ReactNode> = {
  light: <LightModeOutlined aria-hidden />,
  dark: <DarkModeOutlined aria-hidden />,
  auto: <BrightnessAutoOutlined aria-hidden />,
};
const ORDER: readonly ThemePreference[] = ['light', 'dark', 'auto'];

/** `/settings/theme`: light, dark or the device's setting, applied at once. */
export function ThemePage() {
  const { t } = useTranslation('settings');
  const { preference, setPreference } = useColorMode();

  const choose = (value: string) => {
    const next = THEME_PREFERENCES.find((p) => p === value);
    if (next) setPreference(next);
  };

  return (
    <SettingsPage path="/settings/theme" intro={t('theme.intro')}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <FormControl fullWidth>
          <FormLabel id="theme-label" sx={{ mb: 1, fontWeight: 700 }}>
            {t('theme.label')}
          </FormLabel>
          <RadioGroup aria-labelledby="theme-label" name="theme" value={preference} onChange={(_, value) => choose(value)}>
            {ORDER.map((option) => (
              <FormControlLabel
                key={option}
                value={option}
                control={<Radio slotProps={{ input: { 'data-testid': `theme-option-${option}` } as object }} />}
                label={
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1 }}>
                    <Box sx={{ color: 'text.secondary', display: 'flex' }}>{ICONS[option]}</Box>
                    <Box>
                      <Typography sx={{ fontWeight: 700 }}>{t(`theme.options.${option}.label`)}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t(`theme.options.${option}.description`)}
                      </Typography>
                    </Box>
                  </Box>
                }
                sx={{ alignItems: 'center', mr: 0 }}
              />
            ))}
          </RadioGroup>
        </FormControl>
      </Paper>
    </SettingsPage>
  );
}
