import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdLock } from '../scripts/build-web.js';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'sutura-build-web-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `node scripts/build-web.js` with these arguments; answers its exit code and output. */
function buildWebCommand(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/build-web.js'), ...args], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the web build (scripts/build-web.js)', () => {
  it('takes over the lock of a builder that died', async () => {
    const lock = path.join(work, 'dead.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lock, `${dead.stdout}\n`);
    const release = await holdLock(lock, () => expect.fail('the lock of a dead process is not waited for'));
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it('waits while a live builder holds the lock, and takes it once released', async () => {
    const lock = path.join(work, 'live.lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    writeFileSync(lock, `${holder.pid}\n`);
    let waitedFor: number | undefined;
    let released = false;
    setTimeout(() => {
      released = true;
      rmSync(lock);
      holder.kill();
    }, 600);
    const release = await holdLock(lock, (pid) => (waitedFor = pid));
    expect(waitedFor).toBe(holder.pid);
    expect(released).toBe(true);
    release();
  });

  it('lets two builders run at once: one builds and replaces the old build, the other waits and finds it fresh', async () => {
    // An old build, older than every source.
    const dist = path.join(work, 'web', 'dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), 'old build');
    utimesSync(path.join(dist, 'index.html'), new Date('2020-01-01'), new Date('2020-01-01'));

    const runs = await Promise.all([buildWebCommand(['--dist', dist]), buildWebCommand(['--dist', dist])]);

    for (const run of runs) expect(run.code, run.output).toBe(0);
    const outputs = runs.map((r) => r.output);
    expect(outputs.filter((o) => o.includes('Building the web app…'))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('The web app was built meanwhile.'))).toHaveLength(1);
    const page = readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(page).toContain('<div id="root">');
    expect(existsSync(path.join(dist, '.vite/manifest.json'))).toBe(true);
    // Nothing left beside it: no lock, no folder of a build.
    expect(readdirSync(path.dirname(dist))).toEqual(['dist']);
  }, 900_000);
});
