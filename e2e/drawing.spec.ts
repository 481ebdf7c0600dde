import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { playerState, signIn } from './support.ts';
import { apiToken, makeClip, password, prepareVideo, sendVideo } from './workflow.ts';

const learner = 'learner@sutura.local';
const editor = 'editor@sutura.local';
const expert = 'expert@sutura.local';

const media = { dir: '', clip: '' };

test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-drawing-'));
  media.clip = path.join(media.dir, 'case.mp4');
  // 320×240 (4:3) in a 16:9 player: the picture is pillarboxed, which the drawing must not feel.
  makeClip(media.clip, 8);
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

interface Measured {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/**
 * The drawn ellipse's centre and radii in video coordinates, measured on screen: its box against
 * the picture's box, which is worked out here from the video element alone (object-fit: contain).
 */
function measureEllipse(page: Page, scope: string): Promise<Measured> {
  return page.evaluate((scope) => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"] video')!;
    const r = video.getBoundingClientRect();
    const scale = Math.min(r.width / video.videoWidth, r.height / video.videoHeight);
    const pw = video.videoWidth * scale;
    const ph = video.videoHeight * scale;
    const left = r.left + (r.width - pw) / 2;
    const top = r.top + (r.height - ph) / 2;
    const ellipse = document.querySelector(`[data-testid="${scope}"] [data-kind="ellipse"] ellipse:last-of-type`)!;
    const e = ellipse.getBoundingClientRect();
    return { cx: (e.left + e.width / 2 - left) / pw, cy: (e.top + e.height / 2 - top) / ph, rx: e.width / 2 / pw, ry: e.height / 2 / ph };
  }, scope);
}

/** A point of the picture (video coordinates) in page pixels, from the drawing surface's box. */
async function at(page: Page, x: number, y: number): Promise<[number, number]> {
  const box = (await page.getByTestId('drawing-surface').boundingBox())!;
  return [box.x + x * box.width, box.y + y * box.height];
}

async function drag(page: Page, from: [number, number], to: [number, number]) {
  await page.mouse.move(...(await at(page, ...from)));
  await page.mouse.down();
  await page.mouse.move(...(await at(page, ...to)), { steps: 8 });
  await page.mouse.up();
}

test('the expert draws on a frame and attaches it to a comment; the learner finds it in place at any size, after a reload, paused on its frame', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const videoId = await sendVideo(request, learner, media.clip);
  await prepareVideo(
    request,
    editor,
    learner,
    videoId,
    [
      { name: 'Exposition', start: 1, end: 4 },
      { name: 'Dissection', start: 5, end: 7.5 },
    ],
    { start: 0, end: 8 },
  );

  // ---- The expert, with a mouse on a desktop
  const expertContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'fr-FR' });
  const page = await expertContext.newPage();
  await signIn(page, expert, password);
  await page.goto('/expert');
  await page.locator(`[data-testid="expert-video-card"][data-video-id="${videoId}"]`).getByTestId('expert-claim').click();
  await expect(page).toHaveURL(new RegExp(`/expert/${videoId}$`));

  // On the first step's frame (1 s: frame 25 of the 25 fps render).
  await page.getByTestId('player-step').first().click();
  await expect.poll(async () => (await playerState(page)).time).toBeCloseTo(1, 2);
  await page.getByTestId('drawing-start').click();
  await expect(page.getByTestId('drawing-surface')).toBeVisible();

  await page.getByTestId('drawing-tool-ellipse').click();
  await page.getByTestId('drawing-color-cyan').click();
  await drag(page, [0.3, 0.4], [0.42, 0.55]);
  await page.getByTestId('drawing-tool-arrow').click();
  await page.getByTestId('drawing-color-yellow').click();
  await drag(page, [0.8, 0.8], [0.55, 0.6]);
  await page.getByTestId('drawing-tool-freehand').click();
  await drag(page, [0.1, 0.1], [0.2, 0.25]);
  const shapes = page.getByTestId('drawing-surface').getByTestId('drawing-shape');
  await expect(shapes).toHaveCount(3);
  // Undo and redo, by the buttons and by the keys.
  await page.getByTestId('drawing-undo').click();
  await expect(shapes).toHaveCount(2);
  await page.getByTestId('drawing-redo').click();
  await expect(shapes).toHaveCount(3);
  await page.keyboard.press('Control+z');
  await expect(shapes).toHaveCount(2);
  await page.keyboard.press('Control+Shift+z');
  await expect(shapes).toHaveCount(3);

  // By the keyboard: a text label added with Enter, moved with an arrow key; the stroke deleted.
  await page.getByTestId('drawing-tool-text').click();
  await page.getByTestId('drawing-label').fill('Plan');
  await page.getByTestId('drawing-surface').focus();
  await page.keyboard.press('Enter');
  await expect(shapes).toHaveCount(4);
  const label = shapes.nth(3);
  await label.focus();
  await page.keyboard.press('ArrowRight');
  await shapes.nth(2).focus();
  await page.keyboard.press('Delete');
  await expect(shapes).toHaveCount(3);
  await expect(shapes.nth(2)).toHaveAttribute('data-kind', 'text');

  // Tools and drawing area pass axe.
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="drawing-composer"]')
    .include('[data-testid="drawing-surface"]')
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.getByTestId('drawing-comment-text').fill('Disséquer dans ce plan, pas plus bas.');
  await page.getByTestId('drawing-save').dblclick();
  await expect(page.getByTestId('drawing-composer')).toHaveCount(0);
  await expect(page.getByTestId('comment-item')).toHaveCount(1);
  await expect(page.getByTestId('comment-has-drawing')).toHaveCount(1);
  // Standing on its frame, the expert sees the drawing.
  await expect(page.getByTestId('drawing-overlay')).toBeVisible();

  // What was stored: vectors in video coordinates, the frame's exact time.
  const expertToken = await apiToken(request, expert);
  const ws = (await (
    await request.get(`/v1/expert/videos/${videoId}`, { headers: { Authorization: `Bearer ${expertToken}` } })
  ).json()) as {
    data: {
      fencingToken: number;
      draft: {
        comments: {
          drawing: { time: number; shapes: { kind: string; center?: [number, number]; rx?: number; ry?: number; at?: [number, number] }[] };
        }[];
      };
    };
  };
  const stored = ws.data.draft.comments[0]!.drawing;
  expect(stored.time).toBeCloseTo(1, 3);
  expect(stored.shapes.map((s) => s.kind)).toEqual(['ellipse', 'arrow', 'text']);
  const ellipse = stored.shapes[0]!;
  expect(ellipse.center![0]).toBeCloseTo(0.3, 1);
  expect(ellipse.center![1]).toBeCloseTo(0.4, 1);
  expect(stored.shapes[2]!.at![0]).toBeCloseTo(0.41, 2);
  const finalize = await request.post(`/v1/expert/videos/${videoId}/finalize`, {
    headers: { Authorization: `Bearer ${expertToken}` },
    data: { fencingToken: ws.data.fencingToken, confirmAnyway: true },
  });
  expect(finalize.status(), await finalize.text()).toBe(200);
  await expertContext.close();

  // The learner declines the self-assessment first: the result shows at once (the invitation has its own spec).
  const skipped = await request.post(`/v1/videos/${videoId}/self-assessment/skip`, {
    data: {},
    headers: { Authorization: `Bearer ${await apiToken(request, learner)}` },
  });
  expect(skipped.status(), await skipped.text()).toBe(200);

  // ---- The learner, in dark mode: a desktop, then a phone's width, then a reload
  const learnerContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-GB', colorScheme: 'dark' });
  const learnerPage = await learnerContext.newPage();
  await signIn(learnerPage, learner, password);
  await learnerPage.goto(`/videos/${videoId}`);
  const thumbnail = learnerPage.getByTestId('result-comment-drawing');
  // A loaded machine may take a while to serve the page the first time.
  await expect(thumbnail).toBeVisible({ timeout: 60_000 });
  await expect(thumbnail.getByTestId('drawing-thumbnail')).toHaveAttribute('aria-label', /Disséquer dans ce plan/);

  const expectInPlace = async (where: string) => {
    const overlay = learnerPage.getByTestId('drawing-overlay');
    await expect(overlay, where).toBeVisible();
    await expect(overlay).toHaveAttribute('aria-label', /Disséquer dans ce plan, pas plus bas\./);
    const m = await measureEllipse(learnerPage, 'drawing-overlay');
    expect(Math.abs(m.cx - ellipse.center![0]), `${where}: x`).toBeLessThan(0.01);
    expect(Math.abs(m.cy - ellipse.center![1]), `${where}: y`).toBeLessThan(0.01);
    // The box includes the stroke: the radii within a stroke's width.
    expect(Math.abs(m.rx - ellipse.rx!), `${where}: rx`).toBeLessThan(0.03);
    expect(Math.abs(m.ry - ellipse.ry!), `${where}: ry`).toBeLessThan(0.03);
  };

  await thumbnail.click();
  await expect.poll(async () => (await playerState(learnerPage)).time).toBeCloseTo(1, 2);
  await expectInPlace('1440 px');
  await learnerPage.setViewportSize({ width: 390, height: 844 });
  await expectInPlace('390 px');
  await learnerPage.reload();
  await learnerPage.getByTestId('result-comment-drawing').click();
  await expectInPlace('390 px after a reload');
  await learnerPage.setViewportSize({ width: 1440, height: 900 });
  await expectInPlace('1440 px after a reload');

  // Fullscreen, where the browser grants it.
  await learnerPage.getByTestId('player-fullscreen').click();
  if (await learnerPage.evaluate(() => document.fullscreenElement !== null)) {
    await expectInPlace('fullscreen');
    await learnerPage.evaluate(() => document.exitFullscreen());
    await expect.poll(() => learnerPage.evaluate(() => document.fullscreenElement === null)).toBe(true);
    await expectInPlace('after fullscreen');
  }

  // Playing through the drawing's frame pauses there (the setting is on by default).
  await expect(learnerPage.getByTestId('pause-on-drawings')).toBeChecked();
  await learnerPage.locator('[data-testid="video-player"] video').evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    v.currentTime = 0.3;
  });
  await expect(learnerPage.getByTestId('drawing-overlay')).toHaveCount(0);
  await learnerPage.getByTestId('player-play').click();
  await expect.poll(async () => (await playerState(learnerPage)).paused, { timeout: 15_000 }).toBe(true);
  const stopped = await playerState(learnerPage);
  expect(stopped.time).toBeGreaterThanOrEqual(1);
  expect(stopped.time).toBeLessThan(1.04);
  await expectInPlace('paused on its frame');
  await expect(learnerPage.getByTestId('drawing-caption')).toHaveText('Disséquer dans ce plan, pas plus bas.');

  // Off, playback runs through it.
  await learnerPage.getByTestId('pause-on-drawings').uncheck();
  await learnerPage.locator('[data-testid="video-player"] video').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0.3;
  });
  await learnerPage.getByTestId('player-play').click();
  await expect.poll(async () => (await playerState(learnerPage)).time, { timeout: 15_000 }).toBeGreaterThan(1.5);
  await learnerPage.getByTestId('player-play').click();
  await learnerPage.getByTestId('pause-on-drawings').check();
  await learnerContext.close();
});
