import { describe, expect, it } from 'vitest';
import { activeMenuPath, menuFor } from './menu.ts';

describe('activeMenuPath', () => {
  const drawer = menuFor(['administrator'], 'drawer');

  it('marks only the administration page of a sub-page, not the administration home as well', () => {
    expect(activeMenuPath(drawer, '/admin/audit')).toBe('/admin/audit');
    expect(activeMenuPath(drawer, '/admin/vocabularies')).toBe('/admin/vocabularies');
    expect(activeMenuPath(drawer, '/admin/best-cases/add')).toBe('/admin/best-cases');
    expect(activeMenuPath(drawer, '/admin')).toBe('/admin');
    expect(activeMenuPath(drawer, '/admin/')).toBe('/admin');
  });

  it('keeps the administration tab of the phone on every administration page, since the tab bar has no other', () => {
    expect(activeMenuPath(menuFor(['administrator'], 'tabs'), '/admin/users')).toBe('/admin');
  });

  it('marks the parent page of a detail page, and nothing for a page outside the menu', () => {
    const learner = menuFor(['learner'], 'drawer');
    expect(activeMenuPath(learner, '/best-cases/0b6c1c3e-6f1e-4c55-9a63-1a2b3c4d5e6f')).toBe('/best-cases');
    expect(activeMenuPath(learner, '/videos/add')).toBe('/videos');
    expect(activeMenuPath(learner, '/my-statsx')).toBeUndefined();
    expect(activeMenuPath(learner, '/my-account')).toBeUndefined();
  });
});
