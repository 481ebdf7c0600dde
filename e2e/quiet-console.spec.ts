import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test, type Cast } from './fixtures.ts';
import { MENU } from '@sutura/domain/menu';
import type { Role } from '@sutura/domain/roles';
import { signIn } from './support.ts';
import { analyseVideo, makeClip, password, prepareVideo, sendVideo, skipSelfAssessment } from './workflow.ts';

/**
 * Normal use makes no noise: every main page of each role, walked as its people walk it, logs no
 * console error and no request answered 4xx or 5xx (a signed-out load, a case that is no best
 * case, a give-back, a submit with ratings missing included).
 */

/** The spec's people, made on its server before the first test. */
let who: Cast;

const media = { dir: '', clip: '' };
const cases = { analysed: '', toAnalyse: '' };

test.beforeAll(async ({ request, cast }) => {
  test.setTimeout(300_000);
  who = cast;
  const [learner, editor, expert] = [cast.learner.email, cast.editor.email, cast.expert.email];
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-quiet-'));
  media.clip = path.join(media.dir, 'case.mp4');
  makeClip(media.clip, 6);
  cases.analysed = await sendVideo(request, learner, media.clip);
  cases.toAnalyse = await sendVideo(request, learner, media.clip);
  const steps = [
    { name: 'Dissection', start: 0.5, end: 2.5 },
    { name: 'Suture', start: 3, end: 5.5 },
  ];
  await prepareVideo(request, editor, learner, cases.analysed, steps, { start: 0, end: 6 });
  await prepareVideo(request, editor, learner, cases.toAnalyse, steps, { start: 0, end: 6 });
  await analyseVideo(request, expert, cases.analysed, 4);
  await skipSelfAssessment(request, learner, cases.analysed);
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

/** Every console error and every request answered 4xx/5xx from now on, with where it happened. */
function watchNoise(page: Page): string[] {
  const noise: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') noise.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => noise.push(`uncaught on ${page.url()}: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) noise.push(`${response.status()} ${response.request().method()} ${response.url()} (on ${page.url()})`);
  });
  return noise;
}

/** Opens a page and lets it settle: its data and media requests done. */
async function visit(page: Page, pathname: string): Promise<void> {
  await page.goto(pathname);
  await page.waitForLoadState('networkidle');
}

async function signedIn(browser: Browser, email: string, width = 1440) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'fr-FR' });
  const page = await context.newPage();
  const noise = watchNoise(page);
  await signIn(page, email, password);
  return { context, page, noise };
}

/** The pages of a role's menu (drawer, tabs and settings), as the app lists them. */
const menuPages = (role: Role) => [...new Set(MENU.filter((entry) => entry.roles.includes(role)).map((entry) => entry.path))];

test('a signed-out visit asks for no session it cannot have, and a session the server dropped is forgotten after one answer', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  const noise = watchNoise(page);
  const sessionAsks: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/auth' && request.method() === 'GET') sessionAsks.push(request.url());
  });
  for (const pathname of ['/auth/login', '/auth/sign-up', '/auth/forgot-password', '/dashboard', '/videos']) await visit(page, pathname);
  await expect(page).toHaveURL(/\/auth\/login/);
  expect(sessionAsks).toEqual([]);
  expect(noise).toEqual([]);

  // Signed in: the readable companion of the httpOnly session cookie says so, and holds no secret.
  await signIn(page, who.learner.email, password);
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'sutura_session')).toMatchObject({ httpOnly: true });
  expect(cookies.find((c) => c.name === 'sutura_signed_in')).toMatchObject({ value: '1', httpOnly: false, sameSite: 'Strict' });
  await visit(page, '/dashboard');
  expect(sessionAsks.length).toBeGreaterThan(0);

  // The session cookie gone (revoked or expired on this device): one refused exchange, then quiet.
  await context.clearCookies({ name: 'sutura_session' });
  const before = noise.length;
  await visit(page, '/dashboard');
  await expect(page).toHaveURL(/\/auth\/login/);
  expect(noise.slice(before).filter((n) => /^401 GET .*\/v1\/auth/.test(n))).toHaveLength(1);
  expect((await context.cookies()).find((c) => c.name === 'sutura_signed_in')).toBeUndefined();
  const quiet = noise.length;
  sessionAsks.length = 0;
  await visit(page, '/auth/login');
  expect(sessionAsks).toEqual([]);
  expect(noise.slice(quiet)).toEqual([]);

  // Signing out clears both cookies.
  await signIn(page, who.learner.email, password);
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/auth\/login/);
  const left = (await context.cookies()).map((c) => c.name);
  expect(left).not.toContain('sutura_session');
  expect(left).not.toContain('sutura_signed_in');
  await context.close();
});

test('a surgeon walks their pages, tabs and cases without a console error or a refused request', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, noise } = await signedIn(browser, who.learner.email);
  for (const pathname of menuPages('learner')) await visit(page, pathname);
  for (const tab of ['mine', 'toAnalyze', 'analysed', 'shared']) await visit(page, `/videos?tab=${tab}`);
  for (const tab of ['overview', 'kpis', 'nasaTlx', 'steps']) await visit(page, `/my-stats?tab=${tab}`);
  // A case that is no best case, analysed and not: its page and every tab of it.
  await visit(page, `/videos/${cases.analysed}`);
  await expect(page.getByTestId('analysis-summary')).toBeVisible();
  for (const tab of ['kpi', 'steps', 'advice']) await page.getByTestId(`detail-tab-${tab}`).click();
  await expect(page.getByTestId('kpi-radar').or(page.getByTestId('result-advice')).first()).toBeVisible();
  await visit(page, `/videos/${cases.toAnalyse}`);
  await expect(page.getByTestId('video-title')).toBeVisible();
  await visit(page, '/videos/add');
  expect(noise).toEqual([]);
  await context.close();
});

test('an editor and an administrator walk their pages without a console error or a refused request', async ({ browser }) => {
  test.setTimeout(180_000);
  for (const [email, role] of [
    [who.editor.email, 'editor'],
    [who.admin.email, 'administrator'],
  ] as const) {
    const { context, page, noise } = await signedIn(browser, email);
    for (const pathname of menuPages(role)) await visit(page, pathname);
    if (role === 'administrator') await visit(page, `/videos/${cases.analysed}`);
    expect(noise, email).toEqual([]);
    await context.close();
  }
});

test('an expert claims, tries to submit with ratings missing, and gives the video back, without a refused request', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, noise } = await signedIn(browser, who.expert.email);
  for (const pathname of menuPages('expert')) await visit(page, pathname);
  await visit(page, `/expert/${cases.analysed}`);

  await visit(page, '/expert');
  const claim = page.locator(`[data-testid="expert-video-card"][data-video-id="${cases.toAnalyse}"]`).getByTestId('expert-claim');
  await claim.click();
  await expect(page.getByTestId('analysis-title')).toBeVisible();

  // One skill rated, then at once (its save still waiting) the submit: the missing ratings are
  // named by the page, without asking the server to refuse it.
  await page.getByTestId('analysis-tab-kpi').click();
  await page.getByTestId('kpi-rating-autonomy').getByRole('radio').first().focus();
  await page.keyboard.press('3');
  await expect(page.getByTestId('kpi-rating-autonomy')).toHaveAttribute('data-value', '3');
  await page.getByTestId('analysis-tab-finalize').click();
  await page.getByTestId('analysis-finalize').click();
  await expect(page.getByTestId('unrated-dialog')).toBeVisible();
  await expect(page.getByTestId('unrated-list').getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('unrated-dialog')).toBeHidden();

  // Another change, and the video given back before its save: nothing reaches the server after the hold is gone.
  await page.getByTestId('analysis-tab-kpi').click();
  await page.getByTestId('kpi-rating-tissueHandling').getByRole('radio').first().focus();
  await page.keyboard.press('4');
  await expect(page.getByTestId('kpi-rating-tissueHandling')).toHaveAttribute('data-value', '4');
  await page.getByTestId('analysis-abandon').click();
  await page.getByTestId('abandon-confirm').click();
  await expect(page).toHaveURL(/\/expert$/);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  expect(noise).toEqual([]);
  await context.close();
});

test('My videos shows the new tab’s skeletons at once, never the previous tab’s cards', async ({ browser }) => {
  const { context, page, noise } = await signedIn(browser, who.learner.email, 390);
  await visit(page, '/videos?tab=toAnalyze');
  await expect(page.getByTestId('video-card').first()).toBeVisible();
  const analysedCards = await page.getByTestId('video-card').count();
  expect(analysedCards).toBeGreaterThan(0);
  // The next tab's answer held back: what shows meanwhile is that tab's loading state.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === '/v1/videos' && (url.searchParams.get('filter') ?? '').includes('tab==mine'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.getByTestId('video-tab-mine').click();
  await expect(page.getByRole('status', { name: 'Chargement des vidéos' })).toBeVisible();
  await expect(page.getByTestId('video-card')).toHaveCount(0);
  release();
  await expect(page.getByTestId('video-card').or(page.getByTestId('video-list-empty')).first()).toBeVisible();
  expect(noise).toEqual([]);
  await context.close();
});
