import type { RouteObject } from 'react-router';

// The four legal pages share one module, so one chunk.
const legalPages = () => import('@/features/settings/pages/legal-pages');

/** The settings pages, mounted inside the signed-in shell. Paths are those of MENU. */
export const settingsRoutes: RouteObject[] = [
  { path: '/settings', lazy: { Component: async () => (await import('@/features/settings/pages/settings-list-page')).SettingsListPage } },
  { path: '/settings/theme', lazy: { Component: async () => (await import('@/features/settings/pages/theme-page')).ThemePage } },
  { path: '/settings/lang', lazy: { Component: async () => (await import('@/features/settings/pages/language-page')).LanguagePage } },
  {
    path: '/settings/preferences',
    lazy: { Component: async () => (await import('@/features/settings/pages/preferences-page')).PreferencesPage },
  },
  {
    path: '/settings/notifications',
    lazy: { Component: async () => (await import('@/features/settings/pages/notifications-page')).NotificationSettingsPage },
  },
  { path: '/settings/contact', lazy: { Component: async () => (await import('@/features/settings/pages/contact-page')).ContactPage } },
  { path: '/settings/condition', lazy: { Component: async () => (await legalPages()).GeneralConditionsPage } },
  { path: '/settings/privacy', lazy: { Component: async () => (await legalPages()).PrivacyPolicyPage } },
  { path: '/settings/legal-notice', lazy: { Component: async () => (await legalPages()).LegalNoticePage } },
  { path: '/settings/manage-cookies', lazy: { Component: async () => (await legalPages()).CookiesPage } },
  {
    path: '/settings/accessibility',
    lazy: { Component: async () => (await import('@/features/settings/pages/accessibility-page')).AccessibilityPage },
  },
];
