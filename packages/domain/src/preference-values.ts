/*
 * The values of the preferences, without their schema: the web app reads them before its first
 * screen, which must not wait for the validation library (the schemas are in preferences.ts).
 */
export const LANG_PREFERENCES = ['auto', 'fr', 'en'] as const;
export const THEME_PREFERENCES = ['auto', 'light', 'dark'] as const;
export type LangPreference = (typeof LANG_PREFERENCES)[number];
export type ThemePreference = (typeof THEME_PREFERENCES)[number];

export const DEFAULT_PREFERENCES: { langCode: LangPreference; theme: ThemePreference; showRatings: boolean } = {
  langCode: 'auto',
  theme: 'auto',
  showRatings: true,
};
