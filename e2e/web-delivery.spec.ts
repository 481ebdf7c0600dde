import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signIn } from './support.ts';

/**
 * The built app as a browser receives it: pre-compressed files, and each page loading only what
 * it shows. The chunk of a module is read from the build's manifest, so renaming a chunk does
 * not hide a regression.
 */
interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
}
const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../apps/web/dist/.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** The file of the chunk whose source path matches. */
function chunkOf(source: RegExp): string {
  const chunk = Object.values(manifest).find((c) => c.src && source.test(c.src));
  if (!chunk) throw new Error(`No chunk for ${source} in the build manifest`);
  return `/${chunk.file}`;
}

/** The file of a chunk shared by several modules, by the name the build gives it (its first module's). */
function sharedChunk(name: string): string {
  const chunk = Object.values(manifest).find((c) => !c.src && c.name === name);
  if (!chunk) throw new Error(`No shared chunk named ${name} in the build manifest`);
  return `/${chunk.file}`;
}

/** What the first screens draw without: the temporary drawers and menus, and other pages. */
const FIRST_SCREEN_FREE = {
  textField: sharedChunk('TextField'),
  modal: sharedChunk('Modal'),
  notificationsPanel: chunkOf(/src\/features\/notifications\/components\/notifications-sidebar\.tsx$/),
  expertSpace: chunkOf(/src\/features\/analysis\/pages\/expert-space-page\.tsx$/),
};

const HEAVY = {
  player: chunkOf(/src\/features\/videos\/pages\/video-detail-page\.tsx$/),
  upload: chunkOf(/node_modules\/tus-js-client\//),
  socket: chunkOf(/node_modules\/socket\.io-client\//),
  legal: chunkOf(/src\/components\/legal\/legal-texts\.tsx$/),
  legalTexts: chunkOf(/src\/locales\/fr\/legal\.json$/),
  english: chunkOf(/src\/locales\/en\/auth\.json$/),
};

/** The paths of the JavaScript files the page requests until it is idle. */
async function scriptsLoaded(page: Page, load: () => Promise<unknown>): Promise<string[]> {
  const scripts: string[] = [];
  const listener = (request: { url(): string }) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts.push(pathname);
  };
  page.on('request', listener);
  await load();
  await page.waitForLoadState('networkidle');
  page.off('request', listener);
  return scripts;
}

test('the sign-in page loads neither the player, the upload and socket clients, the legal texts nor English', async ({ page }) => {
  const scripts = await scriptsLoaded(page, async () => {
    await page.goto('/auth/login');
    await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  });
  expect(scripts.length).toBeGreaterThan(0);
  for (const [name, file] of Object.entries(HEAVY)) expect(scripts, name).not.toContain(file);
  for (const [name, file] of Object.entries(FIRST_SCREEN_FREE)) expect(scripts, name).not.toContain(file);
});

test('the dashboard connects the socket but loads neither the player nor the upload client', async ({ page, cast }) => {
  await signIn(page, cast.learner.email, cast.learner.password);
  const scripts = await scriptsLoaded(page, async () => {
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  });
  expect(scripts).toContain(HEAVY.socket);
  for (const file of [HEAVY.player, HEAVY.upload, HEAVY.legal, HEAVY.english]) expect(scripts).not.toContain(file);
  // At this width the menu is fixed: no temporary drawer, and the notifications panel waits for the bell.
  for (const [name, file] of Object.entries(FIRST_SCREEN_FREE)) expect(scripts, name).not.toContain(file);
});

test('the page, its scripts and styles arrive pre-compressed, the hashed ones cached for good', async ({ page, request }) => {
  const responses: { url: string; encoding: string | undefined; bytes: number }[] = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/assets/') && /\.(js|css)$/.test(pathname)) {
      const headers = response.headers();
      responses.push({ url: pathname, encoding: headers['content-encoding'], bytes: Number(headers['content-length'] ?? 0) });
    }
  });
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(responses.length).toBeGreaterThan(0);
  // Chromium takes brotli; only a tiny file goes plain (compressing it would not save a packet).
  const plain = responses.filter((r) => r.encoding !== 'br');
  expect(responses.length - plain.length).toBeGreaterThan(plain.length);
  for (const response of plain) expect(response.bytes, response.url).toBeLessThan(512);

  const entry = chunkOf(/index\.html$/);
  const gzip = await request.get(entry, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(gzip.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(gzip.headers().vary).toMatch(/accept-encoding/i);

  const html = await request.get('/auth/login', { headers: { 'accept-encoding': 'br' } });
  expect(html.headers()['content-encoding']).toBe('br');
  expect(html.headers()['cache-control']).toBe('no-cache');
});
