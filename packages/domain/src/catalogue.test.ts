import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_SUBJECT_GONE,
  AUDIT_SUBJECT_WORDS,
  auditActionLabel,
  auditActionsOf,
  auditEntityLabel,
} from './audit.ts';
import { ERRORS, errorMessage, fileTooBigMessage, formatBytes } from './errors.ts';
import { NOTIFICATION_KINDS } from './notifications.ts';
import { languageFromAcceptHeader } from './i18n.ts';
import { mayOpen, MENU, menuFor, routeHeader } from './menu.ts';

describe('error catalogue', () => {
  it('has a French and an English text for every code, with the same placeholders', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(entry.fr.trim(), code).not.toBe('');
      expect(entry.en.trim(), code).not.toBe('');
      expect(entry.fr, code).not.toBe(entry.en);
      const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(holes(entry.fr), code).toEqual(holes(entry.en));
      expect(entry.status).toBeGreaterThanOrEqual(400);
    }
    for (const [key, kind] of Object.entries(NOTIFICATION_KINDS)) {
      const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(holes(kind.fr), key).toEqual(holes(kind.en));
    }
  });

  it('keeps the English texts of SPEC §8 word for word', () => {
    expect(ERRORS.INVALID_CREDENTIALS.en).toBe('Your email or password is incorrect, please try again');
    expect(ERRORS.GENERIC.en).toBe('An error has occurred, please try again');
    expect(ERRORS.EMAIL_TAKEN.en).toBe('An account already exists with the email address entered');
    expect(ERRORS.EMAIL_NOT_FOUND.en).toBe('No account was found with this email address');
    expect(ERRORS.CODE_INVALID.en).toBe('The validation code is incorrect');
    expect(ERRORS.CODE_FORMAT.en).toBe('The validation code must be a number of 8 digits');
    expect(ERRORS.CURRENT_PASSWORD_INCORRECT.en).toBe('Your current password is incorrect');
    expect(ERRORS.EMAIL_VALIDATION_FAILED.en).toBe('Your email could not be validated');
    expect(ERRORS.FIELD_REQUIRED.en).toBe('This field is required');
    expect(ERRORS.PASSWORD_MISMATCH.en).toBe('Passwords do not match');
    expect(ERRORS.EMAIL_FORMAT.en).toBe('Your email must be a valid email address');
    expect(ERRORS.YEARS_FORMAT.en).toBe('This field must contain a number of years');
    expect(errorMessage('QUERY_UNKNOWN_FIELD', 'fr', { field: 'foo' })).toBe('Champ inconnu dans la requête : foo');
  });

  it('says a file is too big in the right unit', () => {
    expect(formatBytes(512, 'en')).toBe('512 bytes');
    expect(formatBytes(10 * 1024 * 1024, 'en')).toBe('10 MB');
    expect(formatBytes(20 * 1024 ** 3, 'fr')).toBe('20 Go');
    expect(formatBytes(1.5 * 1024 ** 4, 'fr')).toBe('1,5 To');
    expect(fileTooBigMessage('video.mp4', 20 * 1024 ** 3, 'en')).toBe('video.mp4 is too big, the maximum size is 20 GB');
  });

  it('reads Accept-Language by quality', () => {
    expect(languageFromAcceptHeader('de-DE,en;q=0.8,fr;q=0.9')).toBe('fr');
    expect(languageFromAcceptHeader('en-US,en;q=0.9')).toBe('en');
    expect(languageFromAcceptHeader('de')).toBeUndefined();
    expect(languageFromAcceptHeader(undefined)).toBeUndefined();
  });
});

describe('labels of the audit log', () => {
  const labelled = (entries: object) => Object.entries(entries) as [string, { fr: string; en: string }][];

  it('has a French and an English label for every action, family, entity and word of a subject', () => {
    for (const [key, label] of [
      ...labelled(AUDIT_ACTIONS),
      ...labelled(AUDIT_ACTION_GROUPS),
      ...labelled(AUDIT_ENTITIES),
      ...labelled(AUDIT_SUBJECT_GONE),
      ...labelled(AUDIT_SUBJECT_WORDS),
    ]) {
      expect(label.fr.trim(), key).not.toBe('');
      expect(label.en.trim(), key).not.toBe('');
      expect(label.fr, key).not.toMatch(/[a-z]+[._][a-z]+/);
      expect(label.en, key).not.toMatch(/[a-z]+[._][a-z]+/);
    }
  });

  it('says what a deleted row was for every entity that names a row', () => {
    expect(Object.keys(AUDIT_SUBJECT_GONE).sort()).toEqual(
      Object.keys(AUDIT_ENTITIES)
        .filter((e) => e !== 'audit_log' && e !== 'retention')
        .sort(),
    );
  });

  it('puts every action in a family the filter offers, and every family has actions', () => {
    for (const action of Object.keys(AUDIT_ACTIONS)) {
      expect(action).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(Object.keys(AUDIT_ACTION_GROUPS), action).toContain(action.split('.')[0]);
    }
    const grouped = Object.keys(AUDIT_ACTION_GROUPS).flatMap((g) => auditActionsOf(g as keyof typeof AUDIT_ACTION_GROUPS));
    expect(grouped.sort()).toEqual(Object.keys(AUDIT_ACTIONS).sort());
    for (const group of Object.keys(AUDIT_ACTION_GROUPS))
      expect(auditActionsOf(group as keyof typeof AUDIT_ACTION_GROUPS).length, group).toBeGreaterThan(0);
  });

  it('tells one action from another in each language', () => {
    for (const lang of ['fr', 'en'] as const) {
      const texts = Object.values(AUDIT_ACTIONS).map((l) => l[lang]);
      expect(new Set(texts).size, lang).toBe(texts.length);
    }
  });

  it('reads a stored identifier in the reader’s language, and an unknown one as itself', () => {
    expect(auditActionLabel('auth.sign_in', 'fr')).toBe('Connexion');
    expect(auditActionLabel('auth.sign_in', 'en')).toBe('Sign-in');
    expect(auditActionLabel('video.deleted_by_admin', 'fr')).toBe('Vidéo supprimée par un administrateur');
    expect(auditActionLabel('video.deleted_by_admin', 'en')).toBe('Video deleted by an administrator');
    expect(auditActionLabel('video.gone_away', 'en')).toBe('video.gone_away');
    expect(auditActionLabel('toString', 'en')).toBe('toString');
    expect(auditEntityLabel('user', 'fr')).toBe('Compte');
    expect(auditEntityLabel('surgery_step', 'en')).toBe('Surgery step');
    expect(auditEntityLabel('constructor', 'fr')).toBe('constructor');
  });
});

describe('menu and route table of SPEC §2', () => {
  it('filters entries by role exactly as the spec lists them', () => {
    const paths = (roles: string[], where: 'drawer' | 'tabs' | 'settings') => menuFor(roles, where).map((m) => m.path);
    expect(paths(['editor'], 'drawer')).toEqual(['/dashboard', '/videos', '/editor', '/best-cases', '/settings']);
    expect(paths(['expert'], 'drawer')).toContain('/expert');
    expect(paths(['expert'], 'drawer')).toContain('/my-calibration');
    expect(paths(['expert'], 'drawer')).not.toContain('/admin/calibration');
    expect(paths(['learner', 'editor'], 'drawer')).not.toContain('/my-calibration');
    expect(paths(['learner'], 'drawer')).not.toContain('/editor');
    expect(paths(['copil'], 'drawer')).toEqual([
      '/admin',
      '/admin/vocabularies',
      '/admin/surgery-videos',
      '/admin/best-cases',
      '/admin/users',
      '/admin/audit',
      '/admin/calibration',
      '/admin/double-review',
      '/admin/disagreements',
      '/admin/retention',
      '/admin/storage',
      '/admin/programmes',
      '/settings',
    ]);
    // "Programmes" only for whom the server says directs one, whatever the roles.
    expect(paths(['expert'], 'drawer')).not.toContain('/programmes');
    expect(menuFor(['expert'], 'drawer', { directsProgramme: true }).map((m) => m.path)).toContain('/programmes');
    expect(menuFor(['copil'], 'drawer', { directsProgramme: true }).map((m) => m.path)).toContain('/programmes');
    expect(paths(['learner'], 'settings')).toContain('/settings/preferences');
    expect(paths(['expert'], 'settings')).not.toContain('/settings/preferences');
    expect(paths(['administrator'], 'settings')).toEqual([
      '/settings/theme',
      '/settings/condition',
      '/settings/privacy',
      '/settings/legal-notice',
      '/settings/manage-cookies',
      '/settings/accessibility',
    ]);
    // SPEC leaves the statistics entry's roles empty: statistics are a learner's own ratings.
    expect(MENU.find((m) => m.path === '/my-stats')!.roles).toEqual(['learner']);
    expect(paths(['learner'], 'drawer')).toContain('/my-stats');
    expect(paths(['editor', 'expert'], 'drawer')).not.toContain('/my-stats');
  });

  it('says which role may open which page (SPEC §6)', () => {
    expect(mayOpen(['administrator'], '/videos')).toBe(false);
    expect(mayOpen(['copil'], '/videos/add')).toBe(false);
    expect(mayOpen(['editor'], '/videos/add')).toBe(false);
    expect(mayOpen(['learner'], '/videos/add')).toBe(true);
    expect(mayOpen(['editor'], '/videos')).toBe(true);
    expect(mayOpen(['copil'], '/dashboard')).toBe(true);
    expect(mayOpen(['administrator'], '/settings/contact')).toBe(false);
    expect(mayOpen(['expert'], '/settings/preferences')).toBe(false);
    expect(mayOpen(['learner'], '/settings/preferences/')).toBe(true);
    expect(mayOpen(['learner'], '/editor/42')).toBe(false);
    expect(mayOpen(['copil'], '/settings/theme')).toBe(true);
    expect(mayOpen(['learner'], '/nowhere')).toBe(true);
  });

  it('gives titles and back buttons', () => {
    expect(routeHeader('/')).toEqual({ titleKey: 'dashboard', back: false });
    expect(routeHeader('/videos/add')).toEqual({ titleKey: 'addVideo', back: true });
    expect(routeHeader('/videos/42')).toEqual({ titleKey: 'videos', back: true });
    expect(routeHeader('/expert/42/complete')).toEqual({ titleKey: 'expertVideo', back: false });
    expect(routeHeader('/my-account/edit-password')).toEqual({ titleKey: 'editPassword', back: true });
    expect(routeHeader('/settings')).toEqual({ titleKey: 'settings', back: false });
    expect(routeHeader('/nowhere')).toEqual({ titleKey: 'home', back: false });
  });
});
