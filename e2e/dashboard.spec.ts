import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { Dashboard } from '@sutura/domain/dashboard';
import { expect, test } from './fixtures.ts';
import { layoutProblems } from './screens.ts';
import { signIn } from './support.ts';
import { apiToken, makeClip, password, sendVideo } from './workflow.ts';

const media = { dir: '', clip: '' };

test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-dashboard-'));
  media.clip = path.join(media.dir, 'case.mp4');
  makeClip(media.clip, 6);
});
test.afterAll(() => rmSync(media.dir, { recursive: true, force: true }));

async function dashboardOf(request: APIRequestContext, email: string): Promise<Dashboard> {
  const response = await request.get('/v1/dashboard', { headers: { Authorization: `Bearer ${await apiToken(request, email)}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: Dashboard }).data;
}

async function openDashboard(browser: Browser, email: string, options: { width?: number; dark?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: 900 },
    locale: 'fr-FR',
    colorScheme: options.dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByTestId('dashboard-numbers')).toBeVisible();
  return { context, page };
}

const value = (page: Page, testId: string) => page.getByTestId(`${testId}-value`);

test("a learner's and an editor's dashboards show their numbers, readable at 390 px in dark mode", async ({ browser, request, cast }) => {
  const learner = cast.learner.email;
  const editor = cast.editor.email;
  const mine = (await dashboardOf(request, learner)).learner!;
  const { context, page } = await openDashboard(browser, learner, { width: 390, dark: true });
  const section = page.getByRole('region', { name: 'Mes cas' });
  await expect(section).toBeVisible();
  // Each number is read with its label first (the list items are label, then number).
  await expect(page.getByTestId('dashboard-uploaded')).toHaveText(`Cas déposés${mine.uploaded}`);
  await expect(value(page, 'dashboard-waiting')).toHaveText(String(mine.waiting.total));
  await expect(page.getByTestId('dashboard-waiting')).toContainText(
    `${mine.waiting.preparation} de préparation · ${mine.waiting.analysis} d'analyse`,
  );
  await expect(value(page, 'dashboard-analysed')).toHaveText(String(mine.analysed));
  await expect(page.getByTestId('dashboard-latest-feedback')).toContainText('Dernier retour');
  // A result waiting for the learner's self-assessment shows no rating, and says so.
  if (mine.latestFeedback?.awaitingSelfAssessment) {
    await expect(page.getByTestId('dashboard-latest-awaiting')).toContainText('il attend votre auto-évaluation');
    await expect(page.getByTestId('dashboard-latest-rating')).toHaveCount(0);
  } else if (mine.latestFeedback?.globalRating != null) {
    await expect(page.getByTestId('dashboard-latest-rating')).toContainText('Note globale');
    await expect(page.getByTestId('dashboard-latest-awaiting')).toHaveCount(0);
  }
  // Only the learner's section; the spaces stay below the numbers.
  await expect(page.getByTestId('dashboard-editor')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Vos espaces' })).toBeVisible();
  expect(await layoutProblems(page)).toEqual([]);
  await page.getByRole('link', { name: 'Voir mes statistiques' }).click();
  await expect(page).toHaveURL(/\/my-stats$/);
  await context.close();

  const work = (await dashboardOf(request, editor)).editor!;
  const editorSide = await openDashboard(browser, editor, { width: 390, dark: true });
  await expect(editorSide.page.getByRole('region', { name: 'Préparation' })).toBeVisible();
  await expect(value(editorSide.page, 'dashboard-editor-pool')).toHaveText(String(work.pool));
  await expect(value(editorSide.page, 'dashboard-editor-held')).toHaveText(String(work.held.length));
  await expect(value(editorSide.page, 'dashboard-editor-done')).toHaveText(String(work.doneThisMonth));
  await expect(editorSide.page.getByTestId('dashboard-learner')).toHaveCount(0);
  expect(await layoutProblems(editorSide.page)).toEqual([]);
  await editorSide.context.close();
});

test('the numbers change live when someone else acts: a case sent, then claimed', async ({ browser, request, cast }) => {
  test.setTimeout(180_000);
  const learner = cast.learner.email;
  const editor = cast.editor.email;
  const otherEditor = cast.editor2.email;
  const before = { learner: (await dashboardOf(request, learner)).learner!, editor: (await dashboardOf(request, editor)).editor! };
  const learnerSide = await openDashboard(browser, learner);
  const editorSide = await openDashboard(browser, editor);
  await expect(value(editorSide.page, 'dashboard-editor-pool')).toHaveText(String(before.editor.pool));

  // The learner's case is uploaded and sent (by the API, as the learner's phone would): both dashboards follow.
  const videoId = await sendVideo(request, learner, media.clip);
  await expect(value(learnerSide.page, 'dashboard-uploaded')).toHaveText(String(before.learner.uploaded + 1));
  await expect(value(learnerSide.page, 'dashboard-waiting')).toHaveText(String(before.learner.waiting.total + 1));
  await expect(value(editorSide.page, 'dashboard-editor-pool')).toHaveText(String(before.editor.pool + 1));

  // Another editor claims it: it leaves this editor's pool, still waiting for the learner.
  const claim = await request.post(`/v1/editor/videos/${videoId}/claim`, {
    headers: { Authorization: `Bearer ${await apiToken(request, otherEditor)}` },
    data: {},
  });
  expect(claim.status()).toBe(200);
  await expect(value(editorSide.page, 'dashboard-editor-pool')).toHaveText(String(before.editor.pool));
  await expect(value(learnerSide.page, 'dashboard-waiting')).toHaveText(String(before.learner.waiting.total + 1));
  await expect(learnerSide.page.getByTestId('dashboard-waiting')).toContainText(`${before.learner.waiting.preparation + 1} de préparation`);

  // The claimer's own dashboard lists the case with the hours left and a link to continue.
  const claimer = await openDashboard(browser, otherEditor);
  const held = claimer.page.getByTestId('dashboard-editor-held-item');
  await expect(held).toHaveCount(1);
  await expect(held).toContainText('12 heures restantes');
  await expect(held.getByRole('link', { name: 'Reprendre' })).toHaveAttribute('href', `/editor/${videoId}`);
  // Given back, the case returns to the first editor's pool live.
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
  await request.post(`/v1/editor/videos/${videoId}/release`, {
    headers: { Authorization: `Bearer ${await apiToken(request, otherEditor)}` },
    data: { fencingToken },
  });
  await expect(value(editorSide.page, 'dashboard-editor-pool')).toHaveText(String(before.editor.pool + 1));
  await expect(held).toHaveCount(0);
  for (const side of [learnerSide, editorSide, claimer]) await side.context.close();
});
