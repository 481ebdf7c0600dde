import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Check from '@mui/icons-material/Check';
import Translate from '@mui/icons-material/Translate';
import { LANGUAGES, type Language } from '@sutura/domain/i18n';
import { api } from '@/lib/http';
import { currentLanguage, setLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';

const NATIVE_NAMES: Record<Language, string> = { fr: 'Français', en: 'English' };

/**
 * SPEC §5: a signed-in person's choice goes to their preferences; a visitor's is saved through
 * the language call. When saving fails nothing changes.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation('common');
  const { session, updatePreferences } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const lang = currentLanguage();

  const choose = async (next: Language) => {
    setAnchor(null);
    if (next === lang) return;
    try {
      if (session) await updatePreferences({ langCode: next });
      else {
        await api('PUT', '/users/language', { body: { langCode: next } });
        await setLanguage(next);
      }
    } catch (error) {
      console.error(error);
    }
  };

  return (
    <>
      <Button
        data-testid="language-switcher"
        color="inherit"
        aria-label={`${lang.toUpperCase()} – ${t('changeLanguage', { language: NATIVE_NAMES[lang] })}`}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'language-menu' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        startIcon={<Translate />}
        sx={{ minWidth: 0, px: 1.25, color: 'text.primary' }}
      >
        {lang.toUpperCase()}
      </Button>
      <Menu id="language-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((code) => (
          <MenuItem key={code} lang={code} selected={code === lang} onClick={() => void choose(code)}>
            <ListItemIcon>{code === lang && <Check fontSize="small" />}</ListItemIcon>
            <ListItemText>{NATIVE_NAMES[code]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
