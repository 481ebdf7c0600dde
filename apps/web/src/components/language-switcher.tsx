import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Translate from '@mui/icons-material/Translate';
import type { Language } from '@sutura/domain/i18n';
import { NATIVE_NAMES } from '@/components/language-names';
import { api } from '@/lib/http';
import { currentLanguage, setLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';

const LanguageMenu = lazy(() => import('@/components/language-menu'));

/**
 * SPEC §5: a signed-in person's choice goes to their preferences; a visitor's is saved through
 * the language call. When saving fails nothing changes.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation('common');
  const { session, updatePreferences } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so that it closes with its animation.
  const [opened, setOpened] = useState(false);
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
        onClick={(e) => {
          setOpened(true);
          setAnchor(e.currentTarget);
        }}
        startIcon={<Translate />}
        sx={{ minWidth: 0, px: 1.25, color: 'text.primary' }}
      >
        {lang.toUpperCase()}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <LanguageMenu anchor={anchor} lang={lang} onChoose={(next) => void choose(next)} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
