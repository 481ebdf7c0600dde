import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openPage, signedIn } from './cases.ts';
import { apiToken, saveVideo } from './workflow.ts';

// The ladder is made behind this spec's cases (off for the other specs, e2e/server.ts).
test.use({ serverEnv: { STREAMING: 'on' } });

/** A 16 s 1280×720 clip with B-frames: its ladder has the file itself and a 360p rung. */
const media = { dir: '', clip: '' };

test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-hls-'));
  media.clip = path.join(media.dir, 'hd.mp4');
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=16'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=16'],
      ...[
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-bf',
        '2',
        '-g',
        '50',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-movflags',
        '+faststart',
      ],
      media.clip,
    ],
    { stdio: 'ignore' },
  );
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

/** The text a person sees on an element (what is not displayed left out). */
const shown = (element: Locator) => element.evaluate((el: HTMLElement) => el.innerText.trim());

/** Seeks the element to `time` and answers the media time of the frame it then shows. */
function frameAt(video: Locator, time: number | null): Promise<number> {
  return video.evaluate(
    (v: HTMLVideoElement, at) =>
      new Promise<number>((resolve) => {
        v.requestVideoFrameCallback((_now, meta) => resolve(meta.mediaTime));
        if (at !== null) v.currentTime = at;
      }),
    time,
  );
}

test('a case plays from its HLS ladder: a quality pinned, ?t= and seeks land on their exact frame', async ({ browser, request, cast }) => {
  test.setTimeout(180_000);
  const videoId = await saveVideo(request, cast.learner.email, media.clip);
  const headers = { Authorization: `Bearer ${await apiToken(request, cast.learner.email)}` };
  // The ladder is made by the worker after the video is ready; until then the player plays the MP4.
  await expect
    .poll(
      async () => {
        const { data } = (await (await request.get(`/v1/videos/${videoId}`, { headers })).json()) as { data: { videoUrl: string } };
        return (await request.get(data.videoUrl.replace('?', '/hls/master.m3u8?'))).status();
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(200);

  const { context, page } = await signedIn(browser, cast.learner);
  const player = page.getByTestId('video-player');
  await openPage(page, `/videos/${videoId}?t=5`, player);
  await expect(player).toHaveAttribute('data-playback', 'hls');
  const video = player.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.src.startsWith('blob:'))).toBe(true);

  // The link to a moment: the frame of 5 s exactly, as on the MP4.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && Math.abs(v.currentTime - 5) < 0.001)).toBe(true);
  expect(await frameAt(video, 5)).toBeCloseTo(5, 3);
  // Frame 188 (7.52 s at 25 fps), in the middle of a segment, and the next frame.
  expect(await frameAt(video, 7.52)).toBeCloseTo(7.52, 3);
  expect(await frameAt(video, 7.56)).toBeCloseTo(7.56, 3);

  // Pinned to 360p, the player says so and plays that rung; Auto gives the choice back.
  await player.getByTestId('player-quality').click();
  await expect(page.getByTestId('player-quality-option')).toHaveText(['720p', '360p']);
  await page.getByTestId('player-quality-option').filter({ hasText: '360p' }).click();
  await expect(player).toHaveAttribute('data-quality', '360');
  await expect.poll(() => shown(player.getByTestId('player-quality'))).toBe('360p');
  // The same frame at the same time on the lower rung.
  expect(await frameAt(video, 7.52)).toBeCloseTo(7.52, 3);
  await player.getByTestId('player-quality').click();
  await page.getByTestId('player-quality-auto').click();
  await expect.poll(() => shown(player.getByTestId('player-quality'))).toMatch(/^Auto/);

  // The keyboard shortcuts: L forward 10 s, Home back to the start.
  await player.focus();
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 2;
  });
  await page.keyboard.press('l');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(12, 3);
  await page.keyboard.press('Home');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBe(0);

  // It plays: time passes on the HLS stream.
  await player.getByTestId('player-play').click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(1);

  // On a 390 px phone in dark mode the quality stays in the control bar, which does not overflow.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(player.getByTestId('player-quality')).toBeVisible();
  await expect.poll(() => shown(player.getByTestId('player-quality'))).toMatch(/^(\d{3,4}p|Auto)$/);
  // The control bar is laid out anew for the phone once the app has seen the new width (a frame
  // or two after the resize): what is checked is the bar as it settles, not the frame before.
  await expect.poll(() => player.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect
    .poll(async () => {
      const button = await player.getByTestId('player-quality').boundingBox();
      return button!.x + button!.width;
    })
    .toBeLessThanOrEqual(390);
  await context.close();

  // The administrator sees the ladders made and left (none left: this one is made).
  const admin = await signedIn(browser, cast.admin);
  await openPage(admin.page, '/admin', admin.page.getByTestId('admin-page'));
  await expect(admin.page.getByTestId('admin-streaming')).toHaveText(
    /^Diffusion adaptative : \d+ vidéos? prêtes?, aucune ne reste à préparer\.$/,
  );
  await admin.context.close();
});
