import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApi } from '../scripts/build-api.js';
// @ts-expect-error JavaScript without declarations: main.js and scripts/start.js load it before the compile cache is on.
import { freshApiBundle } from '../apps/api/src/boot/bundle.js';

const root = path.resolve(import.meta.dirname, '..');
// Inside apps/api, as the real one: the packages left outside are found from there.
const work = mkdtempSync(path.join(root, 'apps/api/dist.test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const dist = path.join(work, 'dist');
const fresh = freshApiBundle as (dist: string) => string | null;

describe('the bundle of the server (scripts/build-api.js)', () => {
  it('is built once by two builders at once, then is fresh until a source is newer', { timeout: 60_000 }, async () => {
    const runs = await Promise.all([buildApi({ force: true, dist }), buildApi({ force: true, dist })]);
    expect(runs.map((r) => r.built)).toEqual([true, true]);
    // Nothing half-made or left over beside it; one file and its source map.
    expect(readdirSync(work)).toEqual(['dist']);
    expect(readdirSync(dist).sort()).toEqual(['server.js', 'server.js.map']);
    expect(fresh(dist)).toBe(path.join(dist, 'server.js'));
    expect((await buildApi({ dist })).built).toBe(false);
    // Dated before the newest source: the server runs from its sources, and the next start rebuilds it.
    utimesSync(path.join(dist, 'server.js'), new Date('2020-01-01'), new Date('2020-01-01'));
    expect(fresh(dist)).toBeNull();
    expect((await buildApi({ dist })).built).toBe(true);
    expect(fresh(dist)).not.toBeNull();
  });

  it('runs the server: its own files are found where the sources have them, the rest stays outside', () => {
    const bundle = readFileSync(path.join(dist, 'server.js'), 'utf8');
    // The migrations are read from the sources' folder, not from beside the bundle.
    expect(bundle).toContain(JSON.stringify(path.join(root, 'apps/api/src/db')));
    expect(bundle).not.toMatch(/import\.meta\.dirname, "migrations"/);
    // Native and file-reading packages are imported from node_modules.
    expect(bundle).toMatch(/from ?"argon2"|import\("argon2"\)/);
    // The bundle starts the server: with a setting it refuses, it stops with the operator's message.
    const run = spawnSync(process.execPath, [path.join(dist, 'server.js')], {
      cwd: work,
      env: { ...process.env, DATA_DIR: path.join(work, 'data'), PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Invalid configuration:[\s\S]*PORT/);
    expect(existsSync(path.join(work, 'data', 'db'))).toBe(false);
  });
});
