import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { checkScreen, settle } from './screens.ts';
import { measureEllipse, signIn } from './support.ts';
import { analyseVideo, apiToken, makeClip, password, prepareVideo, publishBestCase, sendVideo, setLanguage } from './workflow.ts';

// A learner's analysed case and a published best case of the same surgery, compared step by step:
// the case has steps 1, 2 and 3 of the surgery, the best case 1, 2 and 4 (with a note on step 1).
// The surgery is the spec's own, added to the vocabulary with four steps; each test sets the
// language of the people it signs in.
test.describe.configure({ mode: 'serial' });

const suffix = Date.now().toString(36);
const title = { fr: `Référence à comparer ${suffix}`, en: `Reference to compare ${suffix}` };
let videoId: string;
let vocabulary: { id: string; name: string }[];
let surgery: { id: string; organId: string | null; steps: { id: string }[] };

test.beforeAll(async ({ request, cast }) => {
  test.setTimeout(300_000);
  const work = mkdtempSync(path.join(tmpdir(), 'sutura-compare-'));
  const caseClip = path.join(work, 'case.mp4');
  const bestClip = path.join(work, 'best.mp4');
  makeClip(caseClip, 12);
  makeClip(bestClip, 10);
  // The spec's surgery, added last to the vocabulary, with four steps.
  const admin = { Authorization: `Bearer ${await apiToken(request, cast.admin.email)}` };
  const created = async (url: string, data: object) => {
    const res = await request.post(url, { headers: admin, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const surgeries = (await (await request.get('/v1/vocabularies/surgeries?langCode=en')).json()) as {
    data: { organId: string | null }[];
  };
  const organId = surgeries.data.find((s) => s.organId)!.organId;
  const surgeryId = await created('/v1/admin/vocabularies/surgeries', {
    nameFr: `Chirurgie comparée ${suffix}`,
    nameEn: `Compared surgery ${suffix}`,
    organId,
  });
  vocabulary = [];
  for (const [fr, en] of [
    ['Exposition', 'Exposure'],
    ['Dissection', 'Dissection'],
    ['Anastomose', 'Anastomosis'],
    ['Fermeture', 'Closure'],
  ] as const) {
    const name = `${en} ${suffix}`;
    vocabulary.push({
      id: await created(`/v1/admin/vocabularies/surgeries/${surgeryId}/steps`, { nameFr: `${fr} ${suffix}`, nameEn: name }),
      name,
    });
  }
  surgery = { id: surgeryId, organId, steps: vocabulary };

  videoId = await sendVideo(request, cast.learner.email, caseClip, false, { surgery });
  // Steps 1, 2 and 3 of the surgery's vocabulary, 4 s, 5 s and 3 s long.
  const marked = [
    { surgeryStepId: vocabulary[0]!.id, name: '', start: 0, end: 4 },
    { surgeryStepId: vocabulary[1]!.id, name: '', start: 4, end: 9 },
    { surgeryStepId: vocabulary[2]!.id, name: '', start: 9, end: 12 },
  ];
  await prepareVideo(request, cast.editor.email, cast.learner.email, videoId, marked, { start: 0, end: 12 });
  await analyseVideo(request, cast.expert.email, videoId, 4);
  await publishBestCase(request, cast.admin.email, bestClip, surgery, title, [
    { surgeryStepId: vocabulary[0]!.id, start: 0 },
    { surgeryStepId: vocabulary[1]!.id, start: 3 },
    { surgeryStepId: vocabulary[3]!.id, start: 6 },
  ]);
});

/** Where each player of the comparison stands. */
function players(page: Page) {
  return page.evaluate(() => {
    const at = (id: string) => {
      const v = document.querySelector<HTMLVideoElement>(`[data-testid="${id}"] video`)!;
      return { time: v.currentTime, paused: v.paused };
    };
    return { mine: at('compare-player-case'), best: at('compare-player-best') };
  });
}

/** From the case's page to the comparison with this spec's best case: the only one of its surgery, so the page goes straight to it. */
async function openComparison(page: Page) {
  await page.goto(`/videos/${videoId}`);
  // Generous waits: the machines running this are shared and sometimes very busy.
  await page.getByTestId('compare-with-best-case').click({ timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`/videos/${videoId}/compare`), { timeout: 30_000 });
  const steps = page.getByTestId('compare-steps');
  await expect(steps).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare-heading')).toContainText(suffix);
  // Both videos loaded, so that a seek lands at once.
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLVideoElement>('[data-testid^="compare-player-"] video')].every((v) => v.readyState >= 1),
  );
}

test('a learner compares their analysed case with a best case at 1440 px: side by side, steps matched, a step seeks both, step by step', async ({
  browser,
  request,
  cast,
}) => {
  const learner = cast.learner.email;
  // Two players, the page's checks and nine seconds of playing, on a machine that may be shared.
  test.setTimeout(240_000);
  await setLanguage(request, learner, 'en');
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, learner, password);
  await openComparison(page);

  // Side by side.
  const mine = (await page.getByTestId('compare-player-case').boundingBox())!;
  const best = (await page.getByTestId('compare-player-best').boundingBox())!;
  expect(Math.abs(mine.y - best.y)).toBeLessThan(2);
  expect(best.x).toBeGreaterThan(mine.x + mine.width - 1);

  // The rows: steps 1 and 2 in both, 3 only in the case, 4 only in the best case.
  const rows = page.getByTestId('compare-step');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText(vocabulary[0]!.name);
  await expect(rows.nth(0).getByTestId('compare-step-case-duration')).toHaveText('The case: 0:04');
  await expect(rows.nth(0).getByTestId('compare-step-best-duration')).toHaveText('Best case: 0:03');
  await expect(rows.nth(0).getByTestId('compare-step-difference')).toHaveText('0:01 longer than the best case');
  await expect(rows.nth(0).getByTestId('compare-step-note')).toContainText('Expose before you dissect.');
  await expect(rows.nth(1).getByTestId('compare-step-difference')).toHaveText('0:02 longer than the best case');
  await expect(rows.nth(2)).toContainText(vocabulary[2]!.name);
  await expect(rows.nth(2).getByTestId('compare-step-unmatched')).toHaveText('Not in the best case');
  await expect(rows.nth(3)).toContainText(vocabulary[3]!.name);
  await expect(rows.nth(3).getByTestId('compare-step-unmatched')).toHaveText('Only in the best case: missing in the case');
  await expect(page.getByTestId('compare-match-summary')).toHaveText('2 steps do not match between the two videos.');

  // Choosing step 2 sends both videos to its start (4 s in the case, 3 s in the best case).
  await rows.nth(1).click();
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect.poll(async () => (await players(page)).mine.time).toBeCloseTo(4, 1);
  await expect.poll(async () => (await players(page)).best.time).toBeCloseTo(3, 1);
  // Step 3 is only in the case: the best case stays where it was.
  await rows.nth(2).click();
  await expect.poll(async () => (await players(page)).mine.time).toBeCloseTo(9, 1);
  expect((await players(page)).best.time).toBeCloseTo(3, 1);

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await settle(page);
  await checkScreen(page, 'compare-desktop-light');

  // Step by step from the first step: step 1 on both; the best case's (3 s) ends first and waits
  // for the case's (4 s); then step 2; then it stops at the ends of step 2 (9 s and 6 s).
  await rows.nth(0).click();
  await expect(rows.nth(0)).toHaveAttribute('aria-current', 'step');
  // What happens is recorded as it happens in the page (each pause of the best case, with where
  // the case stands then, and every status read out), not sampled from here: a busy machine may
  // look too late at a moment that lasts a second.
  await page.evaluate(() => {
    const best = document.querySelector<HTMLVideoElement>('[data-testid="compare-player-best"] video')!;
    const mine = document.querySelector<HTMLVideoElement>('[data-testid="compare-player-case"] video')!;
    const status = document.querySelector('[data-testid="compare-play-status"]')!;
    const record = { pauses: [] as { best: number; mine: number; minePaused: boolean }[], statuses: [] as string[] };
    (window as unknown as { stepByStep: typeof record }).stepByStep = record;
    best.addEventListener('pause', () => record.pauses.push({ best: best.currentTime, mine: mine.currentTime, minePaused: mine.paused }));
    new MutationObserver(() => record.statuses.push(status.textContent ?? '')).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await page.getByTestId('compare-play-steps').click();
  const status = page.getByTestId('compare-play-status');
  await expect(status).toHaveText('Every matched step has been played.', { timeout: 15_000 });
  const end = await players(page);
  expect(end.mine.paused && end.best.paused).toBe(true);
  expect(end.mine.time).toBeGreaterThanOrEqual(8.8);
  expect(end.mine.time).toBeLessThan(9.6);
  expect(end.best.time).toBeGreaterThanOrEqual(5.8);
  expect(end.best.time).toBeLessThan(6.6);
  const record = await page.evaluate(
    () =>
      (window as unknown as { stepByStep: { pauses: { best: number; mine: number; minePaused: boolean }[]; statuses: string[] } })
        .stepByStep,
  );
  // The best case paused at the end of each of its steps (3 s, then 6 s), the case then never past
  // the end of its own (4 s, 9 s): the next step waited for both.
  for (const [bestEnd, caseEnd] of [
    [3, 4],
    [6, 9],
  ] as const) {
    expect(
      record.pauses.some((p) => Math.abs(p.best - bestEnd) < 0.6 && p.mine < caseEnd + 0.6),
      `the best case paused at ${bestEnd} s: ${JSON.stringify(record.pauses)}`,
    ).toBe(true);
  }
  // Step 1, then step 2, read out in order; the shorter video waited for the longer one (the
  // step-2 wait lasts 2 s; the step-1 one, 1 s, a busy machine may not give a frame to).
  const playing = [1, 2].map((n) => record.statuses.indexOf(`Playing step ${n}: ${vocabulary[n - 1]!.name}`));
  expect(playing[0], JSON.stringify(record.statuses)).toBeGreaterThanOrEqual(0);
  expect(playing[1], JSON.stringify(record.statuses)).toBeGreaterThan(playing[0]!);
  expect(record.statuses.filter((t) => /^Waiting for the longer video to finish step [12]$/.test(t)).length).toBeGreaterThan(0);
  expect(record.statuses.some((t) => t.startsWith('Step '))).toBe(false);
  await context.close();
});

test('at 390 px in dark mode and in French, the comparison is stacked and works with the keyboard alone', async ({
  browser,
  request,
  cast,
}) => {
  const learner = cast.learner.email;
  // On a machine that may be shared, sign-ins, players and axe take their time.
  test.setTimeout(180_000);
  await setLanguage(request, learner, 'fr');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR', colorScheme: 'dark' });
  const page = await context.newPage();
  await signIn(page, learner, password);
  await openComparison(page);

  // One above the other.
  const mine = (await page.getByTestId('compare-player-case').boundingBox())!;
  const best = (await page.getByTestId('compare-player-best').boundingBox())!;
  expect(best.y).toBeGreaterThan(mine.y + mine.height - 1);
  await expect(page.getByTestId('compare-match-summary')).toHaveText('2 étapes ne correspondent pas entre les deux vidéos.');
  await expect(page.getByTestId('compare-step').nth(2).getByTestId('compare-step-unmatched')).toHaveText('Absente du best case');

  // Keyboard only: Tab to the second step, Enter sends both videos to its start.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
  const tabTo = async (testId: string, nth = 0) => {
    let seen = 0;
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if ((await focused()) === testId && seen++ === nth) return;
    }
    throw new Error(`${testId} not reached by the keyboard`);
  };
  await page.locator('body').focus();
  await tabTo('compare-step', 1);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await players(page)).mine.time).toBeCloseTo(4, 1);
  await expect.poll(async () => (await players(page)).best.time).toBeCloseTo(3, 1);
  await expect(page.getByTestId('compare-step').nth(1)).toHaveAttribute('aria-current', 'step');

  // Back to the play controls with Shift+Tab, play step by step, then stop.
  for (let i = 0; i < 10 && (await focused()) !== 'compare-play-steps'; i++) await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBe('compare-play-steps');
  // Play, then at once Tab to Stop and press it (on a loaded machine a step may end meanwhile).
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  expect(await focused()).toBe('compare-stop');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('compare-play-status')).toHaveText('');
  const stopped = await players(page);
  expect(stopped.mine.paused && stopped.best.paused).toBe(true);

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await settle(page);
  await checkScreen(page, 'compare-phone-dark');
  await context.close();
});

test('a best case page opens the comparison too, and says so plainly when no other best case of the surgery is published', async ({
  browser,
  request,
  cast,
}) => {
  const learner = cast.learner.email;
  // On a machine that may be shared, sign-ins, players and axe take their time.
  test.setTimeout(180_000);
  await setLanguage(request, learner, 'en');
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', colorScheme: 'dark' });
  const page = await context.newPage();
  await signIn(page, learner, password);
  const headers = { Authorization: `Bearer ${await apiToken(page.request, learner)}` };
  const choices = (await (await page.request.get(`/v1/videos/${videoId}/comparison`, { headers })).json()) as {
    data: { bestCases: { id: string; title: string }[] };
  };
  // The spec's surgery has one published best case: this one.
  expect(choices.data.bestCases.map((b) => b.title)).toEqual([title.en]);
  const mine = choices.data.bestCases[0]!;
  await page.goto(`/best-cases/${mine.id}`);
  await page.getByTestId('compare-with-best-case').click({ timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`/best-cases/${mine.id}/compare`));
  await expect(page.getByTestId('compare-none')).toHaveText(
    'No best case of this surgery is published yet: there is nothing to compare with for now.',
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('compare-choice')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  await checkScreen(page, 'compare-best-case-desktop-dark');
  await context.close();
});

test('the administrator writes the notes of the best case steps (390 px), and the comparison shows them in the reader’s language', async ({
  browser,
  request,
  cast,
}) => {
  const learner = cast.learner.email;
  const administrator = cast.admin.email;
  // On a machine that may be shared, sign-ins, players and axe take their time.
  test.setTimeout(180_000);
  await setLanguage(request, administrator, 'fr');
  await setLanguage(request, learner, 'en');
  const admin = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  const page = await admin.newPage();
  await signIn(page, administrator, password);
  await page.goto('/admin/best-cases');
  const row = page.getByTestId('admin-best-case').filter({ hasText: title.fr });
  await row.getByTestId('best-case-notes').click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog', { name: 'Notes sur les étapes' });
  await expect(dialog).toBeVisible();
  // The note written before is there; the second step gets one in French only.
  await expect(dialog.getByTestId('best-case-note-fr').first()).toHaveValue('Exposez avant de disséquer.');
  await dialog.getByTestId('best-case-note-fr').nth(1).fill('Gardez la caméra fixe pendant la dissection.');
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations).toEqual([]);
  await checkScreen(page, 'best-case-notes-phone-light');
  await dialog.getByTestId('best-case-save-notes').click({ timeout: 60_000 });
  await expect(dialog).toBeHidden();
  await admin.close();

  // An English reader sees the French note where no English one was written.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const learnerPage = await context.newPage();
  await signIn(learnerPage, learner, password);
  await openComparison(learnerPage);
  const rows = learnerPage.getByTestId('compare-step');
  await expect(rows.nth(0).getByTestId('compare-step-note')).toContainText('Expose before you dissect.');
  await expect(rows.nth(1).getByTestId('compare-step-note')).toContainText('Gardez la caméra fixe pendant la dissection.');
  await context.close();
});

/** A point of the picture (video coordinates) in page pixels, from the drawing surface's box. */
async function at(page: Page, x: number, y: number): Promise<[number, number]> {
  const box = (await page.getByTestId('drawing-surface').boundingBox())!;
  return [box.x + x * box.width, box.y + y * box.height];
}

test('the administrator draws on a frame of the best case and writes the note of its step; the learner finds both in the comparison, the drawing in place at 1440 px and 390 px', async ({
  browser,
  request,
  cast,
}) => {
  const learner = cast.learner.email;
  const administrator = cast.admin.email;
  test.setTimeout(240_000);
  await setLanguage(request, administrator, 'fr');
  await setLanguage(request, learner, 'en');
  const note = 'Ici, l’uretère croise les vaisseaux.';
  const admin = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'fr-FR' });
  const page = await admin.newPage();
  await signIn(page, administrator, password);
  await page.goto('/admin/best-cases');
  const row = page.getByTestId('admin-best-case').filter({ hasText: title.fr });
  await row.getByTestId('best-case-drawings-open').click({ timeout: 60_000 });
  const dialog = page.getByRole('dialog', { name: 'Dessins pédagogiques' });
  const video = dialog.locator('[data-testid="video-player"] video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  // A frame of the step only the best case has (6 s to 10 s), away from the steps played step by step.
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 7;
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.seeking && Math.abs(v.currentTime - 7) < 0.01)).toBe(true);
  await dialog.getByTestId('drawing-start').click();
  await expect(dialog.getByTestId('drawing-surface')).toBeVisible();
  await dialog.getByTestId('drawing-tool-ellipse').click();
  await dialog.getByTestId('drawing-color-cyan').click();
  await page.mouse.move(...(await at(page, 0.4, 0.45)));
  await page.mouse.down();
  await page.mouse.move(...(await at(page, 0.55, 0.6)), { steps: 8 });
  await page.mouse.up();
  await expect(dialog.getByTestId('drawing-surface').getByTestId('drawing-shape')).toHaveCount(1);
  await dialog.getByTestId('drawing-comment-text').fill(note);
  await dialog.getByTestId('drawing-save').click();
  await expect(dialog.getByTestId('drawing-composer')).toHaveCount(0);
  await expect(dialog.getByTestId('best-case-drawings')).toContainText(note);

  // Stored as vectors in video coordinates, on the frame's time.
  const bestCaseId = (
    (await (
      await request.get(`/v1/videos/${videoId}/comparison`, { headers: { Authorization: `Bearer ${await apiToken(request, learner)}` } })
    ).json()) as { data: { bestCases: { id: string }[] } }
  ).data.bestCases[0]!.id;
  const drawings = (
    (await (
      await request.get(`/v1/best-cases/${bestCaseId}/drawings`, {
        headers: { Authorization: `Bearer ${await apiToken(request, administrator)}` },
      })
    ).json()) as { data: { note: string; drawing: { time: number; shapes: { center: [number, number]; rx: number; ry: number }[] } }[] }
  ).data;
  expect(drawings.map((d) => d.note)).toEqual([note]);
  expect(drawings[0]!.drawing.time).toBeCloseTo(7, 1);
  const ellipse = drawings[0]!.drawing.shapes[0]!;
  expect(ellipse.center[0]).toBeCloseTo(0.4, 1);
  expect(ellipse.center[1]).toBeCloseTo(0.45, 1);
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  await expect(dialog).toBeHidden();

  // The note of that step, in English.
  await row.getByTestId('best-case-notes').click();
  const notes = page.getByRole('dialog', { name: 'Notes sur les étapes' });
  await notes.getByTestId('best-case-note-en').nth(2).fill('Keep away from the vessels in this step.');
  await notes.getByTestId('best-case-save-notes').click();
  await expect(notes).toBeHidden();
  await admin.close();

  // ---- The learner, at 1440 px then at 390 px.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', colorScheme: 'dark' });
  const learnerPage = await context.newPage();
  await signIn(learnerPage, learner, password);
  await openComparison(learnerPage);
  await expect(learnerPage.getByTestId('compare-step').nth(3).getByTestId('compare-step-note')).toContainText(
    'Keep away from the vessels in this step.',
  );
  // Listed under the best case's player only.
  const list = learnerPage.getByTestId('best-case-drawings');
  await expect(list).toHaveCount(1);
  await expect(
    learnerPage.locator('section', { has: learnerPage.getByTestId('compare-player-best') }).getByTestId('best-case-drawings'),
  ).toContainText(note);
  const bestPlayer = learnerPage.getByTestId('compare-player-best');
  const overlay = bestPlayer.getByTestId('drawing-overlay');
  await expect(overlay).toHaveCount(0);

  // By the keyboard: the drawing's button shows it over the best case's picture.
  await list.getByTestId('best-case-drawing-seek').focus();
  await learnerPage.keyboard.press('Enter');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute('aria-label', new RegExp(note));
  await expect(learnerPage.getByTestId('compare-player-case').getByTestId('drawing-overlay')).toHaveCount(0);
  const expectInPlace = async (where: string) => {
    const m = await measureEllipse(learnerPage, 'drawing-overlay', '[data-testid="compare-player-best"]');
    expect(Math.abs(m.cx - ellipse.center[0]), `${where}: x`).toBeLessThan(0.01);
    expect(Math.abs(m.cy - ellipse.center[1]), `${where}: y`).toBeLessThan(0.01);
    // The box includes the stroke: the radii within a stroke's width.
    expect(Math.abs(m.rx - ellipse.rx), `${where}: rx`).toBeLessThan(0.03);
    expect(Math.abs(m.ry - ellipse.ry), `${where}: ry`).toBeLessThan(0.03);
  };
  await expectInPlace('1440 px');
  await learnerPage.setViewportSize({ width: 390, height: 844 });
  await expectInPlace('390 px');
  const axe = await new AxeBuilder({ page: learnerPage }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await settle(learnerPage);
  await checkScreen(learnerPage, 'compare-best-case-drawing-phone-dark');

  // Playing through the drawing's frame pauses there, with its note over the picture.
  await bestPlayer.locator('video').evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    v.currentTime = 6.4;
  });
  await expect(overlay).toHaveCount(0);
  await bestPlayer.getByTestId('player-play').click();
  const best = () => bestPlayer.locator('video').evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, paused: v.paused }));
  await expect.poll(async () => (await best()).paused, { timeout: 15_000 }).toBe(true);
  const stopped = await best();
  expect(stopped.time).toBeGreaterThanOrEqual(drawings[0]!.drawing.time);
  expect(stopped.time).toBeLessThan(drawings[0]!.drawing.time + 0.04);
  await expect(overlay).toBeVisible();
  await expect(bestPlayer.getByTestId('drawing-caption')).toHaveText(note);
  await expectInPlace('paused on its frame at 390 px');
  await context.close();
});

test('where both cases are rated, the steps show both ratings beside their durations; the players stay aligned when a title wraps (1440 px English light, 390 px French dark)', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(300_000);
  const work = mkdtempSync(path.join(tmpdir(), 'sutura-compare-rated-'));
  const clip = path.join(work, 'case.mp4');
  makeClip(clip, 12);
  const marked = (ids: number[]) =>
    ids.map((index, i) => ({ surgeryStepId: vocabulary[index]!.id, name: '', start: i * 4, end: i * 4 + 4 }));
  // The learner's case, its steps rated 4; another learner's case, steps 1, 2 and 4, rated 2, made a best case with their consent.
  const [mine, theirs] = await Promise.all([
    sendVideo(request, cast.learner.email, clip, false, { surgery }),
    sendVideo(request, cast.learner2.email, clip, false, { surgery }),
  ]);
  await Promise.all([
    prepareVideo(request, cast.editor.email, cast.learner.email, mine, marked([0, 1, 2]), { start: 0, end: 12 }),
    prepareVideo(request, cast.editor2.email, cast.learner2.email, theirs, marked([0, 1, 3]), { start: 0, end: 12 }),
  ]);
  await analyseVideo(request, cast.expert.email, mine, 4, { stepRating: 4 });
  await analyseVideo(request, cast.expert2.email, theirs, 3, { stepRating: 2 });
  // The learner skipped their self-assessment: the case's ratings reached them (docs/self-assessment.md).
  const skipped = await request.post(`/v1/videos/${mine}/self-assessment/skip`, {
    headers: { Authorization: `Bearer ${await apiToken(request, cast.learner.email)}` },
    data: {},
  });
  expect(skipped.status(), await skipped.text()).toBe(200);
  const admin = { Authorization: `Bearer ${await apiToken(request, cast.admin.email)}` };
  const longTitle = {
    fr: `Un best case au titre assez long pour tenir sur plusieurs lignes ${suffix}`,
    en: `A best case with a title long enough to wrap onto several lines ${suffix}`,
  };
  const created = await request.post('/v1/admin/best-cases', {
    headers: admin,
    data: {
      source: 'video',
      videoId: theirs,
      titleFr: longTitle.fr,
      titleEn: longTitle.en,
      descriptionFr: 'Un cas analysé.',
      descriptionEn: 'An analysed case.',
      surgeryId: surgery.id,
      organId: surgery.organId,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const bestCaseId = ((await created.json()) as { data: { id: string } }).data.id;
  const consent = await request.put(`/v1/videos/${theirs}/best-case/consent`, {
    headers: { Authorization: `Bearer ${await apiToken(request, cast.learner2.email)}` },
    data: { accept: true },
  });
  expect(consent.status(), await consent.text()).toBe(200);
  const published = await request.put(`/v1/admin/best-cases/${bestCaseId}/published`, { headers: admin, data: { published: true } });
  expect(published.status(), await published.text()).toBe(200);

  for (const look of [
    { name: 'en-light-1440', lang: 'en' as const, locale: 'en-GB', colorScheme: 'light' as const, viewport: { width: 1440, height: 900 } },
    { name: 'fr-dark-390', lang: 'fr' as const, locale: 'fr-FR', colorScheme: 'dark' as const, viewport: { width: 390, height: 844 } },
  ]) {
    await setLanguage(request, cast.learner.email, look.lang);
    const context = await browser.newContext({ viewport: look.viewport, locale: look.locale, colorScheme: look.colorScheme });
    const page = await context.newPage();
    await signIn(page, cast.learner.email, password);
    await page.goto(`/videos/${mine}/compare?with=${bestCaseId}`);
    const rows = page.getByTestId('compare-step');
    await expect(rows).toHaveCount(4, { timeout: 60_000 });
    const rated = look.lang === 'en' ? ['rated 4/5', 'rated 2/5'] : ['noté 4/5', 'noté 2/5'];
    // Steps 1 and 2 are in both cases, both rated: each duration has its rating beside it.
    for (const index of [0, 1]) {
      await expect(rows.nth(index).getByTestId('compare-step-case-duration')).toContainText(rated[0]!);
      await expect(rows.nth(index).getByTestId('compare-step-best-duration')).toContainText(rated[1]!);
    }
    // A step one case lacks has nothing to set its rating beside.
    for (const index of [2, 3]) {
      await expect(rows.nth(index).getByTestId('compare-step-case-rating')).toHaveCount(0);
      await expect(rows.nth(index).getByTestId('compare-step-best-rating')).toHaveCount(0);
    }
    if (look.viewport.width === 1440) {
      // The best case's heading wraps, the case's does not: the players still start at the same height.
      const headings = page.locator('[data-testid$="-side"] h3');
      const [caseHeading, bestHeading] = [(await headings.nth(0).boundingBox())!, (await headings.nth(1).boundingBox())!];
      expect(bestHeading.height).toBeGreaterThan(caseHeading.height + 10);
      const [caseTop, bestTop] = [
        (await page.getByTestId('compare-player-case').boundingBox())!.y,
        (await page.getByTestId('compare-player-best').boundingBox())!.y,
      ];
      expect(Math.abs(caseTop - bestTop)).toBeLessThanOrEqual(1);
    }
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).include('[data-testid="compare-steps"]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await settle(page);
    await page.screenshot({ path: `/tmp/compare-${look.name}.png`, fullPage: true });
    await context.close();
  }
});
