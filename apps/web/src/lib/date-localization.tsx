import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import 'dayjs/locale/fr';
import 'dayjs/locale/en';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS, frFR } from '@mui/x-date-pickers/locales';
import { isLanguage } from '@sutura/domain/i18n';

const PICKER_TEXTS = { fr: frFR, en: enUS } as const;

/**
 * Dates are entered and shown in the app's language (jj/mm/aaaa in French), whatever the
 * browser's own locale: the date pickers follow the interface language.
 */
export function DateLocalization({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'fr';
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={lang}
      localeText={PICKER_TEXTS[lang].components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}
