import type { RouteObject } from 'react-router';
import { SettingsListPage } from '@/features/settings/pages/settings-list-page';
import { ThemePage } from '@/features/settings/pages/theme-page';
import { LanguagePage } from '@/features/settings/pages/language-page';
import { PreferencesPage } from '@/features/settings/pages/preferences-page';
import { NotificationSettingsPage } from '@/features/settings/pages/notifications-page';
import { ContactPage } from '@/features/settings/pages/contact-page';
import { CookiesPage, GeneralConditionsPage, LegalNoticePage, PrivacyPolicyPage } from '@/features/settings/pages/legal-pages';

/** The settings pages, mounted inside the signed-in shell. Paths are those of MENU. */
export const settingsRoutes: RouteObject[] = [
  { path: '/settings', element: <SettingsListPage /> },
  { path: '/settings/theme', element: <ThemePage /> },
  { path: '/settings/lang', element: <LanguagePage /> },
  { path: '/settings/preferences', element: <PreferencesPage /> },
  { path: '/settings/notifications', element: <NotificationSettingsPage /> },
  { path: '/settings/contact', element: <ContactPage /> },
  { path: '/settings/condition', element: <GeneralConditionsPage /> },
  { path: '/settings/privacy', element: <PrivacyPolicyPage /> },
  { path: '/settings/legal-notice', element: <LegalNoticePage /> },
  { path: '/settings/manage-cookies', element: <CookiesPage /> },
];
