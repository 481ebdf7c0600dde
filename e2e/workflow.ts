import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';
import { KPIS, type Kpi } from '@sutura/domain/analysis';

/** Helpers that carry a case through the workflow by the API, as the people before the tested one would. */

export const password = 'sutura2026';

export async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  // Signing in hashes the password: slow when several sign in at once on a busy machine.
  const response = await request.post('/v1/auth', { data: { email, password }, timeout: 60_000 });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The learner declines to rate their own case first, so that opening it shows the expert's result at once. */
export async function skipSelfAssessment(request: APIRequestContext, learnerEmail: string, videoId: string): Promise<void> {
  const skipped = await request.post(`/v1/videos/${videoId}/self-assessment/skip`, {
    data: {},
    headers: { Authorization: `Bearer ${await apiToken(request, learnerEmail)}` },
  });
  expect(skipped.status(), await skipped.text()).toBe(200);
}

/** A short test clip made with ffmpeg (pattern and tone), small enough to keep the run fast. */
export function makeClip(file: string, seconds: number): void {
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file],
    ],
    { stdio: 'ignore' },
  );
}

/** The whole of `clip` sent as one tus upload of the case (or best case) video `videoId`. */
async function uploadByTus(request: APIRequestContext, headers: Record<string, string>, videoId: string, clip: string): Promise<void> {
  const bytes = readFileSync(clip);
  const upload = await request.post('/v1/uploads/', {
    headers: {
      ...headers,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': `videoId ${Buffer.from(videoId).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const location = new URL(upload.headers().location!, 'http://placeholder').pathname;
  const patch = await request.patch(location, {
    headers: { ...headers, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  expect(patch.status(), await patch.text()).toBe(204);
}

/** The learner's add page through the API: a case, its video by tus, then "send" (as a priority when asked). */
export async function sendVideo(
  request: APIRequestContext,
  learnerEmail: string,
  clip: string,
  priority = false,
  options: { pictures?: string[]; surgery?: { id: string; organId: string | null; steps: { id: string }[] } } = {},
): Promise<string> {
  const headers = { Authorization: `Bearer ${await apiToken(request, learnerEmail)}` };
  const surgeries = (await (await request.get('/v1/vocabularies/surgeries?langCode=fr')).json()) as {
    data: { id: string; organId: string | null; steps: { id: string }[] }[];
  };
  // The first surgery of the list with an organ and steps, unless the caller brings its own.
  const surgery = options.surgery ?? surgeries.data.find((s) => s.organId && s.steps.length >= 2)!;
  const created = await request.post('/v1/videos', {
    headers,
    data: {
      kind: 'video',
      surgeryId: surgery.id,
      organId: surgery.organId,
      keyStepIds: surgery.steps.slice(0, 2).map((s) => s.id),
      equipmentBrand: 'Intuitive Surgical',
      equipmentUsed: 'da Vinci Xi',
      ageRange: '45_59',
      patientSex: 'man',
      bmi: 'under_30',
      complication: false,
      surgicalHistory: '',
      radiationHistory: false,
      medicalBackground: [],
      mainHand: 'right',
      surgeryDuration: 95,
      messageToProctor: 'Merci de regarder la suture.',
      nasaTlx: { mentalDemand: 60, physicalDemand: 40, temporalDemand: 50, performance: 30, effort: 70, frustration: 20 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const videoId = ((await created.json()) as { data: { id: string } }).data.id;

  // Docking pictures, as the add page sends them (multipart, one per request).
  for (const [index, picture] of (options.pictures ?? []).entries()) {
    const sent = await request.post('/v1/common/medias/create/upload', {
      headers,
      multipart: {
        purpose: 'picture',
        videoId,
        file: { name: `picture-${index + 1}.jpg`, mimeType: 'image/jpeg', buffer: readFileSync(picture) },
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }

  await uploadByTus(request, headers, videoId, clip);
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/v1/videos/${videoId}`, { headers })).json()) as { data: { mediaStatus: string } }).data.mediaStatus,
      {
        timeout: 60_000,
      },
    )
    .toBe('ready');
  const sent = await request.post(`/v1/videos/${videoId}/send`, { headers, data: { priority } });
  expect(sent.status(), await sent.text()).toBe(200);
  return videoId;
}

/** The editor's work through the API: claim, keep the whole clip, two named steps, submit; then wait for the render. */
export async function prepareVideo(
  request: APIRequestContext,
  editorEmail: string,
  learnerEmail: string,
  videoId: string,
  steps: { name: string; start: number; end: number }[],
  keep: { start: number; end: number },
): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, editorEmail)}` };
  const claim = await request.post(`/v1/editor/videos/${videoId}/claim`, { headers, data: {} });
  expect(claim.status(), await claim.text()).toBe(200);
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
  const put = async (what: string, data: object) => {
    const response = await request.put(`/v1/editor/videos/${videoId}/${what}`, { headers, data: { fencingToken, ...data } });
    expect(response.status(), await response.text()).toBe(200);
  };
  await put('trims', { trims: [keep] });
  await put('phase', { phase: 'steps' });
  await put('steps', { steps: steps.map((s) => ({ surgeryStepId: null, ...s })) });
  const submit = await request.post(`/v1/editor/videos/${videoId}/submit`, { headers, data: { fencingToken } });
  expect(submit.status(), await submit.text()).toBe(200);
  const learnerHeaders = { Authorization: `Bearer ${await apiToken(request, learnerEmail)}` };
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/v1/videos/${videoId}`, { headers: learnerHeaders })).json()) as { data: { status: string } }).data
          .status,
      {
        timeout: 90_000,
      },
    )
    .toBe('pending_analysis');
}

/** What an expert writes beyond the same level everywhere (analyseVideo). */
export interface AnalysisInput {
  /** Levels of some skills, over `rating`. */
  kpiRatings?: Partial<Record<Kpi, number>>;
  /** One level for every step of the prepared case. */
  stepRating?: number;
  assessment?: string;
  advice?: string;
  /** Time-coded comments, in seconds of the prepared video. */
  comments?: { start: number; end?: number; text: string }[];
  /** Runs while the expert holds the case, everything saved, before the submit. */
  beforeSubmit?: () => Promise<void>;
}

/**
 * The expert's work through the API: claim a prepared case (or one waiting for a further
 * review), rate the five skills and the whole case (none when `rating` is null), and finalize it
 * (its steps unrated unless `input.stepRating`). `input` adds per-skill levels, texts and comments.
 */
export async function analyseVideo(
  request: APIRequestContext,
  expertEmail: string,
  videoId: string,
  rating: number | null = null,
  input: AnalysisInput = {},
): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, expertEmail)}` };
  const claim = await request.post(`/v1/expert/videos/${videoId}/claim`, { headers, data: {} });
  expect(claim.status(), await claim.text()).toBe(200);
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
  const data: Record<string, unknown> = {};
  if (rating !== null) {
    Object.assign(data, {
      kpiRatings: Object.fromEntries(KPIS.map((k) => [k, rating])),
      globalRating: rating,
      assessment: 'Geste sûr, exposition claire.',
      advice: 'Anticiper la suture.',
    });
  }
  if (input.kpiRatings) data.kpiRatings = { ...(data.kpiRatings as object | undefined), ...input.kpiRatings };
  if (input.assessment !== undefined) data.assessment = input.assessment;
  if (input.advice !== undefined) data.advice = input.advice;
  if (input.stepRating !== undefined) {
    const workspace = await request.get(`/v1/expert/videos/${videoId}`, { headers });
    expect(workspace.status(), await workspace.text()).toBe(200);
    const { steps } = ((await workspace.json()) as { data: { steps: { id: string }[] } }).data;
    data.stepRatings = steps.map((s) => ({ stepId: s.id, rating: input.stepRating }));
  }
  if (Object.keys(data).length > 0) {
    const saved = await request.put(`/v1/expert/videos/${videoId}/analysis`, { headers, data: { fencingToken, ...data } });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  for (const comment of input.comments ?? []) {
    const added = await request.post(`/v1/expert/videos/${videoId}/comments`, { headers, data: { fencingToken, ...comment } });
    expect(added.status(), await added.text()).toBe(201);
  }
  await input.beforeSubmit?.();
  const finalize = await request.post(`/v1/expert/videos/${videoId}/finalize`, { headers, data: { fencingToken, confirmAnyway: true } });
  expect(finalize.status(), await finalize.text()).toBe(200);
}

/** The person's language, set on their account; 'auto' follows the browser's, as a new account does. */
export async function setLanguage(request: APIRequestContext, email: string, langCode: 'fr' | 'en' | 'auto'): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, email)}` };
  const current = await request.get('/v1/users/preferences', { headers });
  expect(current.status(), await current.text()).toBe(200);
  const { preferences } = ((await current.json()) as { data: { preferences: Record<string, unknown> } }).data;
  const put = await request.put('/v1/users/preferences', { headers, data: { ...preferences, langCode } });
  expect(put.status(), await put.text()).toBe(200);
}

/** The surgery sendVideo chooses (the first with an organ and two steps at least), with its steps. */
export async function caseSurgery(request: APIRequestContext): Promise<{ id: string; organId: string | null; steps: { id: string }[] }> {
  const surgeries = (await (await request.get('/v1/vocabularies/surgeries?langCode=fr')).json()) as {
    data: { id: string; organId: string | null; steps: { id: string }[] }[];
  };
  return surgeries.data.find((s) => s.organId && s.steps.length >= 2)!;
}

/**
 * The administrator `adminEmail`'s published best case of `surgery`, its video uploaded by tus and ready, one
 * step at each second of `starts` (the surgery's steps in their order, or the steps given), a note
 * on the first. A title given as one text is made "<title> (fr)" and "<title> (en)".
 */
export async function publishBestCase(
  request: APIRequestContext,
  adminEmail: string,
  clip: string,
  surgery: { id: string; organId: string | null; steps: { id: string }[] },
  title: string | { fr: string; en: string },
  starts: number[] | { surgeryStepId: string; start: number }[],
): Promise<string> {
  const headers = { Authorization: `Bearer ${await apiToken(request, adminEmail)}` };
  const created = await request.post('/v1/admin/best-cases', {
    headers,
    data: {
      source: 'upload',
      titleFr: typeof title === 'string' ? `${title} (fr)` : title.fr,
      titleEn: typeof title === 'string' ? `${title} (en)` : title.en,
      descriptionFr: 'Déroulé de référence.',
      descriptionEn: 'A reference procedure.',
      surgeryId: surgery.id,
      organId: surgery.organId,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id, videoId } = ((await created.json()) as { data: { id: string; videoId: string } }).data;
  await uploadByTus(request, headers, videoId, clip);
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/v1/admin/best-cases/${id}`, { headers })).json()) as { data: { mediaStatus: string } }).data
          .mediaStatus,
      { timeout: 90_000 },
    )
    .toBe('ready');
  const steps = await request.put(`/v1/admin/best-cases/${id}/steps`, {
    headers,
    data: {
      steps: starts.map((step, index) =>
        typeof step === 'number' ? { surgeryStepId: surgery.steps[index % surgery.steps.length]!.id, start: step } : step,
      ),
    },
  });
  expect(steps.status(), await steps.text()).toBe(200);
  const stepIds = ((await steps.json()) as { data: { steps: { id: string }[] } }).data.steps.map((s) => s.id);
  const notes = await request.put(`/v1/admin/best-cases/${id}/step-notes`, {
    headers,
    data: { notes: [{ stepId: stepIds[0], noteFr: 'Exposez avant de disséquer.', noteEn: 'Expose before you dissect.' }] },
  });
  expect(notes.status(), await notes.text()).toBe(200);
  const published = await request.put(`/v1/admin/best-cases/${id}/published`, { headers, data: { published: true } });
  expect(published.status(), await published.text()).toBe(200);
  return id;
}

/**
 * The learner's add page saved without sending (sendVideo stops before "send"): a case of the
 * first surgery with an organ and two steps, its video uploaded by tus and ready; it stays in the
 * learner's own list (the "mine" tab of /videos).
 */
export async function saveVideo(request: APIRequestContext, learnerEmail: string, clip: string): Promise<string> {
  const headers = { Authorization: `Bearer ${await apiToken(request, learnerEmail)}` };
  const surgery = await caseSurgery(request);
  const created = await request.post('/v1/videos', {
    headers,
    data: {
      kind: 'video',
      surgeryId: surgery.id,
      organId: surgery.organId,
      keyStepIds: surgery.steps.slice(0, 2).map((s) => s.id),
      equipmentBrand: 'Intuitive Surgical',
      equipmentUsed: 'da Vinci Xi',
      ageRange: '60_74',
      patientSex: 'woman',
      bmi: 'under_30',
      complication: false,
      surgicalHistory: '',
      radiationHistory: false,
      medicalBackground: [],
      mainHand: 'right',
      surgeryDuration: 120,
      messageToProctor: 'Pouvez-vous regarder la dissection ?',
      nasaTlx: { mentalDemand: 50, physicalDemand: 30, temporalDemand: 40, performance: 40, effort: 60, frustration: 30 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const videoId = ((await created.json()) as { data: { id: string } }).data.id;
  await uploadByTus(request, headers, videoId, clip);
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/v1/videos/${videoId}`, { headers })).json()) as { data: { mediaStatus: string } }).data.mediaStatus,
      { timeout: 60_000 },
    )
    .toBe('ready');
  return videoId;
}
