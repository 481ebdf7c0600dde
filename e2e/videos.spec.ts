import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, type Cast } from './fixtures.ts';
import { signIn, watchCsp } from './support.ts';

/** The spec's people, made on its own server before its first test. */
let who: Cast;

const password = 'sutura2026';

/** A 20 s H.264 + AAC clip and two JPEG pictures, made by ffmpeg for this run. */
const media = { dir: '', clip: '', pictures: [] as string[] };

function ffmpeg(args: string[]) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'ignore' });
}

test.beforeAll(async ({ cast }) => {
  who = cast;
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-media-'));
  media.clip = path.join(media.dir, 'intervention.mp4');
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', '20', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac', '-movflags', '+faststart', media.clip],
  ]);
  for (const [index, source] of ['testsrc=size=800x600', 'smptebars=size=800x600'].entries()) {
    const file = path.join(media.dir, `docking-${index + 1}.jpg`);
    ffmpeg(['-f', 'lavfi', '-i', source, '-frames:v', '1', file]);
    media.pictures.push(file);
  }
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

/** The position of the page's video player, read from the element itself. */
const playback = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('[data-testid="video-player"] video')!;
    return { time: video.currentTime, duration: video.duration, paused: video.paused };
  });

async function choose(page: Page, label: RegExp, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

async function fillCase(page: Page) {
  await choose(page, /^Intervention/, 'Transplantation rénale');
  // Choosing the surgery preselects its organ; the key steps are those of the surgery.
  await expect(page.getByRole('combobox', { name: /^Organe/ })).toHaveText('Rein');
  await page.getByRole('combobox', { name: /Étapes clés à analyser/ }).click();
  await page.getByRole('option').nth(0).click();
  await page.getByRole('option').nth(1).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('equipment-brand').fill('Intuitive Surgical');
  await page.getByTestId('surgery-duration').fill('135');
  await page.getByTestId('equipment-used').fill('da Vinci Xi, 4 bras, optique 30°');
  await page.getByRole('radiogroup', { name: 'Main dominante' }).getByRole('radio', { name: 'Droite' }).check();
  await choose(page, /Tranche d'âge/, '45 à 59 ans');
  await page.getByRole('radiogroup', { name: 'Sexe du patient' }).getByRole('radio', { name: 'Homme' }).check();
  await page.getByRole('radiogroup', { name: 'IMC du patient' }).getByRole('radio', { name: 'De 30 à 40' }).check();
  await page.getByRole('radiogroup', { name: 'Complication' }).getByRole('radio', { name: 'Non' }).check();
  await page.getByRole('radiogroup', { name: 'Antécédent de radiothérapie' }).getByRole('radio', { name: 'Oui' }).check();
  await page.getByRole('checkbox', { name: 'Anticoagulant' }).check();
  await page.getByRole('checkbox', { name: 'Insuffisance rénale' }).check();
  await page.getByTestId('surgical-history').fill('Appendicectomie');
  for (const dimension of ['mentalDemand', 'physicalDemand', 'temporalDemand', 'performance', 'effort', 'frustration']) {
    // From the waiting middle (50), one step up rates the scale 55.
    await page.getByTestId(`tlx-${dimension}`).locator('input').focus();
    await page.keyboard.press('ArrowRight');
  }
  await expect(page.getByTestId('tlx-raw-score')).toContainText('55');
  await page.getByTestId('pictures-input').setInputFiles(media.pictures);
  await page.getByTestId('video-file-input').setInputFiles(media.clip);
  await page.getByTestId('message-to-proctor').fill('Merci d’évaluer la dissection du col vésical et l’anastomose.');
}

test('a surgeon adds a video, watches it, shares it, revokes the share and deletes it', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const violations = watchCsp(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, who.learner.email, password);

  await page.getByRole('link', { name: 'Mes vidéos' }).first().click();
  await expect(page).toHaveURL(/\/videos$/);
  await expect(page.getByTestId('video-tab-mine')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('add-video').click();
  await expect(page).toHaveURL(/\/videos\/add$/);
  await fillCase(page);

  // A slow uplink, so that the upload lasts long enough to be seen and to move around meanwhile.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const seconds = 15;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: Math.ceil(statSync(media.clip).size / seconds),
  });
  await page.getByTestId('submit-video').click();
  await expect(page).toHaveURL(/\/videos$/, { timeout: 30_000 });
  // The visible line (the live region beside it repeats it for screen readers, at each quarter).
  const bar = page.getByTestId('upload-progress').locator('p', { hasText: /Envoi de votre vidéo en cours/ });
  await expect(bar).toBeVisible();
  // The card of the case being uploaded shows this tab's progress.
  const card = page.getByTestId('video-card').first();
  await expect(card.getByTestId('media-state')).toHaveAttribute('data-media-status', 'uploading');

  // The upload goes on while the surgeon moves to another page.
  await page.getByRole('link', { name: 'Tableau de bord' }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(bar).toBeVisible();
  await expect(bar).toBeHidden({ timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // The server processes the video and says so live: the bell's dot, then "prête" in the list.
  await expect(page.getByTestId('notification-dot')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-item').filter({ hasText: /prête/ }).first()).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('Escape');

  await page.goto('/videos');
  const ready = page.getByTestId('video-card').first();
  await expect(ready.getByTestId('video-status')).toHaveText('Enregistrée');
  await expect(ready).toContainText('0:00:20');
  await ready.getByRole('link').click();
  await expect(page).toHaveURL(/\/videos\/[0-9a-f-]{36}$/);
  const videoId = /\/videos\/([0-9a-f-]{36})$/.exec(page.url())![1]!;

  // Every field of the case, readable.
  await expect(page.locator('[data-field="equipmentBrand"]')).toHaveText('Intuitive Surgical');
  await expect(page.locator('[data-field="bmi"]')).toHaveText('De 30 à 40');
  await expect(page.locator('[data-field="medicalBackground"]')).toHaveText('Anticoagulant, Insuffisance rénale');
  await expect(page.getByText('Merci d’évaluer la dissection du col vésical et l’anastomose.')).toBeVisible();
  await page.getByTestId('detail-tab-nasaTlx').click();
  await expect(page.getByTestId('nasa-tlx-raw')).toHaveText('55 / 100');
  await page.getByTestId('detail-tab-pictures').click();
  await expect(page.getByTestId('picture-thumbnail')).toHaveCount(2);

  // Play, then seek: by the skip button, and on the timeline.
  const player = page.getByTestId('video-player');
  await expect(player).toBeVisible();
  await expect.poll(async () => (await playback(page)).duration).toBeGreaterThan(19);
  await page.getByTestId('player-play').click();
  await expect.poll(async () => (await playback(page)).time).toBeGreaterThan(0.3);
  const beforeSkip = (await playback(page)).time;
  await page.getByTestId('player-skip-forward').click();
  const afterSkip = await playback(page);
  expect(afterSkip.time).toBeGreaterThanOrEqual(beforeSkip + 9);
  expect(afterSkip.time).toBeLessThanOrEqual(afterSkip.duration);
  // Skips never leave 0..duration.
  for (let i = 0; i < 3; i++) await page.getByTestId('player-skip-forward').click();
  const atEnd = await playback(page);
  expect(atEnd.time).toBeLessThanOrEqual(atEnd.duration);
  expect(atEnd.time).toBeGreaterThan(atEnd.duration - 1);
  for (let i = 0; i < 4; i++) await page.getByTestId('player-skip-back').click();
  expect((await playback(page)).time).toBeGreaterThanOrEqual(0);
  expect((await playback(page)).time).toBeLessThan(1);

  const timeline = page.getByTestId('player-timeline');
  const box = (await timeline.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(async () => (await playback(page)).time).toBeGreaterThan(8);
  expect((await playback(page)).time).toBeLessThan(13);

  // Hovering the timeline shows the storyboard thumbnail of that moment.
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
  const preview = page.getByTestId('storyboard-preview');
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((element) => getComputedStyle(element.firstElementChild!).backgroundImage))
    .toContain('/v1/media/');
  await page.mouse.move(box.x + box.width / 2, box.y - 200);

  // Share with a colleague, who reads it on the shared page.
  await page.getByTestId('share-video').click();
  await page.getByTestId('share-email').fill(who.editor.email);
  await page.getByTestId('confirm-share').click();
  await expect(page.getByTestId('share-item').filter({ hasText: who.editor.email })).toBeVisible();

  const editorContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'fr-FR' });
  const editorPage = await editorContext.newPage();
  await signIn(editorPage, who.editor.email, password);
  await editorPage.goto(`/videos/${videoId}/shared`);
  await expect(editorPage.getByTestId('video-player')).toBeVisible();
  await expect(editorPage.getByTestId('shared-read-only')).toContainText('lecture seule');
  for (const action of ['send-video', 'edit-video', 'share-video', 'delete-video', 'favourite-toggle']) {
    await expect(editorPage.getByTestId(action)).toHaveCount(0);
  }

  // Revoked: the colleague gets the not-found page.
  await page.getByTestId('share-item').filter({ hasText: who.editor.email }).getByTestId('revoke-share').click();
  await expect(page.getByText("Cette vidéo n'est partagée avec personne.")).toBeVisible();
  await editorPage.reload();
  await expect(editorPage.getByTestId('video-not-found')).toBeVisible();
  await expect(editorPage.getByText('Page introuvable')).toBeVisible();
  await editorContext.close();

  // Deleted after saying it is irreversible: gone from the list.
  await page.getByTestId('delete-video').click();
  await expect(page.getByRole('dialog')).toContainText('irréversible');
  await page.getByTestId('confirm-delete').click();
  await expect(page).toHaveURL(/\/videos$/);
  await expect(page.getByTestId('video-list-empty').or(page.getByTestId('video-card').first())).toBeVisible();
  await expect(page.locator(`[data-testid="video-card"][data-video-id="${videoId}"]`)).toHaveCount(0);
  // Upload, player, storyboard, pictures and dialogs all ran under the strict policy.
  expect(violations).toEqual([]);
});
