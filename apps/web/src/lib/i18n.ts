import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ERRORS } from '@sutura/domain/errors';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@sutura/domain/i18n';
import { STORAGE_KEYS } from '@sutura/domain/limits';

type Messages = Record<string, unknown>;

// Every JSON file of src/locales/<lang>/ is a namespace, so a new file needs no registration here.
const files = import.meta.glob<Messages>('../locales/*/*.json', { eager: true, import: 'default' });

function buildResources(): Record<Language, Record<string, Messages>> {
  const resources: Record<Language, Record<string, Messages>> = { fr: {}, en: {} };
  for (const [path, messages] of Object.entries(files)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    const lang = match?.[1];
    const ns = match?.[2];
    if (!isLanguage(lang) || !ns) continue;
    resources[lang][ns] = messages;
  }
  for (const lang of LANGUAGES) {
    // The catalogue writes placeholders as {name}; i18next expects {{name}}.
    resources[lang].errors = Object.fromEntries(
      Object.entries(ERRORS).map(([code, texts]) => [code, texts[lang].replace(/\{(\w+)\}/g, '{{$1}}')]),
    );
  }
  return resources;
}

export const resources = buildResources();
export const namespaces = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

export function readStoredLanguage(): Language | undefined {
  try {
    const stored = localStorage.getItem(STORAGE_KEYS.language);
    return isLanguage(stored) ? stored : undefined;
  } catch (error) {
    console.error(error);
    return undefined;
  }
}

function browserLanguage(): Language {
  const candidates = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of candidates) {
    const prefix = tag?.toLowerCase().split('-')[0];
    if (isLanguage(prefix)) return prefix;
  }
  return DEFAULT_LANGUAGE;
}

function reflectLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  document.title = i18n.t('common:documentTitle', { lng: lang });
}

void i18n.use(initReactI18next).init({
  resources,
  ns: namespaces,
  defaultNS: 'common',
  lng: readStoredLanguage() ?? browserLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

i18n.on('languageChanged', (lng) => {
  if (isLanguage(lng)) reflectLanguage(lng);
});
if (isLanguage(i18n.language)) reflectLanguage(i18n.language);

export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers it on this device. */
export function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, lang);
  } catch (error) {
    console.error(error);
  }
  if (currentLanguage() === lang) return Promise.resolve();
  return i18n.changeLanguage(lang).then(() => undefined);
}

export { i18n };
