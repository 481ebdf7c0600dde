import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { casePicture, firstDraw, openPage, preparedCase, signedIn, type CaseOptions } from './cases.ts';
import { expect, test, type Person } from './fixtures.ts';
import { apiToken, skipSelfAssessment } from './workflow.ts';

// A case prepared and rendered, then an expert's and a learner's whole sessions: minutes on a busy shared machine.
test.describe.configure({ timeout: 300_000 });

/** The cases of this spec: a 12 s clip, its two steps starting at 1 s and 6 s. */
const twelveSeconds: CaseOptions = {
  seconds: 12,
  steps: [
    { name: 'Dissection', start: 1, end: 5 },
    { name: 'Suture', start: 6, end: 11 },
  ],
};

/** A French desktop window that may record from the microphone, copy and download, where `person` has signed in. */
function open(browser: Browser, person: Person) {
  return signedIn(browser, person, { acceptDownloads: true, permissions: ['microphone', 'clipboard-read', 'clipboard-write'] });
}

/** Opens the learner's page of a case at `address` and waits until its result is drawn. */
function openResult(page: Page, address: string) {
  return openPage(page, address, page.getByTestId('analysis-summary'));
}

test('an expert rates, records, comments and submits anyway; the learner reads the result, its moments and its PDF', async ({
  browser,
  request,
  cast,
}) => {
  const videoId = await preparedCase(request, cast, twelveSeconds);

  // ---- The expert
  const { context: expertContext, page } = await open(browser, cast.expert);
  const card = page.locator(`[data-testid="expert-video-card"][data-video-id="${videoId}"]`);
  await openPage(page, '/expert', card);
  // Prepared a moment ago: not "for 0 hours".
  await expect(card.getByTestId('expert-waiting')).toHaveText("En attente depuis moins d'une heure");
  await card.getByTestId('expert-claim').click();
  await expect(page).toHaveURL(new RegExp(`/expert/${videoId}$`));
  await expect(page.getByTestId('analysis-title')).toBeVisible(firstDraw);
  // The case as the learner gave it.
  await expect(page.getByText('Merci de regarder la suture.')).toBeVisible();

  // Four skills by the keyboard (the fifth left unrated), with each level's GOALS text.
  await page.getByTestId('analysis-tab-kpi').click();
  for (const [kpi, key] of [
    ['depthPerception', '4'],
    ['bimanualDexterity', '3'],
    ['efficiency', '5'],
    ['tissueHandling', '2'],
  ] as const) {
    await page.getByTestId(`kpi-rating-${kpi}`).getByRole('radio').first().focus();
    await page.keyboard.press(key);
    await expect(page.getByTestId(`kpi-rating-${kpi}`)).toHaveAttribute('data-value', key);
    await expect(page.getByTestId(`kpi-rating-${kpi}`).getByRole('radio', { checked: true })).toHaveAttribute('data-level', key);
  }
  await expect(page.getByTestId('kpi-rating-efficiency-goals')).not.toBeEmpty();
  // An arrow moves the choice, as in any radio group.
  await page.getByTestId('kpi-rating-tissueHandling').getByRole('radio', { checked: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('kpi-rating-tissueHandling')).toHaveAttribute('data-value', '3');

  // The first step rated, the second left unrated.
  await page.getByTestId('analysis-tab-rateSteps').click();
  await page.getByTestId('step-rating-0').getByRole('radio').first().focus();
  await page.keyboard.press('5');

  // Global rating, written advice and a voice advice from the fake microphone.
  await page.getByTestId('analysis-tab-advice').click();
  await page.getByTestId('global-rating').getByRole('radio', { name: /^4/ }).click();
  await page.getByTestId('analysis-advice').fill('Garder la traction constante pendant la suture.');
  await page.getByTestId('voice-record').click();
  await expect(page.getByTestId('voice-recorder')).toHaveAttribute('data-state', 'recording');
  await page.waitForTimeout(2500);
  await page.getByTestId('voice-stop').click();
  await expect(page.getByTestId('voice-player')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');

  // Two comments at the steps' starts, through the player's step buttons.
  const steps = page.getByTestId('player-step');
  await steps.nth(1).click();
  await page.getByTestId('comment-add').click();
  await page.getByTestId('comment-text').fill('Bon angle de l’aiguille.');
  await page.getByTestId('comment-save').click();
  await steps.nth(0).click();
  await page.getByTestId('comment-add').click();
  await page.getByTestId('comment-text').fill('Dissection trop près du pédicule.');
  await page.getByTestId('comment-save').click();
  await expect(page.getByTestId('comment-item')).toHaveCount(2);
  await expect(page.getByTestId('timeline-marker')).toHaveCount(2);

  // What stays unrated is listed before sending.
  await page.getByTestId('analysis-tab-finalize').click();
  await page.getByTestId('analysis-finalize').click();
  const unrated = page.getByTestId('unrated-list');
  await expect(unrated).toContainText('Suture');
  await expect(unrated).toContainText('Autonomie');
  await page.getByTestId('confirm-anyway').click();
  await expect(page).toHaveURL(new RegExp(`/expert/${videoId}/complete$`));
  await expect(page.getByTestId('analysis-complete-title')).toBeVisible();
  await expertContext.close();

  // ---- The learner, who declines to rate the case first (the invitation has its own spec)
  await skipSelfAssessment(request, cast.learner.email, videoId);
  const { context, page: learnerPage } = await open(browser, cast.learner);
  await openResult(learnerPage, `/videos/${videoId}`);
  await expect(learnerPage.getByTestId('analysis-global-rating')).toContainText('4/5');
  await learnerPage.getByTestId('detail-tab-kpi').click();
  await expect(learnerPage.getByTestId('kpi-table').getByTestId('rating-badge')).toHaveCount(4);
  await expect(learnerPage.getByTestId('kpi-radar').locator('svg').first()).toBeVisible();
  await learnerPage.getByTestId('detail-tab-advice').click();
  await expect(learnerPage.getByTestId('result-advice')).toContainText('Garder la traction constante');
  await expect(learnerPage.getByTestId('result-voice')).toBeVisible();
  await expect(learnerPage.getByTestId('result-comment')).toHaveCount(2);
  await expect(learnerPage.getByTestId('timeline-marker')).toHaveCount(2);

  // A comment's link opens the player at its moment.
  const link = await learnerPage.getByTestId('result-comment-seek').nth(1).getAttribute('href');
  expect(link).toBe(`/videos/${videoId}?t=6`);
  await openResult(learnerPage, link!);
  await expect
    .poll(() => learnerPage.locator('[data-testid="video-player"] video').evaluate((v: HTMLVideoElement) => Math.round(v.currentTime)))
    .toBe(6);

  // The PDF report, in French, with the advice and the ratings.
  const [download] = await Promise.all([learnerPage.waitForEvent('download'), learnerPage.getByTestId('analysis-report').click()]);
  const pdfPath = await download.path();
  const bytes = new Uint8Array(readFileSync(pdfPath));
  expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-');
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  expect(text).toContain('Garder la traction constante');
  expect(text).toContain('Bon angle de l’aiguille.');

  // Ratings hidden in the preferences: the advice stays, every score goes; and back.
  const showRatings = async (on: boolean) => {
    const toggle = learnerPage.getByTestId('show-ratings');
    await openPage(learnerPage, '/settings/preferences', toggle);
    if ((await toggle.isChecked()) !== on) await toggle.click();
    await expect(toggle).toBeChecked({ checked: on });
    await openResult(learnerPage, `/videos/${videoId}`);
  };
  await showRatings(false);
  await expect(learnerPage.getByTestId('rating-badge')).toHaveCount(0);
  await expect(learnerPage.getByTestId('analysis-global-rating')).toHaveCount(0);
  await learnerPage.getByTestId('detail-tab-advice').click();
  await expect(learnerPage.getByTestId('result-advice')).toContainText('Garder la traction constante');
  await learnerPage.getByTestId('detail-tab-kpi').click();
  await expect(learnerPage.getByTestId('kpi-radar')).toHaveCount(0);
  await showRatings(true);
  await expect(learnerPage.getByTestId('analysis-global-rating')).toContainText('4/5');
  await context.close();
});

/** Every tab of the analysis whole in the window and inside its list: none hidden behind a scroll arrow. */
async function expectEveryTabShown(page: Page, count: number) {
  const tabs = page.getByTestId('analysis-tabs').getByRole('tab');
  await expect(tabs).toHaveCount(count);
  const list = (await page.getByTestId('analysis-tabs').boundingBox())!;
  for (let i = 0; i < count; i++) {
    await expect(tabs.nth(i)).toBeInViewport({ ratio: 1 });
    const box = (await tabs.nth(i).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(list.x - 0.5);
    expect(box.x + box.width).toBeLessThanOrEqual(list.x + list.width + 0.5);
  }
}

test('the expert rates with the video in view: every part shown at 1440 px, the player pinned, one title line on a phone', async ({
  browser,
  request,
  cast,
}) => {
  const videoId = await preparedCase(request, cast, { ...twelveSeconds, pictures: [casePicture()] });
  const headers = { Authorization: `Bearer ${await apiToken(request, cast.expert.email)}` };
  expect((await request.post(`/v1/expert/videos/${videoId}/claim`, { headers, data: {} })).status()).toBe(200);

  // ---- 1440×900
  const { context, page } = await open(browser, cast.expert);
  await openPage(page, `/expert/${videoId}`, page.getByTestId('analysis-title'));
  await expectEveryTabShown(page, 8);

  // The skills rated while the video stays in the window, beside them.
  const player = page.getByTestId('video-player');
  await page.getByTestId('analysis-tab-kpi').click();
  const last = page.getByTestId('kpi-rating-autonomy');
  await last.scrollIntoViewIfNeeded();
  await page.mouse.move(1100, 600);
  await page.mouse.wheel(0, 2000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(150);
  await expect(player).toBeInViewport({ ratio: 1 });
  await expect(last).toBeInViewport();
  await last.getByRole('radio').first().focus();
  await page.keyboard.press('4');
  await expect(last).toHaveAttribute('data-value', '4');
  await expect(player).toBeInViewport({ ratio: 1 });
  // The player still answers its keys from there (Tab order: the video comes first).
  await player.focus();
  await page.keyboard.press('k');
  await expect.poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  await page.keyboard.press('k');
  await context.close();

  // ---- A phone: the title on one line (the whole of it a tap away), the player above the ratings.
  const { context: phone, page: phonePage } = await signedIn(browser, cast.expert, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const title = phonePage.getByTestId('analysis-title');
  await openPage(phonePage, `/expert/${videoId}`, title);
  const lines = await title.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
  expect(lines).toBeLessThan(1.5);
  const fullTitle = (await title.textContent())!;
  await title.tap();
  await expect(phonePage.getByRole('tooltip')).toHaveText(fullTitle);
  await expectEveryTabShown(phonePage, 8);
  await phonePage.getByTestId('analysis-tab-kpi').tap();
  const phonePlayer = phonePage.getByTestId('video-player');
  const autonomy = phonePage.getByTestId('kpi-rating-autonomy');
  await autonomy.scrollIntoViewIfNeeded();
  await expect.poll(() => phonePage.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await expect(phonePlayer).toBeInViewport({ ratio: 1 });
  // Pinned under the header, above what scrolls.
  const playerBox = (await phonePlayer.boundingBox())!;
  expect(playerBox.y).toBeLessThan(120);
  await autonomy.getByRole('radio').nth(2).tap();
  await expect(autonomy).toHaveAttribute('data-value', '3');
  await phone.close();
});
