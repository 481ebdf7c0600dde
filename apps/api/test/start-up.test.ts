import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import webPush from 'web-push';
import { resolveInPackage } from '../src/boot/package-format.ts';
import { generateVapidKeys } from '../src/modules/push/push.service.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const src = path.join(root, 'apps/api/src');
const work = mkdtempSync(path.join(tmpdir(), 'sutura-start-up-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every module of the server, the ones loaded after it answers (demo generators) included. */
const SERVER_MODULES = [
  'app.ts',
  'demo/seed.ts',
  'demo/preparation.ts',
  'jobs/workers.ts',
  'jobs/queue.ts',
  'realtime/socket.ts',
  'db/client.ts',
  'demo/videos.ts',
  'demo/analysis.ts',
  'demo/best-cases.ts',
  'demo/history.ts',
  'modules/analysis/analysis.report.ts',
  'modules/mail/mailer.ts',
];

/** Loads the server's modules in a child Node and lists how each import resolved: `specifier parent -> url format`. */
function resolutions(withShortcut: boolean): Map<string, string> {
  const out = path.join(work, `resolved-${withShortcut}.json`);
  const tracer = path.join(work, `trace-${withShortcut}.mjs`);
  const shortcut = pathToFileURL(path.join(src, 'boot/package-format.ts')).href;
  writeFileSync(
    tracer,
    `import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
${withShortcut ? `const { registerPackageFormatShortcut } = await import(${JSON.stringify(shortcut)}); registerPackageFormatShortcut();` : ''}
const seen = {};
registerHooks({ resolve(specifier, context, next) {
  const r = next(specifier, context);
  seen[specifier + ' ' + context.parentURL] = r.url + ' ' + (r.format ?? '');
  return r;
} });
process.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(seen)));
`,
  );
  const imports = SERVER_MODULES.map((m) => `await import(${JSON.stringify(pathToFileURL(path.join(src, m)).href)});`).join('');
  const run = spawnSync(process.execPath, ['--import', pathToFileURL(tracer).href, '--input-type=module', '-e', imports], {
    cwd: root,
    // The compile cache changes no resolution; it spares the two children compiling the server twice.
    env: { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(tmpdir(), 'node-compile-cache') },
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return new Map(Object.entries(JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>));
}

describe('start-up: the loader shortcuts', () => {
  it('resolve every import of the server exactly as Node does, file and format', () => {
    const node = resolutions(false);
    const shortcut = resolutions(true);
    // The graph is the whole server: drizzle's files and packages imported by name are in it.
    expect(node.size).toBeGreaterThan(1000);
    expect([...node.keys()].some((k) => k.startsWith('./') && k.includes('/node_modules/drizzle-orm/'))).toBe(true);
    expect(Object.fromEntries(shortcut)).toEqual(Object.fromEntries(node));
    // What only some requests need loads with the first of them, not with the server.
    const loaded = new Set([...node.keys()].map((k) => k.split(' ')[0]));
    for (const lazy of ['pdfkit', 'nodemailer', 'web-push', 'sharp', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler']) {
      expect(loaded.has(lazy), lazy).toBe(false);
    }
  }, 120_000);

  it('leaves to Node what it cannot answer for certain', () => {
    const drizzle = pathToFileURL(path.join(root, 'node_modules/drizzle-orm/pg-core/table.js')).href;
    expect(resolveInPackage('./columns/all.js', drizzle)).toEqual({
      url: pathToFileURL(path.join(root, 'node_modules/drizzle-orm/pg-core/columns/all.js')).href,
      format: 'module',
    });
    // A missing file, a package without a type (CommonJS or detected), our own sources, encoded characters.
    expect(resolveInPackage('./nothing-here.js', drizzle)).toBeNull();
    expect(resolveInPackage('./lib/pool.js', pathToFileURL(path.join(root, 'node_modules/pg-pool/index.js')).href)).toBeNull();
    expect(resolveInPackage('./config.ts', pathToFileURL(path.join(src, 'server.ts')).href)).toBeNull();
    expect(resolveInPackage('./columns/%61ll.js', drizzle)).toBeNull();
    expect(resolveInPackage('drizzle-orm', drizzle)).toBeNull();
  });
});

describe('start-up: VAPID keys made without web-push', () => {
  it('have the shape web-push signs with: a P-256 public point and a 32-byte private key', () => {
    for (let i = 0; i < 20; i++) {
      const keys = generateVapidKeys();
      const publicKey = Buffer.from(keys.publicKey, 'base64url');
      expect(publicKey).toHaveLength(65);
      expect(publicKey[0]).toBe(4);
      expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
      const details = webPush.generateRequestDetails(
        { endpoint: 'https://push.example.org/send/1', keys: webPushSubscriberKeys() },
        'hello',
        { vapidDetails: { subject: 'mailto:support@sutura.local', ...keys }, TTL: 60 },
      );
      expect(String(details.headers.Authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${keys.publicKey}$`));
    }
  });
});

/** A browser's subscription keys: its own P-256 public point and an authentication secret. */
function webPushSubscriberKeys(): { p256dh: string; auth: string } {
  return { p256dh: generateVapidKeys().publicKey, auth: Buffer.alloc(16, 7).toString('base64url') };
}
