import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@sutura/domain/i18n';
import { LAYOUT, STORAGE_KEYS } from '@sutura/domain/limits';

type Messages = Record<string, unknown>;

// Every JSON file of src/locales/<lang>/ is a namespace, so a new file needs no registration here.
// Each is its own chunk, fetched the first time a screen in that language uses it: a page loads
// neither the other language nor the namespaces of pages it does not show.
const files = import.meta.glob<Messages>('../locales/*/*.json', { import: 'default' });

/**
 * Loaded with the first screen, in parallel with its code: what every screen uses, the signed-in
 * shell's outside /auth (its tab bar's where it shows), and the namespace named like the first
 * segment of the path (auth, dashboard, videos, settings…) when there is one. Others load when a
 * component asks for them.
 */
function startupNamespaces(): string[] {
  const segment = typeof location === 'undefined' ? '' : (location.pathname.split('/')[1] ?? '');
  const namespaces = ['common', 'errors'];
  if (segment !== 'auth') namespaces.push('shell', 'menu', 'notifications');
  // The shell's tab bar, on a phone or a tablet: else the first screen would wait for its texts
  // after its first draw, and draw again.
  if (segment !== 'auth' && typeof matchMedia !== 'undefined' && matchMedia(`(max-width: ${LAYOUT.tabBarMaxWindowWidth}px)`).matches)
    namespaces.push('tab-bar');
  if (Object.keys(files).some((file) => file.endsWith(`/${segment}.json`))) namespaces.push(segment);
  return namespaces;
}

/** The `errors` namespace: the domain's error catalogue, in one language (see vite.config.ts). */
const errorFiles: Record<Language, () => Promise<{ default: Messages }>> = {
  fr: () => import('virtual:error-catalogue/fr'),
  en: () => import('virtual:error-catalogue/en'),
};

const localeFiles: BackendModule = {
  type: 'backend',
  init() {},
  read(lang, ns, callback) {
    if (!isLanguage(lang)) return callback(new Error(`Unknown language ${lang}`), false);
    const load = ns === 'errors' ? async () => (await errorFiles[lang]()).default : files[`../locales/${lang}/${ns}.json`];
    if (!load) return callback(new Error(`No translations ${lang}/${ns}`), false);
    load().then(
      (messages) => callback(null, messages),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

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

// Also fired by init, once the texts of the language are loaded.
i18n.on('languageChanged', (lng) => {
  if (isLanguage(lng)) reflectLanguage(lng);
});

// Chosen now: i18next sets its language a moment later, and the first API calls name it already.
const firstLanguage = readStoredLanguage() ?? browserLanguage();

/** Resolves once the texts of the first screen are there: the app renders no untranslated key. */
export const i18nReady = i18n
  .use(localeFiles)
  .use(initReactI18next)
  .init({
    ns: startupNamespaces(),
    defaultNS: 'common',
    lng: firstLanguage,
    // Both languages hold every key (a test checks it): no other language is ever fetched.
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    // A component whose namespace is not loaded yet suspends (route changes keep the previous
    // page meanwhile) instead of showing its keys.
    react: { useSuspense: true },
  });

export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language ?? firstLanguage;
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
