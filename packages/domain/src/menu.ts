import type { Role } from './roles.ts';

const ALL: Role[] = ['learner', 'editor', 'expert', 'administrator', 'copil'];
const PRACTICE: Role[] = ['learner', 'editor', 'expert'];
const ADMIN: Role[] = ['administrator', 'copil'];

/** The icons of the entries of the menu and the tab bar (and of the dashboard's spaces). */
export type NavigationIcon =
  | 'dashboard'
  | 'admin'
  | 'vocabularies'
  | 'surgeryVideos'
  | 'bestCases'
  | 'users'
  | 'auditLog'
  | 'calibration'
  | 'doubleReview'
  | 'disagreements'
  | 'programmes'
  | 'retention'
  | 'storage'
  | 'stats'
  | 'videos'
  | 'editor'
  | 'expert'
  | 'account'
  | 'settings';

/** The icons of the entries only the settings page lists: the shell never draws them. */
export type SettingsIcon =
  'theme' | 'language' | 'preferences' | 'contact' | 'notifications' | 'conditions' | 'privacy' | 'legal' | 'cookies' | 'accessibility';

export type MenuIcon = NavigationIcon | SettingsIcon;

interface MenuEntryOf<Icon extends MenuIcon, Where extends 'drawer' | 'tabs' | 'settings'> {
  name: string;
  path: string;
  icon: Icon;
  /** i18n key in the `menu` namespace. */
  titleKey: string;
  roles: readonly Role[];
  showIn: readonly Where[];
  /** Admin pages are drawn in the admin theme. */
  admin?: boolean;
  /**
   * Shown only to whom the server says this of, beside the roles: `directsProgramme`, a director
   * of at least one training programme (GET /programmes answers who directs what).
   */
  requires?: 'directsProgramme';
}

/** An entry of the menu or the tab bar. */
export type NavigationEntry = MenuEntryOf<NavigationIcon, 'drawer' | 'tabs' | 'settings'>;
/** An entry only the settings page lists. */
export type SettingsEntry = MenuEntryOf<SettingsIcon, 'settings'>;
export type MenuEntry = NavigationEntry | SettingsEntry;

/** The shared menu list of SPEC §2. */
export const MENU: readonly MenuEntry[] = [
  { name: 'dashboard', path: '/dashboard', icon: 'dashboard', titleKey: 'dashboard', roles: PRACTICE, showIn: ['drawer', 'tabs'] },
  {
    name: 'adminDashboard',
    path: '/admin',
    icon: 'admin',
    titleKey: 'adminDashboard',
    roles: ADMIN,
    showIn: ['drawer', 'tabs'],
    admin: true,
  },
  {
    name: 'vocabularies',
    path: '/admin/vocabularies',
    icon: 'vocabularies',
    titleKey: 'vocabularies',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'surgeryVideos',
    path: '/admin/surgery-videos',
    icon: 'surgeryVideos',
    titleKey: 'surgeryVideos',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'adminBestCases',
    path: '/admin/best-cases',
    icon: 'bestCases',
    titleKey: 'adminBestCases',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  { name: 'users', path: '/admin/users', icon: 'users', titleKey: 'users', roles: ADMIN, showIn: ['drawer'], admin: true },
  { name: 'auditLog', path: '/admin/audit', icon: 'auditLog', titleKey: 'auditLog', roles: ADMIN, showIn: ['drawer'], admin: true },
  {
    name: 'calibration',
    path: '/admin/calibration',
    icon: 'calibration',
    titleKey: 'calibration',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'doubleReview',
    path: '/admin/double-review',
    icon: 'doubleReview',
    titleKey: 'doubleReview',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'disagreements',
    path: '/admin/disagreements',
    icon: 'disagreements',
    titleKey: 'disagreements',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'retention',
    path: '/admin/retention',
    icon: 'retention',
    titleKey: 'retention',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'storage',
    path: '/admin/storage',
    icon: 'storage',
    titleKey: 'storage',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'adminProgrammes',
    path: '/admin/programmes',
    icon: 'programmes',
    titleKey: 'adminProgrammes',
    roles: ADMIN,
    showIn: ['drawer'],
    admin: true,
  },
  {
    name: 'programmes',
    path: '/programmes',
    icon: 'programmes',
    titleKey: 'programmes',
    roles: ALL,
    showIn: ['drawer'],
    requires: 'directsProgramme',
  },
  { name: 'myStats', path: '/my-stats', icon: 'stats', titleKey: 'myStats', roles: ['learner'], showIn: ['drawer'] },
  { name: 'videos', path: '/videos', icon: 'videos', titleKey: 'videos', roles: PRACTICE, showIn: ['drawer', 'tabs'] },
  { name: 'editor', path: '/editor', icon: 'editor', titleKey: 'editor', roles: ['editor'], showIn: ['drawer', 'tabs'] },
  { name: 'expert', path: '/expert', icon: 'expert', titleKey: 'expert', roles: ['expert'], showIn: ['drawer', 'tabs'] },
  {
    name: 'myCalibration',
    path: '/my-calibration',
    icon: 'calibration',
    titleKey: 'myCalibration',
    roles: ['expert'],
    showIn: ['drawer'],
  },
  { name: 'bestCases', path: '/best-cases', icon: 'bestCases', titleKey: 'bestCases', roles: PRACTICE, showIn: ['drawer'] },
  { name: 'myAccount', path: '/my-account', icon: 'account', titleKey: 'myAccount', roles: ALL, showIn: ['tabs'] },
  { name: 'settings', path: '/settings', icon: 'settings', titleKey: 'settings', roles: ALL, showIn: ['drawer'] },
  { name: 'theme', path: '/settings/theme', icon: 'theme', titleKey: 'theme', roles: ALL, showIn: ['settings'] },
  { name: 'language', path: '/settings/lang', icon: 'language', titleKey: 'language', roles: PRACTICE, showIn: ['settings'] },
  {
    name: 'preferences',
    path: '/settings/preferences',
    icon: 'preferences',
    titleKey: 'preferences',
    roles: ['learner'],
    showIn: ['settings'],
  },
  {
    name: 'notifications',
    path: '/settings/notifications',
    icon: 'notifications',
    titleKey: 'notificationSettings',
    roles: PRACTICE,
    showIn: ['settings'],
  },
  { name: 'contact', path: '/settings/contact', icon: 'contact', titleKey: 'contact', roles: PRACTICE, showIn: ['settings'] },
  { name: 'conditions', path: '/settings/condition', icon: 'conditions', titleKey: 'conditions', roles: ALL, showIn: ['settings'] },
  { name: 'privacy', path: '/settings/privacy', icon: 'privacy', titleKey: 'privacy', roles: ALL, showIn: ['settings'] },
  { name: 'legalNotice', path: '/settings/legal-notice', icon: 'legal', titleKey: 'legalNotice', roles: ALL, showIn: ['settings'] },
  { name: 'cookies', path: '/settings/manage-cookies', icon: 'cookies', titleKey: 'cookies', roles: ALL, showIn: ['settings'] },
  {
    name: 'accessibility',
    path: '/settings/accessibility',
    icon: 'accessibility',
    titleKey: 'accessibility',
    roles: ALL,
    showIn: ['settings'],
  },
];

/** Page titles and back buttons of SPEC §2 for routes outside the menu list. */
export const ROUTE_TITLES: readonly { pattern: string; titleKey: string; back: boolean }[] = [
  { pattern: '/', titleKey: 'dashboard', back: false },
  { pattern: '/dashboard', titleKey: 'dashboard', back: false },
  { pattern: '/videos/add', titleKey: 'addVideo', back: true },
  { pattern: '/videos/:id/shared', titleKey: 'sharedVideo', back: true },
  { pattern: '/videos/:id/compare', titleKey: 'compare', back: true },
  { pattern: '/videos/:id', titleKey: 'videos', back: true },
  { pattern: '/best-cases/:id/compare', titleKey: 'compare', back: true },
  { pattern: '/best-cases/:id', titleKey: 'bestCases', back: true },
  { pattern: '/expert/:id/complete', titleKey: 'expertVideo', back: false },
  { pattern: '/expert/:id', titleKey: 'expertVideo', back: true },
  { pattern: '/editor/:id/complete', titleKey: 'editorVideos', back: false },
  { pattern: '/editor/:id', titleKey: 'editorVideos', back: true },
  { pattern: '/admin/best-cases/add', titleKey: 'addBestCase', back: true },
  { pattern: '/my-account/edit-password', titleKey: 'editPassword', back: true },
  { pattern: '/programmes/:id/learners/:learnerId', titleKey: 'programmes', back: true },
  { pattern: '/programmes/:id', titleKey: 'programmes', back: false },
  { pattern: '/admin/programmes/:id', titleKey: 'adminProgrammes', back: true },
];

/**
 * Who may open the signed-in pages that are not entries of the menu list (SPEC §6); a menu
 * entry's own roles rule its path. /dashboard is where every role lands after signing in.
 */
export const ROUTE_ROLES: readonly { pattern: string; roles: readonly Role[] }[] = [
  { pattern: '/dashboard', roles: ALL },
  { pattern: '/videos/add', roles: ['learner'] },
  { pattern: '/videos/:id/shared', roles: PRACTICE },
  { pattern: '/videos/:id/compare', roles: ['learner', 'editor', 'expert', 'administrator'] },
  { pattern: '/videos/:id', roles: ALL },
  { pattern: '/best-cases/:id/compare', roles: PRACTICE },
  { pattern: '/best-cases/:id', roles: PRACTICE },
  { pattern: '/expert/:id/complete', roles: ['expert'] },
  { pattern: '/expert/:id', roles: ['expert'] },
  { pattern: '/editor/:id/complete', roles: ['editor'] },
  { pattern: '/editor/:id', roles: ['editor'] },
  { pattern: '/admin/best-cases/add', roles: ['administrator'] },
  { pattern: '/my-account/edit-password', roles: ALL },
  // The server answers only the programme's directors, administrators, copil and (their own page) the learner.
  { pattern: '/programmes/:id/learners/:learnerId', roles: ALL },
  { pattern: '/programmes/:id', roles: ALL },
  { pattern: '/admin/programmes/:id', roles: ADMIN },
];

/** Whether a person with these roles may open the page at `path` (unknown paths: the router says not found). */
export function mayOpen(roles: readonly string[], path: string): boolean {
  const route = ROUTE_ROLES.find((r) => matches(r.pattern, path));
  const entry = MENU.find((m) => m.path === path.replace(/\/+$/, ''));
  const allowed = route?.roles ?? entry?.roles;
  return !allowed || allowed.some((r) => roles.includes(r));
}

function matches(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  if (pattern === '/') return path === '/' || path === '';
  return p.length === s.length && p.every((seg, i) => seg.startsWith(':') || seg === s[i]);
}

/** The header title key and back button for a path: route table, then menu, then 'home'. */
export function routeHeader(path: string): { titleKey: string; back: boolean } {
  const route = ROUTE_TITLES.find((r) => matches(r.pattern, path));
  if (route) return { titleKey: route.titleKey, back: route.back };
  const entry = MENU.find((m) => m.path === path.replace(/\/+$/, ''));
  if (entry) return { titleKey: entry.titleKey, back: entry.path.startsWith('/settings/') };
  return { titleKey: 'home', back: false };
}

/** Whether an entry is one of the menu or the tab bar (its icon is then a NavigationIcon). */
export function isNavigationEntry(entry: MenuEntry): entry is NavigationEntry {
  return entry.showIn.some((where) => where !== 'settings');
}

/** What the server said of the person beyond their roles (an entry's `requires`). */
export type MenuFacts = Partial<Record<NonNullable<MenuEntry['requires']>, boolean>>;

export function menuFor(roles: readonly string[], where: 'drawer' | 'tabs', facts?: MenuFacts): NavigationEntry[];
export function menuFor(roles: readonly string[], where: 'drawer' | 'tabs' | 'settings', facts?: MenuFacts): MenuEntry[];
export function menuFor(roles: readonly string[], where: 'drawer' | 'tabs' | 'settings', facts: MenuFacts = {}): MenuEntry[] {
  return MENU.filter(
    (m) =>
      (m.showIn as readonly string[]).includes(where) &&
      m.roles.some((r) => roles.includes(r)) &&
      (!m.requires || facts[m.requires] === true),
  );
}

/**
 * The path of the entry a page belongs to among `entries`: the longest entry path that is the
 * page's own or one of its parents (on /admin/audit, the audit log, not the administration home).
 */
export function activeMenuPath(entries: readonly Pick<MenuEntry, 'path'>[], pathname: string): string | undefined {
  const page = pathname.replace(/\/+$/, '') || '/';
  let found: string | undefined;
  for (const { path } of entries) {
    if ((page === path || page.startsWith(`${path}/`)) && path.length > (found?.length ?? -1)) found = path;
  }
  return found;
}
