import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test, type Cast } from './fixtures.ts';
import { checkScreen, settle, WCAG_TAGS } from './screens.ts';
import { signIn } from './support.ts';
import { analyseVideo, apiToken, makeClip, password, prepareVideo, sendVideo } from './workflow.ts';

// A learner's case drawn for a second review (the installation's share at 100 %): while only the
// first review is in, the learner reads nothing of it and sees the "second expert" status, and the
// second expert's workspace shows nothing of it either; once both are in, the learner reads them
// side by side with their mean, each signed, and the skill the experts disagreed on, at 1440 and
// 390 px, light and dark, in French and in English.
test.describe.configure({ mode: 'serial' });

/** The learner and the two experts, by the spec's people (cast.learner2, cast.expert, cast.expert2). */
function people(cast: Cast) {
  const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;
  return {
    learner: cast.learner2.email,
    first: { email: cast.expert.email, name: name(cast.expert) },
    second: { email: cast.expert2.email, name: name(cast.expert2) },
  };
}
const texts = {
  firstComment: 'Exposition trop haute, reprendre le champ.',
  firstAdvice: 'Descendre la caméra avant la dissection.',
  secondComment: 'Bonne traction sur le pédicule.',
  secondAdvice: 'Garder cette économie de gestes.',
};
const media = { dir: '', clip: '' };
let videoId = '';
const SECOND_EXPERT_FR = "En cours d'analyse par un second expert";

test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-double-review-'));
  media.clip = path.join(media.dir, 'case.mp4');
  makeClip(media.clip, 6);
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

async function setShare(request: APIRequestContext, adminEmail: string, share: number): Promise<number> {
  const headers = { Authorization: `Bearer ${await apiToken(request, adminEmail)}` };
  const before = await request.get('/v1/admin/review-settings', { headers });
  expect(before.status(), await before.text()).toBe(200);
  const previous = ((await before.json()) as { data: { secondReviewShare: number } }).data.secondReviewShare;
  const put = await request.put('/v1/admin/review-settings', { headers, data: { secondReviewShare: share } });
  expect(put.status(), await put.text()).toBe(200);
  return previous;
}

async function open(browser: Browser, email: string, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, locale: 'fr-FR' });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

/** Axe over the whole page: no serious or critical violation. */
async function expectNoSeriousAxeViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('while only the first review is in, neither the learner nor the second expert reads anything of it', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(300_000);
  const { learner, first, second } = people(cast);
  // A fresh installation reviews every case once; here every case is drawn for a second review.
  expect(await setShare(request, cast.admin.email, 100)).toBe(0);
  videoId = await sendVideo(request, learner, media.clip);
  await prepareVideo(
    request,
    cast.editor.email,
    learner,
    videoId,
    [
      { name: 'Exposition', start: 0, end: 3 },
      { name: 'Dissection', start: 3, end: 6 },
    ],
    { start: 0, end: 6 },
  );
  await analyseVideo(request, first.email, videoId, 4, {
    stepRating: 3,
    assessment: 'Premier avis : geste prudent.',
    advice: texts.firstAdvice,
    comments: [{ start: 1, text: texts.firstComment }],
  });
  const learnerHeaders = { Authorization: `Bearer ${await apiToken(request, learner)}` };
  const detail = (await (await request.get(`/v1/videos/${videoId}`, { headers: learnerHeaders })).json()) as {
    data: { status: string; resultShown: boolean };
  };
  expect(detail.data).toMatchObject({ status: 'pending_review', resultShown: false });

  // The learner: the case is with a second expert, in the list and on its page; nothing of the first review.
  const { context, page } = await open(browser, learner);
  await page.goto('/videos?tab=toAnalyze');
  const card = page.getByTestId('video-card').filter({ has: page.locator(`a[href="/videos/${videoId}"]`) });
  await expect(card.getByTestId('video-status')).toHaveText(SECOND_EXPERT_FR, { timeout: 30_000 });
  await page.goto(`/videos/${videoId}`);
  // The case page's code is loaded for the first time here: on a busy machine it takes its time.
  await expect(page.getByTestId('video-status')).toHaveText(SECOND_EXPERT_FR, { timeout: 30_000 });
  await expect(page.getByTestId('detail-tab-global')).toBeVisible();
  await expect(page.getByTestId('self-assessment-invitation')).toHaveCount(0);
  await expect(page.getByTestId('analysis-summary')).toHaveCount(0);
  await expect(page.getByTestId('detail-tab-kpi')).toHaveCount(0);
  await expect(page.getByTestId('result-comment')).toHaveCount(0);
  await expect(page.getByText(texts.firstComment)).toHaveCount(0);
  await expect(page.getByText(texts.firstAdvice)).toHaveCount(0);
  await expect(page.getByTestId('rating-badge')).toHaveCount(0);
  await context.close();

  // The second expert: their own comment in their workspace, none of the first expert's.
  await analyseVideo(request, second.email, videoId, 4, {
    kpiRatings: { tissueHandling: 2 },
    stepRating: 4,
    assessment: 'Second avis : bonne économie de gestes.',
    advice: texts.secondAdvice,
    comments: [{ start: 4, text: texts.secondComment }],
    beforeSubmit: async () => {
      const expert = await open(browser, second.email);
      await expert.page.goto(`/expert/${videoId}`);
      await expect(expert.page.getByTestId('analysis-title')).toBeVisible({ timeout: 45_000 });
      await expect(expert.page.getByTestId('comment-item')).toHaveCount(1);
      await expect(expert.page.getByTestId('comment-item')).toContainText(texts.secondComment);
      await expect(expert.page.getByText(texts.firstComment)).toHaveCount(0);
      await expect(expert.page.getByText(first.name)).toHaveCount(0);
      expect(await expert.page.content()).not.toContain(texts.firstAdvice);
      await expert.context.close();
    },
  });
});

test('the learner reads both reviews side by side with their mean, signed, and the skill they disagreed on', async ({ browser, cast }) => {
  test.setTimeout(240_000);
  const { learner, first, second } = people(cast);
  expect(videoId).not.toBe('');
  const { context, page } = await open(browser, learner);
  await page.goto(`/videos/${videoId}`);
  // The self-assessment comes first: declined, the result follows.
  await expect(page.getByTestId('self-assessment-invitation')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('self-assessment-skip').click();
  const summary = page.getByTestId('analysis-summary');
  await expect(summary).toBeVisible();
  await expect(page.getByTestId('video-status')).toHaveText('Analysée');

  // Both experts, each with their global rating, and the mean.
  await expect(summary.getByRole('heading', { name: 'L’analyse des experts' })).toBeVisible();
  await expect(summary.getByTestId('analysis-review')).toHaveCount(2);
  await expect(summary.getByTestId('analysis-review').nth(0)).toContainText(first.name);
  await expect(summary.getByTestId('analysis-review').nth(1)).toContainText(second.name);
  await expect(summary.getByTestId('analysis-review-global')).toHaveCount(2);
  for (const global of await summary.getByTestId('analysis-review-global').all()) await expect(global).toContainText('4/5 · Bon');
  await expect(summary.getByTestId('analysis-global-mean')).toContainText('4/5');

  // The disagreement: tissue handling only, explained.
  const notice = page.getByTestId('disagreement-notice');
  await expect(notice).toContainText('Les experts ne sont pas d’accord');
  await expect(notice.getByTestId('disagreement-item')).toHaveCount(1);
  await expect(notice.getByTestId('disagreement-item')).toContainText('Manipulation des tissus');
  await expect(notice).toContainText('2 niveaux ou plus');
  await expect(page.getByTestId('further-review-notice')).toHaveCount(0);

  // Every comment signed by its expert, in time order.
  const comments = page.getByTestId('result-comment');
  await expect(comments).toHaveCount(2);
  await expect(comments.nth(0)).toContainText(`Par ${first.name}`);
  await expect(comments.nth(0)).toContainText(texts.firstComment);
  await expect(comments.nth(1)).toContainText(`Par ${second.name}`);
  await expect(comments.nth(1)).toContainText(texts.secondComment);

  // KPIs: a table with each expert's column and the mean.
  await page.getByTestId('detail-tab-kpi').click();
  const kpis = page.getByTestId('kpi-compare');
  await expect(kpis).toHaveAttribute('data-layout', 'table');
  for (const header of ['Compétence', first.name, second.name, 'Moyenne'])
    await expect(kpis.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  const tissue = kpis.locator('[data-key="tissueHandling"]');
  await expect(tissue.getByRole('rowheader')).toContainText('Manipulation des tissus');
  await expect(tissue.getByTestId('rating-badge')).toHaveText(['4/5 · Bon', '2/5 · À améliorer']);
  await expect(tissue.getByTestId('rating-mean')).toHaveText('3/5');
  await expect(kpis.locator('[data-key="autonomy"]').getByTestId('rating-mean')).toHaveText('4/5');
  await expect(page.getByTestId('kpi-radar').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('kpi-radar')).toContainText('Moyenne des experts');
  await settle(page);
  await checkScreen(page, 'double-review-kpi-desktop');
  await expectNoSeriousAxeViolations(page);

  // Steps: 3 and 4, a mean of 3.5 written the French way.
  await page.getByTestId('detail-tab-steps').click();
  const steps = page.getByTestId('step-compare');
  await expect(steps.getByTestId('step-compare-row')).toHaveCount(2);
  await expect(steps.getByTestId('rating-mean')).toHaveText(['3,5/5', '3,5/5']);

  // Advice: each expert's under their name.
  await page.getByTestId('detail-tab-advice').click();
  const advice = page.getByTestId('result-review-advice');
  await expect(advice).toHaveCount(2);
  await expect(advice.nth(0).getByRole('heading', { name: `Analyse de ${first.name}` })).toBeVisible();
  await expect(advice.nth(0)).toContainText(texts.firstAdvice);
  await expect(advice.nth(1).getByRole('heading', { name: `Analyse de ${second.name}` })).toBeVisible();
  await expect(advice.nth(1)).toContainText(texts.secondAdvice);
  await settle(page);
  await expectNoSeriousAxeViolations(page);

  // A phone, dark: the KPIs as one card per skill, each value named by its expert.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.getByTestId('analysis-summary')).toBeVisible();
  await page.getByTestId('detail-tab-kpi').click();
  const cards = page.getByTestId('kpi-compare');
  await expect(cards).toHaveAttribute('data-layout', 'cards');
  const card = cards.locator('[data-key="tissueHandling"]');
  await expect(card.locator('dt')).toHaveText([first.name, second.name, 'Moyenne']);
  await expect(card.getByTestId('rating-mean')).toHaveText('3/5');
  await settle(page);
  await checkScreen(page, 'double-review-kpi-phone-dark');
  await expectNoSeriousAxeViolations(page);
  await page.getByTestId('detail-tab-steps').click();
  await expect(page.getByTestId('step-compare')).toHaveAttribute('data-layout', 'cards');
  await settle(page);
  await checkScreen(page, 'double-review-steps-phone-dark');
  await expectNoSeriousAxeViolations(page);

  // In English.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: "The experts' analysis" })).toBeVisible();
  await expect(page.getByTestId('disagreement-notice')).toContainText('The experts disagreed');
  await expect(page.getByTestId('disagreement-item')).toContainText('Tissue handling');
  await expect(page.getByTestId('result-comment').nth(1)).toContainText(`By ${second.name}`);
  await page.getByTestId('detail-tab-kpi').click();
  await expect(page.getByTestId('kpi-compare').locator('[data-key="tissueHandling"] dt').last()).toHaveText('Mean');
  await page.getByTestId('detail-tab-steps').click();
  await expect(page.getByTestId('step-compare').getByTestId('rating-mean').first()).toHaveText('3.5/5');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('detail-tab-advice').click();
  await expect(page.getByRole('heading', { name: `Review by ${second.name}` })).toBeVisible();
  await settle(page);
  await checkScreen(page, 'double-review-advice-desktop-en');
  await expectNoSeriousAxeViolations(page);

  // And back to French from the same menu.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await context.close();
});
