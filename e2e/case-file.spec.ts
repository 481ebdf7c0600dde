import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Person } from './fixtures.ts';
import { signIn } from './support.ts';

/** Two different clips, a JPEG renamed `.mp4`, made for this run. */
const media = { dir: '', clip: '', otherClip: '', fakeVideo: '' };

function ffmpeg(args: string[]) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'ignore' });
}

function clip(file: string, source: string) {
  ffmpeg([
    ...['-f', 'lavfi', '-i', `${source}=size=640x360:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-t', '12', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', file],
  ]);
}

test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-case-file-'));
  media.clip = path.join(media.dir, 'intervention.mp4');
  media.otherClip = path.join(media.dir, 'autre-intervention.mp4');
  clip(media.clip, 'testsrc2');
  clip(media.otherClip, 'mandelbrot');
  const jpeg = path.join(media.dir, 'photo.jpg');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=800x600', '-frames:v', '1', jpeg]);
  media.fakeVideo = path.join(media.dir, 'pas-une-video.mp4');
  copyFileSync(jpeg, media.fakeVideo);
});

test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

test.describe.configure({ mode: 'serial' });

/** The browser's fingerprint of a file (lib/video-file-check.ts), computed the same way here. */
function fingerprintOf(bytes: Buffer): string {
  const edge = 1024 * 1024;
  const last = bytes.length > edge ? bytes.subarray(Math.max(edge, bytes.length - edge)) : Buffer.alloc(0);
  const hash = createHash('sha256').update(bytes.subarray(0, edge)).update(last).digest('hex');
  return `sha256:${bytes.length}:${hash}`;
}

const tusMetadata = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** The learner's API, as another device would use it: a case, then the start of its upload. */
async function caseWithPartialUpload(baseURL: string, learner: Person, file: string, sentBytes: number | 'all'): Promise<string> {
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(new URL(url, baseURL), {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as { data: never };
  };
  const { token } = (await call('POST', '/v1/auth', undefined, { email: learner.email, password: learner.password })).data as {
    token: string;
  };
  const surgeries = (await call('GET', '/v1/vocabularies/surgeries?langCode=fr')).data as {
    id: string;
    organId: string | null;
    steps?: { id: string }[];
  }[];
  const surgery = surgeries.find((s) => s.organId)!;
  const video = (
    await call('POST', '/v1/videos', token, {
      kind: 'video',
      surgeryId: surgery.id,
      organId: surgery.organId,
      keyStepIds: [],
      equipmentBrand: 'Medtronic Hugo',
      equipmentUsed: 'Deux bras',
      ageRange: '60_74',
      patientSex: 'woman',
      bmi: 'under_30',
      complication: false,
      radiationHistory: false,
      medicalBackground: [],
      mainHand: 'left',
      surgeryDuration: 95,
      messageToProctor: 'Le temps de la dissection, merci.',
      nasaTlx: { mentalDemand: 60, physicalDemand: 40, temporalDemand: 50, performance: 30, effort: 55, frustration: 20 },
    })
  ).data as { id: string };
  const bytes = readFileSync(file);
  const tus = { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}` };
  const created = await fetch(new URL('/v1/uploads/', baseURL), {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(bytes.length),
      'upload-metadata': tusMetadata({ videoId: video.id, fingerprint: fingerprintOf(bytes) }),
    },
  });
  expect(created.status).toBe(201);
  const part = sentBytes === 'all' ? bytes : bytes.subarray(0, sentBytes);
  const patched = await fetch(new URL(created.headers.get('location')!, baseURL), {
    method: 'PATCH',
    headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: new Uint8Array(part),
  });
  expect(patched.status).toBe(204);
  return video.id;
}

test('a file that is not a video is refused at once, before the case is saved', async ({ page, cast }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.learner.email, cast.learner.password);
  await page.goto('/videos/add');
  let uploads = 0;
  page.on('request', (request) => {
    if (request.url().includes('/v1/uploads') || (request.url().endsWith('/v1/videos') && request.method() === 'POST')) uploads++;
  });
  await page.getByTestId('video-file-input').setInputFiles(media.fakeVideo);
  await expect(page.getByRole('alert').filter({ hasText: "pas-une-video.mp4 : Ce fichier n'est pas une vidéo" })).toBeVisible();
  await expect(page.getByTestId('video-file-name')).toHaveCount(0);
  // A real video is taken.
  await page.getByTestId('video-file-input').setInputFiles(media.clip);
  await expect(page.getByTestId('video-file-name')).toHaveText('intervention.mp4');
  await expect(page.getByRole('alert').filter({ hasText: "n'est pas une vidéo" })).toHaveCount(0);
  expect(uploads).toBe(0);
});

test('an upload begun elsewhere resumes with the same file only, where it stopped', async ({ page, baseURL, cast }) => {
  test.setTimeout(150_000);
  const sent = 300_000;
  const videoId = await caseWithPartialUpload(baseURL!, cast.learner, media.clip, sent);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, cast.learner.email, cast.learner.password);
  await page.goto(`/videos/${videoId}`);
  await expect(page.getByTestId('video-status')).toHaveText('Envoi interrompu');
  await expect(page.getByTestId('resume-upload-button')).toBeVisible();

  // Another file is refused, and nothing is sent.
  await page.getByTestId('resume-upload-input').setInputFiles(media.otherClip);
  await expect(page.getByTestId('resume-upload-error')).toContainText(
    "autre-intervention.mp4 n'est pas le fichier dont l'envoi a commencé",
  );

  // The same file goes on from the server's offset: the first PATCH starts there.
  const firstPatch = page.waitForRequest((request) => request.method() === 'PATCH', { timeout: 30_000 });
  await page.getByTestId('resume-upload-input').setInputFiles(media.clip);
  expect((await firstPatch).headers()['upload-offset']).toBe(String(sent));
  await expect(page.getByTestId('video-status')).not.toHaveText('Envoi interrompu', { timeout: 30_000 });
  await expect(page.getByTestId('video-player')).toBeVisible({ timeout: 90_000 });
});

test('a case whose file failed takes a new file and keeps every field', async ({ page, baseURL, cast }) => {
  test.setTimeout(150_000);
  const videoId = await caseWithPartialUpload(baseURL!, cast.learner, media.fakeVideo, 'all');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.learner.email, cast.learner.password);
  await page.goto(`/videos/${videoId}`);
  await expect(page.getByTestId('video-status')).toHaveText('Échec', { timeout: 60_000 });
  await expect(page.getByTestId('media-panel')).toContainText("Ce fichier n'est pas une vidéo");
  // No toast ever said it was uploaded.
  await expect(page.getByText(/a bien été envoyée/)).toHaveCount(0);

  await page.getByTestId('replace-upload-input').setInputFiles(media.fakeVideo);
  await expect(page.getByTestId('replace-upload-error')).toContainText("n'est pas une vidéo");
  await page.getByTestId('replace-upload-input').setInputFiles(media.otherClip);
  await expect(page.getByTestId('video-player')).toBeVisible({ timeout: 90_000 });
  await expect(page.locator('[data-field="equipmentBrand"]')).toHaveText('Medtronic Hugo');
  await expect(page.locator('[data-field="surgeryDuration"]')).toHaveText('1 h 35 min');
});
