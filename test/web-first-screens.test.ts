import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstScreenInputsHash, readFirstScreensFile } from '../apps/web/first-screens.ts';

const root = path.resolve(import.meta.dirname, '..');

describe('the web build: the first screens grouping kept in apps/web/first-screens.json', () => {
  it('is current: measured on the sources as they are, so a build runs once', () => {
    const kept = readFirstScreensFile();
    expect(kept, 'apps/web/first-screens.json is missing: run `npm run build` and commit it').not.toBeNull();
    expect(
      kept!.inputs,
      'apps/web/first-screens.json is stale (the web app, the domain or the installed packages changed): run `npm run build`, which measures it again, and commit it',
    ).toBe(firstScreenInputsHash());
  });

  it('names modules that exist, each in one chunk, the entry among them', () => {
    const kept = readFirstScreensFile()!;
    const all = Object.values(kept.chunks).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(kept.chunks.app).toContain('apps/web/src/main.tsx');
    expect(kept.chunks.guest).toContain('apps/web/src/features/auth/login-page.tsx');
    expect(kept.chunks.dashboard).toContain('apps/web/src/features/dashboard/dashboard-page.tsx');
    for (const id of all) expect(existsSync(path.join(root, id.replace(/\?.*$/, ''))), id).toBe(true);
  });
});
