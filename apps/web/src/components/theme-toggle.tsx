import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import DarkModeOutlined from '@mui/icons-material/DarkModeOutlined';
import LightModeOutlined from '@mui/icons-material/LightModeOutlined';
import { useColorMode } from '@/lib/theme';
import { LazyTooltip } from '@/components/lazy-tooltip';

/** Flips light and dark; a signed-in person's choice is saved in their preferences. */
export function ThemeToggle() {
  const { t } = useTranslation('common');
  const { mode, setPreference } = useColorMode();
  const label = t(mode === 'dark' ? 'switchToLight' : 'switchToDark');
  return (
    <LazyTooltip title={label}>
      <IconButton
        data-testid="theme-toggle"
        aria-label={label}
        onClick={() => setPreference(mode === 'dark' ? 'light' : 'dark')}
        color="inherit"
      >
        {mode === 'dark' ? <LightModeOutlined /> : <DarkModeOutlined />}
      </IconButton>
    </LazyTooltip>
  );
}
