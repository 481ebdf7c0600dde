import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type Cast } from './fixtures.ts';
import { signIn } from './support.ts';
import { apiToken, password, sendVideo } from './workflow.ts';

/** The spec's people, made on its own server before its first test. */
let who: Cast;

/**
 * A 12 s clip at 25 fps: a test pattern, 2 s of black (the camera out of the patient), then
 * colour bars — so the server finds cut suggestions in it.
 */
const media = { dir: '', clip: '' };

test.beforeAll(async ({ cast }) => {
  who = cast;
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-prep-'));
  media.clip = path.join(media.dir, 'intervention.mp4');
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=5'],
      ...['-f', 'lavfi', '-i', 'color=black:size=320x240:rate=25:duration=2'],
      ...['-f', 'lavfi', '-i', 'smptebars=size=320x240:rate=25:duration=5'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=12'],
      ...['-filter_complex', '[0:v][1:v][2:v]concat=n=3:v=1:a=0[v]', '-map', '[v]', '-map', '3:a'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac', '-movflags', '+faststart', media.clip],
    ],
    { stdio: 'ignore' },
  );
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

/** The playhead moved by keys: Home, then whole seconds forward. */
async function playheadAt(page: Page, seconds: number) {
  await page.keyboard.press('Home');
  for (let i = 0; i < seconds; i++) await page.keyboard.press('Shift+ArrowRight');
}

async function newContextPage(browser: import('@playwright/test').Browser, email: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'fr-FR' });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

test('an editor claims, trims, marks the steps and submits; the pool, the learner and the player follow', async ({ browser, request }) => {
  test.setTimeout(300_000);
  const videoId = await sendVideo(request, who.learner.email, media.clip, true);

  const learnerSide = await newContextPage(browser, who.learner.email);
  await learnerSide.page.goto(`/videos/${videoId}`);
  const learnerStatus = learnerSide.page.getByTestId('video-status');
  await expect(learnerStatus).toHaveAttribute('data-status', 'pending_preparation');

  // Both editors see the video in the pool; the first claims it and it leaves the other's pool live.
  const first = await newContextPage(browser, who.editor.email);
  const second = await newContextPage(browser, who.editor2.email);
  const page = first.page;
  await page.getByRole('link', { name: 'Espace préparateur' }).first().click();
  await expect(page).toHaveURL(/\/editor$/);
  await second.page.goto('/editor');
  const poolCard = (p: Page) => p.locator(`[data-testid="pool-card"][data-video-id="${videoId}"]`);
  await expect(poolCard(page)).toBeVisible();
  await expect(poolCard(second.page)).toBeVisible();
  await poolCard(page).getByTestId('claim-video').click();
  await expect(page).toHaveURL(new RegExp(`/editor/${videoId}$`));
  await expect(poolCard(second.page)).toHaveCount(0);
  await expect(learnerStatus).toHaveAttribute('data-status', 'in_preparation');
  await second.context.close();

  // Trim phase.
  const message = page.getByTestId('preparation-message');
  const trims = page.getByTestId('trim-item');
  await expect(page.getByTestId('lease-hours')).toContainText('12 heures');
  await expect
    .poll(() => page.getByTestId('source-video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 20_000 })
    .toBeGreaterThan(11.9);
  await expect(page.getByTestId('playhead-time')).toHaveText('0:00:00:00 / 0:00:12:00');
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts-dialog')).toContainText('Nouvelle découpe à la tête de lecture');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('cut-suggestion').first()).toBeAttached({ timeout: 30_000 });

  // A new trim is a fifth of the timeline in view (12 s: 2.4 s, to the frame).
  await page.getByTestId('new-trim').click();
  await expect(trims).toHaveCount(1);
  await expect(trims.first()).toContainText('0:00:00:00 – 0:00:02:10');
  await page.getByTestId('new-trim').click();
  await expect(message).toHaveText("Modifiez la dernière découpe avant d'en ajouter une nouvelle");
  // One second more by keyboard on its end: now modified, but the playhead is inside it.
  await page.getByTestId('trim-end').first().focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(trims.first()).toContainText('0:00:00:00 – 0:00:03:10');
  await page.getByTestId('new-trim').click();
  await expect(message).toHaveText('Vous ne pouvez pas ajouter de découpe à cet endroit');
  // At the very end no range fits either.
  await page.keyboard.press('End');
  await page.getByTestId('new-trim').click();
  await expect(message).toHaveText('Vous ne pouvez pas ajouter de découpe à cet endroit');

  // A second range at 8 s, its start dragged a second back (snapping to the scene change at 7 s).
  await playheadAt(page, 8);
  await expect(page.getByTestId('playhead-time')).toContainText('0:00:08:00 /');
  await page.keyboard.press('n');
  await expect(trims).toHaveCount(2);
  await expect(trims.nth(1)).toContainText('0:00:08:00 – 0:00:10:10');
  const handle = (await page.getByTestId('trim-start').nth(1).boundingBox())!;
  const timeline = (await page.getByTestId('preparation-timeline').boundingBox())!;
  const perSecond = timeline.width / 12;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 - perSecond / 2, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.move(handle.x + handle.width / 2 - perSecond, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(trims.nth(1)).toContainText(/0:00:0[67]:\d\d – 0:00:10:10/);
  // Undo takes the whole drag back in one step; the keyboard then does it frame-exact.
  await page.keyboard.press('Control+z');
  await expect(trims.nth(1)).toContainText('0:00:08:00 – 0:00:10:10');
  await page.getByTestId('trim-start').nth(1).focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(trims.nth(1)).toContainText('0:00:07:00 – 0:00:10:10');
  await expect(page.getByTestId('kept-length')).toContainText('2 parties conservées');

  // Saved by itself, and still there after a reload.
  const saveStatus = page.getByTestId('save-status');
  await expect(saveStatus).toHaveAttribute('data-status', 'saved');
  await page.reload();
  await expect(trims).toHaveCount(2);
  await expect(trims.nth(0)).toContainText('0:00:00:00 – 0:00:03:10');
  await expect(trims.nth(1)).toContainText('0:00:07:00 – 0:00:10:10');

  // Without a connection the change waits on the device, and is sent when it is back.
  await first.context.setOffline(true);
  await page.getByTestId('trim-end').nth(1).focus();
  await page.keyboard.press('ArrowRight');
  await expect(trims.nth(1)).toContainText('0:00:07:00 – 0:00:10:11');
  await expect(saveStatus).toHaveAttribute('data-status', 'offline');
  await first.context.setOffline(false);
  await expect(saveStatus).toHaveAttribute('data-status', 'saved', { timeout: 20_000 });
  await page.reload();
  await expect(trims.nth(1)).toContainText('0:00:07:00 – 0:00:10:11');

  // Steps phase: each message of SPEC §5.
  const steps = page.getByTestId('step-item');
  await page.getByTestId('to-steps').click();
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'steps');
  await page.getByTestId('submit-preparation').click();
  await expect(message).toHaveText('Veuillez ajouter au moins 2 étapes');
  await playheadAt(page, 5);
  await page.getByTestId('new-step').click();
  await expect(message).toHaveText('Une étape doit commencer et finir dans les parties conservées de la vidéo');
  await playheadAt(page, 1);
  await page.keyboard.press('n');
  await expect(steps.nth(0)).toContainText('0:00:01:00 – 0:00:03:10');
  // A second step inside the first splits it.
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('n');
  await expect(steps.nth(0)).toContainText('0:00:01:00 – 0:00:02:00');
  await expect(steps.nth(1)).toContainText('0:00:02:00 – 0:00:03:10');
  await playheadAt(page, 8);
  await page.keyboard.press('n');
  await expect(steps).toHaveCount(3);
  await page.getByTestId('submit-preparation').click();
  await expect(message).toHaveText('Veuillez nommer toutes les étapes');
  // Up to the maximum, each new step one frame further into the last one.
  for (let i = 3; i < 30; i++) {
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('n');
  }
  await expect(steps).toHaveCount(30);
  await expect(steps.nth(29)).toContainText('0:00:09:02 – 0:00:10:11');
  await page.keyboard.press('n');
  await expect(message).toHaveText("Vous avez atteint le nombre maximal d'étapes");
  await expect(steps).toHaveCount(30);

  // Back to trimming warns, then drops the steps.
  await page.getByTestId('to-trim').click();
  await expect(page.getByRole('dialog')).toContainText('supprime les 30 étapes');
  await page.getByTestId('back-to-trim-confirm').click();
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'trim');
  await expect(trims).toHaveCount(2);
  await page.getByTestId('to-steps').click();
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'steps');
  await expect(steps).toHaveCount(0);

  // Two steps again: one from the surgery's vocabulary, one named freely.
  await playheadAt(page, 1);
  await page.keyboard.press('n');
  await playheadAt(page, 8);
  await page.keyboard.press('n');
  await expect(steps).toHaveCount(2);
  await page.getByTestId('step-name').nth(0).click();
  const vocabularyName = (await page.getByRole('option').first().textContent())!;
  await page.getByRole('option').first().click();
  await page.getByTestId('step-name').nth(1).fill('Hémostase finale');
  await page.getByTestId('step-name').nth(1).press('Tab');
  await expect(saveStatus).toHaveAttribute('data-status', 'saved');

  await page.getByTestId('submit-preparation').click();
  await expect(page).toHaveURL(new RegExp(`/editor/${videoId}/complete$`));
  await expect(page.getByTestId('complete-title')).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
  await expect(learnerStatus).toHaveAttribute('data-status', 'pending_analysis', { timeout: 30_000 });

  // The editor is told, and plays the rendered video with its steps.
  await expect(page.getByTestId('notification-dot')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-item').filter({ hasText: 'que vous avez préparée est prête' }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  const rendered = page.getByTestId('video-player');
  await expect(rendered).toBeVisible();
  // Kept: 3.4 s + 3.44 s.
  await expect
    .poll(() => rendered.locator('video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 20_000 })
    .toBeCloseTo(6.84, 0);
  const playerSteps = page.getByTestId('player-step');
  await expect(playerSteps).toHaveCount(2);
  await expect(playerSteps.nth(0)).toContainText(vocabularyName);
  await expect(playerSteps.nth(1)).toContainText('Hémostase finale');
  await playerSteps.nth(1).click();
  await expect(playerSteps.nth(1)).toHaveAttribute('aria-current', 'step');

  // The learner's page shows the rendered steps too: jump to one, it is the current one.
  const learnerSteps = learnerSide.page.getByTestId('player-step');
  await expect(learnerSteps).toHaveCount(2);
  await learnerSteps.nth(1).click();
  await expect(learnerSteps.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(learnerSteps.nth(0)).not.toHaveAttribute('aria-current', 'step');
  await expect(learnerSide.page.getByTestId('timeline-step')).toHaveCount(2);

  await learnerSide.context.close();
  await first.context.close();
});

test('at 1440×900 the actions and their messages stay in the window; a step splits; give back deletes the work', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const videoId = await sendVideo(request, who.learner.email, media.clip);
  const headers = { Authorization: `Bearer ${await apiToken(request, who.editor.email)}` };
  expect((await request.post(`/v1/editor/videos/${videoId}/claim`, { headers, data: {} })).status()).toBe(200);

  const { context, page } = await newContextPage(browser, who.editor.email);
  await page.goto(`/editor/${videoId}`);
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'trim');
  // The page's actions are in the window from the start, the way on included.
  await expect(page.getByTestId('new-trim')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('to-steps')).toBeInViewport({ ratio: 1 });
  // Nothing kept yet: the refusal shows whole, next to the button.
  await page.getByTestId('to-steps').click();
  const message = page.getByTestId('preparation-message');
  await expect(message).toHaveText('Conservez au moins une partie de la vidéo');
  await expect(message).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('to-steps')).toBeInViewport({ ratio: 1 });
  // Still so with the page scrolled to its top and to its end.
  for (const y of [0, 10_000]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await expect(message).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('new-trim')).toBeInViewport({ ratio: 1 });
  }

  // Keep 0–8.4 s, then two steps: the second, inside the first, splits it on the timeline.
  await page.getByTestId('new-trim').click();
  await page.getByTestId('trim-end').first().focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('trim-item').first()).toContainText('0:00:00:00 – 0:00:08:10');
  await page.getByTestId('to-steps').click();
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'steps');
  const steps = page.getByTestId('step-item');
  const ranges = page.getByTestId('step-range');
  await playheadAt(page, 1);
  await page.keyboard.press('n');
  await expect(ranges).toHaveCount(1);
  await expect(ranges.first()).toHaveAttribute('aria-label', /0:00:01:00.*0:00:08:10/);
  await playheadAt(page, 4);
  await page.getByTestId('new-step').click();
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('0:00:01:00 – 0:00:04:00');
  await expect(steps.nth(1)).toContainText('0:00:04:00 – 0:00:08:10');
  await expect(ranges.nth(0)).toHaveAttribute('aria-label', /0:00:01:00.*0:00:04:00/);
  await expect(ranges.nth(1)).toHaveAttribute('aria-label', /0:00:04:00.*0:00:08:10/);
  const [first, second] = [(await ranges.nth(0).boundingBox())!, (await ranges.nth(1).boundingBox())!];
  // Side by side on the timeline (their 2 px borders may touch), never one over the other.
  expect(first.x + first.width).toBeLessThanOrEqual(second.x + 4);
  expect(second.width).toBeGreaterThan(first.width);
  // On the first frame of a step there is nothing to split.
  await page.getByTestId('new-step').click();
  await expect(message).toHaveText("Une étape commence déjà ici : placez la tête de lecture à l'intérieur pour la couper en deux");
  await expect(message).toBeInViewport({ ratio: 1 });
  await expect(steps).toHaveCount(2);
  await page.getByTestId('step-name').nth(0).fill('Dissection');
  await page.getByTestId('step-name').nth(0).press('Tab');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  const saved = await request.get(`/v1/editor/videos/${videoId}`, { headers });
  expect(((await saved.json()) as { data: { steps: unknown[] } }).data.steps).toHaveLength(2);

  // Give back: the work is deleted, as the question says; claimed again, the video starts afresh.
  await page.getByTestId('release-video').click();
  await expect(page.getByRole('dialog')).toContainText('Vos découpes et étapes sont supprimées');
  await page.getByTestId('release-confirm').click();
  await expect(page).toHaveURL(/\/editor$/);
  expect((await request.post(`/v1/editor/videos/${videoId}/claim`, { headers, data: {} })).status()).toBe(200);
  const after = (await (await request.get(`/v1/editor/videos/${videoId}`, { headers })).json()) as {
    data: { phase: string; trims: unknown[]; steps: unknown[] };
  };
  expect(after.data).toMatchObject({ phase: 'trim', trims: [], steps: [] });
  await page.goto(`/editor/${videoId}`);
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'trim');
  await expect(page.getByTestId('trim-item')).toHaveCount(0);
  await context.close();
});

test('at 390×844 the video and the timeline are in view together on opening, above the actions, in both languages and themes; Delete and Undo keep the focus when they stop acting', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const videoId = await sendVideo(request, who.learner.email, media.clip);
  const headers = { Authorization: `Bearer ${await apiToken(request, who.editor.email)}` };
  expect((await request.post(`/v1/editor/videos/${videoId}/claim`, { headers, data: {} })).status()).toBe(200);

  for (const look of [
    { name: 'en-dark', locale: 'en-GB', colorScheme: 'dark' as const },
    { name: 'fr-light', locale: 'fr-FR', colorScheme: 'light' as const },
  ]) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: look.locale, colorScheme: look.colorScheme });
    const page = await context.newPage();
    await signIn(page, who.editor.email, password);
    await page.goto(`/editor/${videoId}`);
    await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'trim');
    await expect
      .poll(() => page.getByTestId('source-video').evaluate((v: HTMLVideoElement) => v.duration), { timeout: 20_000 })
      .toBeGreaterThan(11.9);
    for (const size of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await page.evaluate(() => window.scrollTo(0, 0));
      // Without scrolling: the whole video and the whole timeline in the window, above the actions held at its bottom.
      const where = await page.evaluate(() => {
        const box = (id: string) => document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
        const [video, timeline, actions] = [box('source-video'), box('preparation-timeline'), box('preparation-actions')];
        const hit = document.elementFromPoint(timeline.left + timeline.width / 2, timeline.top + timeline.height / 2);
        return {
          scrolled: window.scrollY,
          videoTop: video.top,
          videoBottom: video.bottom,
          timelineBottom: timeline.bottom,
          actionsTop: actions.top,
          timelineReached: hit !== null && document.querySelector('[data-testid="preparation-timeline"]')!.contains(hit),
        };
      });
      const label = `${look.name} ${size.width} px`;
      expect(where.scrolled, label).toBe(0);
      expect(where.videoTop, `${label}: the video's top`).toBeGreaterThanOrEqual(0);
      expect(where.videoBottom, `${label}: the video above the actions`).toBeLessThanOrEqual(where.actionsTop);
      expect(where.timelineBottom, `${label}: the timeline above the actions`).toBeLessThanOrEqual(where.actionsTop);
      expect(where.timelineReached, `${label}: nothing over the timeline`).toBe(true);
      await page.screenshot({ path: `/tmp/preparation-${look.name}-${size.width}.png` });
    }
    await context.close();
  }

  // With the keyboard on Delete, then on Undo: each stops acting (nothing selected, nothing left to undo) and keeps the focus.
  const { context, page } = await newContextPage(browser, who.editor.email);
  await page.goto(`/editor/${videoId}`);
  await expect(page.getByTestId('preparation-workspace')).toHaveAttribute('data-phase', 'trim');
  await page.getByTestId('new-trim').click();
  await expect(page.getByTestId('trim-item')).toHaveCount(1);
  const remove = page.getByTestId('delete-selected');
  const undo = page.getByTestId('undo');
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trim-item')).toHaveCount(0);
  await expect(remove).toHaveAttribute('aria-disabled', 'true');
  await expect(remove).toBeFocused();
  // Pressed again, it does nothing.
  await page.keyboard.press('Enter');
  await expect(remove).toBeFocused();
  await undo.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trim-item')).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('trim-item')).toHaveCount(0);
  await expect(undo).toHaveAttribute('aria-disabled', 'true');
  await expect(undo).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
  await context.close();
});
