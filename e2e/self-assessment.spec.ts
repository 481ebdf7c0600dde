import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { KPIS } from '@sutura/domain/analysis';
import { expect, test, type Cast } from './fixtures.ts';
import { checkScreen, settle } from './screens.ts';
import { signIn } from './support.ts';
import { analyseVideo, apiToken, makeClip, password, prepareVideo, sendVideo } from './workflow.ts';

// A learner's two analysed cases: the first rated before its result (then self against expert at
// 1440 and 390 px), the second skipped; once a result is seen, no change is accepted.
test.describe.configure({ mode: 'serial' });

const cases = { rated: '', skipped: '' };
let clip: string;

async function analysedCase(request: APIRequestContext, cast: Cast): Promise<string> {
  const author = cast.learner2.email;
  const videoId = await sendVideo(request, author, clip);
  await prepareVideo(
    request,
    cast.editor.email,
    author,
    videoId,
    [
      { name: 'Exposition', start: 0, end: 3 },
      { name: 'Dissection', start: 3, end: 6 },
    ],
    { start: 0, end: 6 },
  );
  await analyseVideo(request, cast.expert.email, videoId, 3);
  return videoId;
}

async function selfAssessment(request: APIRequestContext, author: string, videoId: string) {
  const headers = { Authorization: `Bearer ${await apiToken(request, author)}` };
  return (await (await request.get(`/v1/videos/${videoId}/self-assessment`, { headers })).json()) as {
    data: { state: string; canRate: boolean; resultSeenAt: string | null };
  };
}

/** Axe on the page, or on one part of it (the result's KPI radar is another screen's: it is checked there). */
async function expectNoAxeViolations(page: Page, part?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  const result = await (part ? builder.include(part) : builder).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * The per-case chart of self against expert: a 1 to 5 axis under the lines, each dot at its level
 * on it, and the legend's dots drawn as the chart's (size, fill and ring). Returns what differs.
 */
async function chartProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const chart = document.querySelector('[data-testid="self-vs-expert"]')!;
    const centre = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.left + r.width / 2;
    };
    const axis = [...chart.querySelectorAll('[data-testid="self-vs-expert-axis"] [data-level]')];
    if (axis.map((el) => el.textContent).join(' ') !== '1 2 3 4 5') problems.push(`axis: ${axis.map((el) => el.textContent).join(' ')}`);
    const tick = (level: number) => centre(axis[level - 1]!);
    // Depth perception: the learner at 4, the expert at 3.
    const row = chart.querySelector('[data-testid="self-vs-expert-depthPerception"]')!;
    for (const [who, level] of [
      ['self', 4],
      ['expert', 3],
    ] as const) {
      const dot = row.querySelector(`[data-dot="${who}"]`);
      if (!dot) problems.push(`no ${who} dot`);
      else if (Math.abs(centre(dot) - tick(level)) > 1.5) problems.push(`${who} dot at ${centre(dot)}, level ${level} at ${tick(level)}`);
    }
    const legend = chart.querySelector('[data-testid="self-vs-expert-legend"]')!;
    for (const who of ['self', 'expert']) {
      const look = (el: Element | null) => {
        if (!el) return 'missing';
        const s = getComputedStyle(el);
        return [s.width, s.height, s.backgroundColor, s.borderTopColor, s.borderTopWidth, s.borderRadius].join(' ');
      };
      const [inLegend, inChart] = [look(legend.querySelector(`[data-dot="${who}"]`)), look(row.querySelector(`[data-dot="${who}"]`))];
      if (inLegend !== inChart) problems.push(`${who}: legend ${inLegend}, chart ${inChart}`);
    }
    return problems;
  });
}

test.beforeAll(() => {
  clip = path.join(mkdtempSync(path.join(tmpdir(), 'sutura-self-assessment-')), 'case.mp4');
  makeClip(clip, 6);
});

test('the learner opens an analysed case, rates the five skills first, then reads self against expert (1440 px, then 390 px dark)', async ({
  browser,
  page,
  request,
  cast,
}) => {
  test.setTimeout(300_000);
  const author = cast.learner2.email;
  cases.rated = await analysedCase(request, cast);
  cases.skipped = await analysedCase(request, cast);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, author, password);
  await page.goto(`/videos/${cases.rated}`);
  const invitation = page.getByTestId('self-assessment-invitation');
  // The first case page of the run loads its code and texts on a busy machine.
  await expect(invitation).toBeVisible({ timeout: 60_000 });
  // The result waits behind the invitation: not shown, not served.
  await expect(page.getByTestId('analysis-summary')).toHaveCount(0);
  expect((await selfAssessment(request, author, cases.rated)).data).toMatchObject({ state: 'open', resultSeenAt: null });
  await settle(page);
  await checkScreen(page, 'self-assessment-invitation-desktop');
  await expectNoAxeViolations(page);

  // Saving needs the five skills; the level's description shows as on the expert's scale.
  const save = page.getByTestId('self-assessment-save');
  await expect(save).toBeDisabled();
  for (const kpi of KPIS)
    await page
      .getByTestId(`self-rating-${kpi}`)
      .locator(`[data-level="${kpi === 'autonomy' ? 2 : 4}"]`)
      .click();
  await expect(page.getByTestId('self-rating-autonomy-goals')).not.toBeEmpty();
  // With the keyboard: the global rating, key 5.
  await page.getByTestId('self-rating-global').locator('[data-level="1"]').focus();
  await page.keyboard.press('5');
  await expect(page.getByTestId('self-rating-global')).toHaveAttribute('data-value', '5');
  await save.dblclick();

  await expect(invitation).toHaveCount(0);
  await expect(page.getByTestId('analysis-summary')).toBeVisible();
  const comparison = page.getByTestId('self-vs-expert');
  await expect(comparison).toBeVisible();
  await expect(comparison.getByTestId('self-vs-expert-table').locator('tbody tr')).toHaveCount(6);
  await expect(comparison.getByTestId('self-vs-expert-depthPerception')).toContainText(/1/);
  await expect(comparison.getByTestId('self-vs-expert-summary')).toContainText(/0/);
  const after = (await selfAssessment(request, author, cases.rated)).data;
  expect(after).toMatchObject({ state: 'submitted', canRate: false });
  expect(after.resultSeenAt).not.toBeNull();
  expect(await chartProblems(page)).toEqual([]);
  await settle(page);
  await checkScreen(page, 'self-assessment-result-desktop');
  await expectNoAxeViolations(page, '[data-testid="self-vs-expert"]');
  await comparison.screenshot({ path: '/tmp/self-vs-expert-case-fr-light-1440.png' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.getByTestId('self-assessment-invitation')).toHaveCount(0);
  await page.getByTestId('detail-tab-kpi').click();
  await expect(page.getByTestId('self-vs-expert')).toBeVisible();
  expect(await chartProblems(page)).toEqual([]);
  await settle(page);
  await checkScreen(page, 'self-assessment-result-phone-dark');
  await expectNoAxeViolations(page, '[data-testid="self-vs-expert"]');
  await page.getByTestId('self-vs-expert').screenshot({ path: '/tmp/self-vs-expert-case-fr-dark-390.png' });

  // The statistics gain self against expert, with its table.
  await page.goto('/my-stats?tab=kpis');
  await expect(page.getByTestId('stats-self-vs-expert')).toBeVisible();
  await expect(page.getByTestId('stats-self-vs-expert-table').locator('tbody tr')).not.toHaveCount(0);
  // Which way: the learner rated four skills 4 and autonomy 2 against the expert's 3, so higher by (4 − 1) / 5 = 0.6.
  const direction = page.getByTestId('stats-self-vs-expert-direction');
  await expect(direction).toHaveText('Vous vous notez plus haut que les experts, de 0,6 en moyenne.');
  await expect(direction).toHaveAttribute('data-direction', 'higher');
  await expect(page.getByTestId('stats-self-vs-expert-direction-depthPerception')).toContainText('plus haut de 1');
  await expect(page.getByTestId('stats-self-vs-expert-direction-autonomy')).toContainText('plus bas de 1');
  await expect(page.getByTestId('stats-self-vs-expert-signed').first()).toHaveText('+0,6');
  await settle(page);
  await checkScreen(page, 'self-assessment-stats-phone-dark');
  await expectNoAxeViolations(page, '[data-testid="stats-self-vs-expert"]');
  await page.getByTestId('stats-self-vs-expert').screenshot({ path: '/tmp/self-vs-expert-stats-fr-dark-390.png' });

  // In English, light, on a desktop.
  const english = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB', colorScheme: 'light' });
  const englishPage = await english.newPage();
  await signIn(englishPage, author, password);
  await englishPage.goto('/my-stats?tab=kpis');
  await expect(englishPage.getByTestId('stats-self-vs-expert-direction')).toHaveText(
    'You rate yourself higher than the experts by 0.6 on average.',
  );
  await expect(englishPage.getByTestId('stats-self-vs-expert-direction-autonomy')).toContainText('lower by 1');
  await expect(englishPage.getByTestId('stats-self-vs-expert-signed').first()).toHaveText('+0.6');
  await settle(englishPage);
  await checkScreen(englishPage, 'self-assessment-stats-desktop-en');
  await expectNoAxeViolations(englishPage, '[data-testid="stats-self-vs-expert"]');
  await englishPage.getByTestId('stats-self-vs-expert').screenshot({ path: '/tmp/self-vs-expert-stats-en-light-1440.png' });
  // The case's chart in English: the same axis and legend.
  await englishPage.goto(`/videos/${cases.rated}`);
  await englishPage.getByTestId('detail-tab-kpi').click();
  await expect(englishPage.getByTestId('self-vs-expert')).toBeVisible();
  expect(await chartProblems(englishPage)).toEqual([]);
  await expect(englishPage.getByTestId('self-vs-expert-legend')).toContainText('You');
  await english.close();
});

test('a second case is skipped: the result follows, and no self-assessment is accepted after it', async ({ page, request, cast }) => {
  const author = cast.learner2.email;
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, author, password);
  await page.goto(`/videos/${cases.skipped}`);
  await expect(page.getByTestId('self-assessment-invitation')).toBeVisible();
  await page.getByTestId('self-assessment-skip').click();
  await expect(page.getByTestId('self-assessment-invitation')).toHaveCount(0);
  await expect(page.getByTestId('analysis-summary')).toBeVisible();
  await page.getByTestId('detail-tab-kpi').click();
  await expect(page.getByTestId('self-vs-expert')).toHaveCount(0);
  // The invitation does not come back.
  await page.reload();
  await expect(page.getByTestId('analysis-summary')).toBeVisible();
  await expect(page.getByTestId('self-assessment-invitation')).toHaveCount(0);

  const headers = { Authorization: `Bearer ${await apiToken(request, author)}`, 'Accept-Language': 'en' };
  const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, 3]));
  for (const videoId of [cases.skipped, cases.rated]) {
    const refused = await request.put(`/v1/videos/${videoId}/self-assessment`, { headers, data: { kpiRatings } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SELF_ASSESSMENT_LOCKED');
  }
  expect((await selfAssessment(request, author, cases.skipped)).data).toMatchObject({ state: 'skipped', canRate: false });
});
