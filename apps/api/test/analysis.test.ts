import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResultSchema, expertWorkspaceSchema, KPIS, type Kpi } from '@sutura/domain/analysis';
import { LEASE_MS } from '@sutura/domain/claims';
import { DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { analyses, media, notifications, surgerySteps, users, videoShares, videoSteps, videos } from '../src/db/schema.ts';
import { ffprobe } from '../src/media-pipeline/ffmpeg.ts';
import pino from 'pino';
import { DEMO_EXPERT_EMAIL, seedDemoAnalysis } from '../src/demo/analysis.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let work: string;
let learner: Person;
let otherLearner: Person;
let colleague: Person;
let editor: Person;
let expert: Person;
let otherExpert: Person;
let admin: Person;

const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestContext();
  work = await mkdtemp(path.join(tmpdir(), 'sutura-analysis-test-'));
  learner = await ctx.createUser('learner', { lastName: 'Rousseau-Learner', yearsOfExperience: 7, robot: 'da Vinci Xi' });
  otherLearner = await ctx.createUser('learner');
  colleague = await ctx.createUser('learner');
  editor = await ctx.createUser('editor');
  expert = await ctx.createUser('expert', { firstName: 'Claire', lastName: 'Dubois' });
  otherExpert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
}, 180_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await ctx?.close();
});

/** A video as the preparation stage leaves it: rendered, with three steps, waiting for an expert. */
async function preparedVideo(opts: { priority?: boolean; sentAt?: Date } = {}) {
  const form = await videoForm(ctx);
  const { kind: _kind, ...fields } = form;
  const [row] = await db()
    .insert(videos)
    .values({
      ...fields,
      authorId: learner.id,
      kind: 'video',
      status: 'pending_analysis',
      mediaStatus: 'ready',
      duration: 60,
      priority: opts.priority ?? false,
      sentAt: opts.sentAt ?? new Date(),
    })
    .returning();
  const [vocabulary] = await db()
    .select()
    .from(surgerySteps)
    .where(eq(surgerySteps.surgeryId, form.surgeryId))
    .orderBy(asc(surgerySteps.position));
  await db()
    .insert(videoSteps)
    .values([
      { videoId: row!.id, position: 0, surgeryStepId: vocabulary!.id, name: vocabulary!.nameEn, start: 0, end: 15 },
      { videoId: row!.id, position: 1, surgeryStepId: null, name: 'Dissection du col', start: 20, end: 40 },
      { videoId: row!.id, position: 2, surgeryStepId: null, name: 'Fermeture', start: 45, end: 58 },
    ]);
  await db().insert(videoShares).values({ videoId: row!.id, userId: colleague.id });
  return row!;
}

async function claim(videoId: string, who: Person = expert): Promise<number> {
  const res = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/claim`, token: who.token, body: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.fencingToken as number;
}

async function workspace(videoId: string, who: Person = expert) {
  const res = await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${videoId}?langCode=en`, token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  return expertWorkspaceSchema.parse(res.json().data);
}

function save(videoId: string, body: Record<string, unknown>, who: Person = expert) {
  return ctx.inject({ method: 'PUT', url: `/v1/expert/videos/${videoId}/analysis`, token: who.token, body });
}

const allKpis = (rating: number) => Object.fromEntries(KPIS.map((k) => [k, rating])) as Record<Kpi, number>;

/** A recording like a browser's MediaRecorder makes: Opus in WebM, no duration in its header. */
function recording(file: string, seconds: number) {
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=48000:duration=${seconds}`],
      ...['-af', 'volume=0.5,tremolo=f=5:d=0.7', '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm', file],
    ],
    { stdio: 'ignore' },
  );
}

function voiceUpload(videoId: string, token: number | null, bytes: Buffer, who: Person = expert, type = 'audio/webm') {
  const boundary = `----sutura${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  if (token !== null) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fencingToken"\r\n\r\n${token}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="voice.webm"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return ctx.app.inject({
    method: 'POST',
    url: `/v1/expert/videos/${videoId}/voice`,
    headers: { authorization: `Bearer ${who.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
}

async function pdfText(videoId: string, who: Person, lang: 'fr' | 'en'): Promise<string> {
  const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${videoId}/analysis/report?langCode=${lang}`, token: who.token });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('the expert pool', () => {
  it('lists prepared videos priority first, then oldest, with what an expert chooses by', async () => {
    const hourAgo = new Date(Date.now() - 3 * 3600_000);
    const old = await preparedVideo({ sentAt: new Date(Date.now() - 30 * 3600_000) });
    const urgent = await preparedVideo({ priority: true, sentAt: hourAgo });
    const recent = await preparedVideo({ sentAt: hourAgo });
    const res = await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100&langCode=en', token: expert.token });
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.data as { id: string }[]).map((v) => v.id);
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(old.id));
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(recent.id));
    const item = res.json().data.data.find((v: { id: string }) => v.id === old.id);
    expect(item).toMatchObject({ duration: 60, stepCount: 3, priority: false, waitingHours: 30, leaseEndsAt: null });
    expect(item.surgery.name).toBeTruthy();
    // Nothing about the learner in the pool.
    expect(res.body).not.toContain(learner.email);
    expect(res.body).not.toContain('Rousseau-Learner');
  });

  it('gives a video to one of two experts claiming at once, and takes it out of the pool', async () => {
    const video = await preparedVideo();
    const [a, b] = await Promise.all(
      [expert, otherExpert].map((who) =>
        ctx.inject({ method: 'POST', url: `/v1/expert/videos/${video.id}/claim`, token: who.token, body: {} }),
      ),
    );
    expect([a!.statusCode, b!.statusCode].sort()).toEqual([200, 409]);
    expect([a!.json(), b!.json()].find((r) => !r.success).error.code).toBe('CLAIM_TAKEN');
    const winner = a!.statusCode === 200 ? expert : otherExpert;
    const pool = await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100', token: expert.token });
    expect(pool.json().data.data.map((v: { id: string }) => v.id)).not.toContain(video.id);
    const held = await ctx.inject({ method: 'GET', url: '/v1/expert/held', token: winner.token });
    const mine = held.json().data.data.find((v: { id: string }) => v.id === video.id);
    expect(mine).toMatchObject({ hoursLeft: 12 });
    const release = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/release`,
      token: winner.token,
      body: { fencingToken: (a!.statusCode === 200 ? a! : b!).json().data.fencingToken },
    });
    expect(release.statusCode, release.body).toBe(200);
  });

  it('pages and filters the held list as the pool: the same query string, the same answer', async () => {
    const cases = [await preparedVideo(), await preparedVideo(), await preparedVideo()];
    const tokens: number[] = [];
    for (const c of cases) tokens.push(await claim(c.id, otherExpert));
    try {
      const all = await ctx.inject({ method: 'GET', url: '/v1/expert/held?limit=100', token: otherExpert.token });
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json().data).toMatchObject({ total: 3, page: 1, limit: 100 });
      const ids = (all.json().data.data as { id: string }[]).map((v) => v.id);
      expect(ids.sort()).toEqual(cases.map((c) => c.id).sort());

      const first = await ctx.inject({ method: 'GET', url: '/v1/expert/held?limit=2&page=1', token: otherExpert.token });
      const second = await ctx.inject({ method: 'GET', url: '/v1/expert/held?limit=2&page=2', token: otherExpert.token });
      expect(first.json().data).toMatchObject({ total: 3, page: 1, limit: 2 });
      expect(first.json().data.data).toHaveLength(2);
      expect(second.json().data.data).toHaveLength(1);
      const paged = [...first.json().data.data, ...second.json().data.data].map((v: { id: string }) => v.id);
      expect(new Set(paged).size).toBe(3);

      // A filter the pool takes; another surgery holds nothing here.
      const elsewhere = await ctx.inject({
        method: 'GET',
        url: `/v1/expert/held?filter=surgeryId==${crypto.randomUUID()}`,
        token: otherExpert.token,
      });
      expect(elsewhere.json().data).toMatchObject({ data: [], total: 0 });
      // What the pool refuses, held refuses the same way.
      for (const query of ['limit=101', 'limit=0', 'page=0', 'filter=status==x', 'colour=red']) {
        const pool = await ctx.inject({ method: 'GET', url: `/v1/expert/pool?${query}&langCode=en`, token: otherExpert.token });
        const held = await ctx.inject({ method: 'GET', url: `/v1/expert/held?${query}&langCode=en`, token: otherExpert.token });
        expect(held.statusCode, query).toBe(400);
        expect(held.json(), query).toEqual(pool.json());
      }
    } finally {
      for (const [i, c] of cases.entries()) {
        await ctx.inject({
          method: 'POST',
          url: `/v1/expert/videos/${c.id}/release`,
          token: otherExpert.token,
          body: { fencingToken: tokens[i] },
        });
      }
    }
  });

  it('refuses the pool to learners and editors', async () => {
    for (const who of [learner, editor, admin]) {
      const res = await ctx.inject({ method: 'GET', url: '/v1/expert/pool', token: who.token });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('the analysis of a held video', () => {
  let video: Awaited<ReturnType<typeof preparedVideo>>;
  let token: number;

  beforeAll(async () => {
    video = await preparedVideo();
    token = await claim(video.id);
  });

  it('shows the case and the learner’s experience, never who the learner is', async () => {
    const res = await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${video.id}?langCode=en`, token: expert.token });
    const ws = expertWorkspaceSchema.parse(res.json().data);
    expect(ws.fencingToken).toBe(token);
    expect(ws.hoursLeft).toBe(12);
    expect(ws.steps.map((s) => s.name).slice(1)).toEqual(['Dissection du col', 'Fermeture']);
    expect(ws.learner).toMatchObject({ yearsOfExperience: 7, robot: 'da Vinci Xi' });
    expect(ws.fields.messageToProctor).toBe('Please look at the dissection of the bladder neck');
    expect(ws.nasaTlxRawScore).toBeCloseTo(42.5);
    expect(ws.draft.stepRatings).toHaveLength(3);
    for (const secret of [learner.email, 'Rousseau-Learner', learner.id]) expect(res.body).not.toContain(secret);
  });

  it('keeps the draft to its expert: nobody else reads or writes it', async () => {
    for (const who of [otherExpert]) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${video.id}`, token: who.token });
      expect(res.statusCode).toBe(404);
      expect((await save(video.id, { fencingToken: token, advice: 'x' }, who)).statusCode).toBe(404);
    }
    const asAuthor = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: learner.token });
    expect(asAuthor.statusCode).toBe(404);
    expect(asAuthor.json().error.code).toBe('ANALYSIS_NOT_READY');
    for (const who of [otherLearner, colleague, editor]) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: who.token });
      expect(res.json().error.code, who.email).toBe('NOT_FOUND');
    }
    for (const who of [learner, editor, admin]) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/expert/videos/${video.id}`, token: who.token });
      expect(res.statusCode).toBe(403);
    }
  });

  it('saves only the fields sent, so that autosave never loses what another field holds', async () => {
    const ws = await workspace(video.id);
    const [first, second] = ws.steps;
    let res = await save(video.id, {
      fencingToken: token,
      stepRatings: [{ stepId: first!.id, rating: 4 }],
      advice: 'Garder la caméra stable.',
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await save(video.id, { fencingToken: token, stepRatings: [{ stepId: second!.id, rating: 2 }], kpiRatings: { autonomy: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    res = await save(video.id, { fencingToken: token, kpiRatings: { tissueHandling: 5 }, globalRating: 4 });
    const draft = res.json().data;
    expect(draft.stepRatings.map((r: { rating: number | null }) => r.rating)).toEqual([4, 2, null]);
    expect(draft.kpiRatings).toMatchObject({ autonomy: 3, tissueHandling: 5, depthPerception: null });
    expect(draft.advice).toBe('Garder la caméra stable.');
    expect(draft.globalRating).toBe(4);
  });

  it('refuses ratings out of 1..5, a step of another video, and an unknown token', async () => {
    const bad = [
      { fencingToken: token, globalRating: 6 },
      { fencingToken: token, kpiRatings: { autonomy: 0 } },
      { fencingToken: token, kpiRatings: { courage: 3 } },
      { fencingToken: token, stepRatings: [{ stepId: crypto.randomUUID(), rating: 3 }] },
      { fencingToken: token, advice: 'x'.repeat(10_001) },
    ];
    for (const body of bad) {
      const res = await save(video.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await save(video.id, { fencingToken: token + 5, advice: 'x' })).statusCode).toBe(404);
    expect((await workspace(video.id)).draft.advice).toBe('Garder la caméra stable.');
  });

  it('adds, edits and deletes time-coded comments on the video', async () => {
    const url = `/v1/expert/videos/${video.id}/comments`;
    const one = await ctx.inject({
      method: 'POST',
      url,
      token: expert.token,
      body: { fencingToken: token, start: 12.5, text: 'Traction trop forte ici' },
    });
    expect(one.statusCode, one.body).toBe(201);
    const two = await ctx.inject({
      method: 'POST',
      url,
      token: expert.token,
      body: { fencingToken: token, start: 30, end: 36, text: 'Bonne exposition' },
    });
    expect(two.statusCode, two.body).toBe(201);
    for (const body of [
      { fencingToken: token, start: 61, text: 'past the end' },
      { fencingToken: token, start: 10, end: 5, text: 'backwards' },
      { fencingToken: token, start: 10, text: '   ' },
    ]) {
      expect((await ctx.inject({ method: 'POST', url, token: expert.token, body })).statusCode, JSON.stringify(body)).toBe(400);
    }
    const id = one.json().data.id as string;
    const edited = await ctx.inject({
      method: 'PUT',
      url: `${url}/${id}`,
      token: expert.token,
      body: { fencingToken: token, start: 13, text: 'Traction trop forte sur la vessie' },
    });
    expect(edited.json().data).toMatchObject({ start: 13, end: null, text: 'Traction trop forte sur la vessie' });
    const stranger = await ctx.inject({ method: 'DELETE', url: `${url}/${id}`, token: otherExpert.token, body: { fencingToken: token } });
    expect(stranger.statusCode).toBe(404);
    const temp = await ctx.inject({
      method: 'POST',
      url,
      token: expert.token,
      body: { fencingToken: token, start: 50, text: 'temporary' },
    });
    const removed = await ctx.inject({
      method: 'DELETE',
      url: `${url}/${temp.json().data.id}`,
      token: expert.token,
      body: { fencingToken: token },
    });
    expect(removed.statusCode).toBe(200);
    expect((await workspace(video.id)).draft.comments.map((c) => c.text)).toEqual([
      'Traction trop forte sur la vessie',
      'Bonne exposition',
    ]);
  });

  it('stores a voice advice as AAC in MP4, whatever the browser recorded, and refuses what is not one', async () => {
    const webm = path.join(work, 'voice.webm');
    recording(webm, 3);
    const res = await voiceUpload(video.id, token, await readFile(webm));
    expect(res.statusCode, res.body).toBe(200);
    const voice = res.json().data;
    expect(voice).toMatchObject({ contentType: 'audio/mp4' });
    expect(voice.duration).toBeGreaterThan(2.5);
    expect(voice.duration).toBeLessThan(3.5);
    const [stored] = await db().select().from(media).where(eq(media.id, voice.mediaId));
    const served = await ctx.app.inject({ method: 'GET', url: voice.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('audio/mp4');
    const file = path.join(work, 'served.m4a');
    await writeFile(file, served.rawPayload);
    const probe = await ffprobe(file);
    expect(probe.format.format_name).toContain('mp4');
    expect(probe.streams.map((s) => s.codec_name)).toEqual(['aac']);
    expect(stored!.kind).toBe('voice');

    // A second recording replaces the first, file and all.
    const again = await voiceUpload(video.id, token, await readFile(webm));
    expect(again.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: voice.url })).statusCode).toBe(404);

    const notAudio = await voiceUpload(video.id, token, Buffer.from('%PDF-1.4 not a recording at all'));
    expect(notAudio.statusCode).toBe(422);
    expect(notAudio.json().error.code).toBe('VOICE_NOT_AUDIO');
    const long = path.join(work, 'long.webm');
    // Five minutes and two seconds of near silence: as long as speech, cheaper to make.
    execFileSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=8000:cl=mono',
        '-t',
        '302',
        '-c:a',
        'libopus',
        '-b:a',
        '6k',
        '-f',
        'webm',
        long,
      ],
      { stdio: 'ignore' },
    );
    const tooLong = await voiceUpload(video.id, token, await readFile(long));
    expect(tooLong.statusCode, tooLong.body).toBe(422);
    expect(tooLong.json().error.code).toBe('VOICE_TOO_LONG');
    expect((await voiceUpload(video.id, null, await readFile(webm))).statusCode).toBe(400);
    expect((await voiceUpload(video.id, token, await readFile(webm), otherExpert)).statusCode).toBe(404);
    expect((await workspace(video.id)).draft.voice?.mediaId).toBe(again.json().data.mediaId);
  }, 180_000);

  it('lists what is unrated before submitting, then submits anyway and tells the learner', async () => {
    const refused = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/finalize`,
      token: expert.token,
      body: { fencingToken: token },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('ANALYSIS_UNRATED');
    const ws = await workspace(video.id);
    const paths = (refused.json().error.details as { path: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(
      [`stepRatings.${ws.steps[2]!.id}`, 'kpiRatings.bimanualDexterity', 'kpiRatings.depthPerception', 'kpiRatings.efficiency'].sort(),
    );
    expect((await workspace(video.id)).draft.status).toBe('draft');

    const done = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/finalize?langCode=en`,
      token: expert.token,
      body: { fencingToken: token, confirmAnyway: true },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe('submitted');
    const [row] = await db().select().from(videos).where(eq(videos.id, video.id));
    expect(row!.status).toBe('analysed');
    const [note] = await db().select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(note!.key).toBe('analysisSubmitted');
    expect(note!.link).toBe(`/videos/${video.id}`);
    const mail = await ctx.waitForMail(learner.email);
    expect(mail.text).toContain('Claire Dubois');

    // Submitted: no more writes, and the expert finds it among what they analysed.
    expect((await save(video.id, { fencingToken: token, advice: 'late' })).json().error.code).toBe('LEASE_LOST');
    const analysed = await ctx.inject({ method: 'GET', url: '/v1/expert/analysed', token: expert.token });
    expect(analysed.json().data.data.map((v: { id: string }) => v.id)).toContain(video.id);
    const readOnly = await workspace(video.id);
    expect(readOnly.fencingToken).toBeNull();
    expect(readOnly.draft.status).toBe('submitted');
  });

  it('gives the learner the result, with ratings only while showRatings is on', async () => {
    let res = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis?langCode=en`, token: learner.token });
    expect(res.statusCode, res.body).toBe(200);
    let result = analysisResultSchema.parse(res.json().data);
    expect(result).toMatchObject({ ratingsShown: true, globalRating: 4, advice: 'Garder la caméra stable.' });
    expect(result.expert).toMatchObject({ id: expert.id, firstName: 'Claire', lastName: 'Dubois' });
    expect(result.steps.map((s) => [s.rating, s.duration])).toEqual([
      [4, 15],
      [2, 20],
      [null, 13],
    ]);
    expect(result.activeTime).toBe(48);
    expect(result.nonActiveTime).toBe(12);
    expect(result.kpis.find((k) => k.kpi === 'tissueHandling')!.rating).toBe(5);
    expect(result.comments.map((c) => c.start)).toEqual([13, 30]);
    expect(result.voice?.contentType).toBe('audio/mp4');

    await ctx.inject({
      method: 'PUT',
      url: '/v1/users/preferences',
      token: learner.token,
      body: { ...DEFAULT_PREFERENCES, showRatings: false },
    });
    res = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: learner.token });
    result = analysisResultSchema.parse(res.json().data);
    expect(result.ratingsShown).toBe(false);
    expect(result.globalRating).toBeNull();
    expect(result.steps.every((s) => s.rating === null)).toBe(true);
    expect(result.kpis.every((k) => k.rating === null)).toBe(true);
    expect(result.advice).toBe('Garder la caméra stable.');
    await ctx.inject({ method: 'PUT', url: '/v1/users/preferences', token: learner.token, body: DEFAULT_PREFERENCES });

    const asAdmin = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: admin.token });
    expect(asAdmin.json().data.globalRating).toBe(4);
    for (const who of [otherLearner, colleague, editor, otherExpert, expert]) {
      const denied = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis`, token: who.token });
      expect(denied.statusCode, who.email).toBe(404);
      const pdf = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis/report`, token: who.token });
      expect(pdf.statusCode, who.email).toBe(404);
    }
  });

  it('makes the PDF report in the reader’s language, with the ratings and the advice', async () => {
    const fr = await pdfText(video.id, learner, 'fr');
    expect(fr).toContain("Rapport d'analyse");
    expect(fr).toContain('Garder la caméra stable.');
    expect(fr).toContain('4/5 — Bon');
    expect(fr).toContain('Manipulation des tissus');
    expect(fr).toContain('5/5 — Excellent');
    expect(fr).toContain('Dissection du col');
    expect(fr).toContain('Traction trop forte sur la vessie');
    expect(fr).toContain('0:30–0:36');
    expect(fr).toContain('Claire Dubois');
    const en = await pdfText(video.id, learner, 'en');
    expect(en).toContain('Analysis report');
    expect(en).toContain('4/5 — Good');
    expect(en).toContain('Tissue handling');
    expect(en).toContain('Garder la caméra stable.');
    // Reviewed once: the report is that expert's, with no experts' mean.
    expect(en).toMatch(/Expert:\s*Claire Dubois/);
    expect(en).not.toContain('The experts’ analysis');
    expect(en).not.toContain('Review by');

    await ctx.inject({
      method: 'PUT',
      url: '/v1/users/preferences',
      token: learner.token,
      body: { ...DEFAULT_PREFERENCES, showRatings: false },
    });
    const hidden = await pdfText(video.id, learner, 'en');
    expect(hidden).toContain('Ratings are not shown');
    expect(hidden).not.toMatch(/\d\/5/);
    expect(hidden).toContain('Garder la caméra stable.');
    await ctx.inject({ method: 'PUT', url: '/v1/users/preferences', token: learner.token, body: DEFAULT_PREFERENCES });
  }, 30_000);
});

describe('finalize, abandon and expiry', () => {
  it('submits at once when every step and skill is rated', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    const ws = await workspace(video.id);
    const res = await save(video.id, {
      fencingToken: token,
      stepRatings: ws.steps.map((s) => ({ stepId: s.id, rating: 3 })),
      kpiRatings: allKpis(4),
      globalRating: 3,
      assessment: 'Solide',
    });
    expect(res.statusCode).toBe(200);
    const done = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/finalize`,
      token: expert.token,
      body: { fencingToken: token },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await db().select().from(analyses).where(eq(analyses.videoId, video.id));
    expect(row!.status).toBe('submitted');
  });

  it('submits the analysis with the video or not at all: a failure half-way leaves both as they were', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    const ws = await workspace(video.id);
    await save(video.id, { fencingToken: token, stepRatings: ws.steps.map((s) => ({ stepId: s.id, rating: 3 })), kpiRatings: allKpis(4) });
    // The database refuses this analysis' submission: the write after the video's move fails.
    await ctx.database.pool.query(`
      CREATE FUNCTION refuse_submit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.video_id = '${video.id}' AND NEW.status = 'submitted' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_submit BEFORE UPDATE ON analyses FOR EACH ROW EXECUTE FUNCTION refuse_submit();`);
    try {
      const failed = await ctx.inject({
        method: 'POST',
        url: `/v1/expert/videos/${video.id}/finalize`,
        token: expert.token,
        body: { fencingToken: token },
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await ctx.database.pool.query('DROP TRIGGER refuse_submit ON analyses; DROP FUNCTION refuse_submit();');
    }
    const [still] = await db().select().from(videos).where(eq(videos.id, video.id));
    expect(still).toMatchObject({ status: 'in_analysis', claimHolderId: expert.id });
    expect((await db().select().from(analyses).where(eq(analyses.videoId, video.id)))[0]!.status).toBe('draft');
    // The expert still holds it and submits again.
    const done = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/finalize`,
      token: expert.token,
      body: { fencingToken: token },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await db().select().from(videos).where(eq(videos.id, video.id)))[0]!.status).toBe('analysed');
    expect((await db().select().from(analyses).where(eq(analyses.videoId, video.id)))[0]!.status).toBe('submitted');
  });

  it('discards the draft on abandon and gives the video back to the pool', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    await save(video.id, { fencingToken: token, advice: 'brouillon', kpiRatings: { autonomy: 2 } });
    await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/comments`,
      token: expert.token,
      body: { fencingToken: token, start: 1, text: 'a' },
    });
    const released = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/release`,
      token: expert.token,
      body: { fencingToken: token },
    });
    expect(released.json()).toEqual({ success: true, data: { videoId: video.id, released: true } });
    expect(await db().select().from(analyses).where(eq(analyses.videoId, video.id))).toEqual([]);
    await claim(video.id, otherExpert);
    const ws = await workspace(video.id, otherExpert);
    expect(ws.draft).toMatchObject({ advice: '', comments: [], globalRating: null, voice: null });
  });

  it('lets the lease run out after 12 hours: another expert starts afresh and the first one is told his work is lost', async () => {
    const video = await preparedVideo();
    const token = await claim(video.id);
    await save(video.id, { fencingToken: token, advice: 'avant expiration' });
    ctx.clock.advance(LEASE_MS + 60_000);
    try {
      const pool = await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100', token: otherExpert.token });
      expect(pool.json().data.data.map((v: { id: string }) => v.id)).toContain(video.id);
      const second = await claim(video.id, otherExpert);
      expect(second).toBe(token + 1);
      expect((await workspace(video.id, otherExpert)).draft.advice).toBe('');
      const late = await save(video.id, { fencingToken: token, advice: 'après' });
      expect(late.json().error.code).toBe('LEASE_LOST');
      const told = await db().select().from(notifications).where(eq(notifications.userId, expert.id));
      expect(told.map((n) => n.key)).toContain('analysisLeaseExpired');

      // Left to expire with nobody claiming it: the periodic sweep gives it back and drops the draft.
      const other = await preparedVideo();
      const otherToken = await claim(other.id, otherExpert);
      await save(other.id, { fencingToken: otherToken, advice: 'oublié' }, otherExpert);
      ctx.clock.advance(LEASE_MS + 60_000);
      try {
        expect(await ctx.services.analysis.tidyExpiredLeases()).toBeGreaterThanOrEqual(1);
        const [back] = await db().select().from(videos).where(eq(videos.id, other.id));
        expect(back!.status).toBe('pending_analysis');
        expect(await db().select().from(analyses).where(eq(analyses.videoId, other.id))).toEqual([]);
        const notes = await db().select().from(notifications).where(eq(notifications.userId, otherExpert.id));
        expect(notes.map((n) => n.key)).toContain('analysisLeaseExpired');
      } finally {
        ctx.clock.advance(-(LEASE_MS + 60_000));
      }
    } finally {
      ctx.clock.advance(-(LEASE_MS + 60_000));
    }
  });
});

describe('the demo data', () => {
  it('gives the demo expert a prepared video to claim and the demo learner a full analysis to read', async () => {
    const demoExpert = await ctx.createUser('expert', { email: DEMO_EXPERT_EMAIL });
    const waiting = await preparedVideo();
    const analysed = await preparedVideo();
    for (const v of [waiting, analysed]) await db().delete(videoSteps).where(eq(videoSteps.videoId, v.id));
    await db().update(videos).set({ status: 'analysed' }).where(eq(videos.id, analysed.id));
    const durations = new Map([
      [waiting.id, 150],
      [analysed.id, 120],
    ]);
    await seedDemoAnalysis({
      db: db(),
      voice: ctx.services.voice,
      scratch: ctx.services.scratch,
      log: pino({ level: 'silent' }),
      durations,
    });
    // Run twice (a restart during the first run): nothing doubles.
    await seedDemoAnalysis({
      db: db(),
      voice: ctx.services.voice,
      scratch: ctx.services.scratch,
      log: pino({ level: 'silent' }),
      durations,
    });

    const pool = await ctx.inject({ method: 'GET', url: '/v1/expert/pool?limit=100', token: demoExpert.token });
    const item = pool.json().data.data.find((v: { id: string }) => v.id === waiting.id);
    expect(item.stepCount).toBe(4);
    await claim(waiting.id, demoExpert);

    // Its result is released; its ratings wait for the learner's self-assessment (docs/self-assessment.md).
    const [demoCase] = await db().select().from(videos).where(eq(videos.id, analysed.id));
    expect(demoCase!.resultReleasedAt).not.toBeNull();
    expect(demoCase!.ratingsReleasedAt).toBeNull();
    const self = await ctx.inject({ method: 'GET', url: `/v1/videos/${analysed.id}/self-assessment`, token: learner.token });
    expect(self.json().data).toMatchObject({ invite: true, canRate: true });

    const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${analysed.id}/analysis`, token: learner.token });
    expect(res.statusCode, res.body).toBe(200);
    const result = analysisResultSchema.parse(res.json().data);
    expect(result.steps).toHaveLength(4);
    expect(result.steps.every((s) => s.rating)).toBe(true);
    expect(result.kpis.every((k) => k.rating)).toBe(true);
    expect(result.comments).toHaveLength(3);
    expect(result.comments.filter((c) => c.drawing).map((c) => c.drawing!.time)).toEqual([12, 48]);
    expect(result.advice).toContain('main non dominante');
    expect(result.voice!.duration).toBeGreaterThan(7);
    const served = await ctx.app.inject({ method: 'GET', url: result.voice!.url });
    const file = path.join(work, 'demo-voice.m4a');
    await writeFile(file, served.rawPayload);
    expect((await ffprobe(file)).streams.map((s) => s.codec_name)).toEqual(['aac']);
  }, 60_000);
});

describe('the expert’s public profile', () => {
  it('answers the spec’s call with the career and the avatar', async () => {
    await db()
      .update(users)
      .set({ specialtyId: await ctx.specialtyId() })
      .where(eq(users.id, expert.id));
    const res = await ctx.inject({
      method: 'GET',
      url: `/v1/users/${expert.id}?select=career,information,mediaId&populate=career.specialty,media&langCode=fr`,
      token: learner.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: expert.id,
      information: { firstName: 'Claire', lastName: 'Dubois' },
      mediaId: null,
      media: null,
    });
    expect(res.json().data.career.specialty.name).toBeTruthy();
    expect(res.body).not.toContain(expert.email);
  });
});

describe('the result page’s data', () => {
  let video: Awaited<ReturnType<typeof preparedVideo>>;

  /** An analysed case of the learner, reviewed by `who`. */
  async function analysedBy(who: Person) {
    const row = await preparedVideo();
    const token = await claim(row.id, who);
    const ws = await workspace(row.id, who);
    const saved = await save(
      row.id,
      { fencingToken: token, stepRatings: ws.steps.map((s) => ({ stepId: s.id, rating: 4 })), kpiRatings: allKpis(4), globalRating: 4 },
      who,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const done = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${row.id}/finalize`,
      token: who.token,
      body: { fencingToken: token },
    });
    expect(done.statusCode, done.body).toBe(200);
    return row;
  }

  const read = (id: string, who: Person, query = '') =>
    ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis?langCode=fr${query}`, token: who.token });

  beforeAll(async () => {
    // The expert's public profile: a specialty and an avatar.
    const [avatar] = await db()
      .insert(media)
      .values({ ownerId: otherExpert.id, kind: 'avatar', storageKey: `avatars/${otherExpert.id}.png`, contentType: 'image/png', size: 10 })
      .returning();
    await db()
      .update(users)
      .set({ firstName: 'Hélène', lastName: 'Marchal', specialtyId: await ctx.specialtyId(), avatarMediaId: avatar!.id })
      .where(eq(users.id, otherExpert.id));
    video = await analysedBy(otherExpert);
  });

  it('asked with the case, answers null while the self-assessment invitation is open, and leaves it open', async () => {
    const early = await read(video.id, learner, '&ifReady=true');
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json().data).toBeNull();
    const self = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/self-assessment`, token: learner.token });
    expect(self.json().data).toMatchObject({ invite: true, resultSeenAt: null, canRate: true });

    // A case not analysed yet: null rather than ANALYSIS_NOT_READY.
    const waiting = await preparedVideo();
    const notYet = await read(waiting.id, learner, '&ifReady=true');
    expect(notYet.statusCode, notYet.body).toBe(200);
    expect(notYet.json().data).toBeNull();
    expect((await read(waiting.id, learner)).json().error.code).toBe('ANALYSIS_NOT_READY');

    // The same access rules otherwise, and a flag that is not a boolean is refused.
    for (const who of [otherLearner, colleague, editor, expert])
      expect((await read(video.id, who, '&ifReady=true')).statusCode, who.email).toBe(404);
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis?ifReady=true` })).statusCode).toBe(401);
    const bad = await read(video.id, learner, '&ifReady=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('INVALID_VALUE');
  });

  it('carries its expert’s public profile (name, specialty, avatar), as GET /v1/users/{id} gives it', async () => {
    // An administrator's reading does not lock the invitation, and gets the result at once.
    const asAdmin = await read(video.id, admin, '&ifReady=true');
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(asAdmin.json().data.videoId).toBe(video.id);

    const skip = await ctx.inject({ method: 'POST', url: `/v1/videos/${video.id}/self-assessment/skip`, token: learner.token, body: {} });
    expect(skip.statusCode, skip.body).toBe(200);
    const res = await read(video.id, learner, '&ifReady=true');
    expect(res.statusCode, res.body).toBe(200);
    const result = analysisResultSchema.parse(res.json().data);
    const profile = (
      await ctx.inject({
        method: 'GET',
        url: `/v1/users/${otherExpert.id}?select=career,information,mediaId&populate=career.specialty,media&langCode=fr`,
        token: learner.token,
      })
    ).json().data;
    expect(profile.career.specialty.name).toBeTruthy();
    expect(result.expert).toMatchObject({
      id: otherExpert.id,
      firstName: profile.information.firstName,
      lastName: profile.information.lastName,
      specialty: profile.career.specialty,
      media: { id: profile.mediaId },
    });
    expect(result.expert.firstName).toBe('Hélène');
    expect(result.expert.media!.url).toContain(profile.mediaId);
    expect(result.reviews.map((r) => r.expert)).toEqual([result.expert]);
    expect(res.body).not.toContain(otherExpert.email);
    // Served: the result is seen, the self-assessment locked.
    const self = await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/self-assessment`, token: learner.token });
    expect(self.json().data.resultSeenAt).not.toBeNull();

    // In English, the specialty's English name; an expert without specialty nor avatar has null for both.
    const en = analysisResultSchema.parse(
      (await ctx.inject({ method: 'GET', url: `/v1/videos/${video.id}/analysis?langCode=en`, token: learner.token })).json().data,
    );
    const profileEn = (
      await ctx.inject({
        method: 'GET',
        url: `/v1/users/${otherExpert.id}?select=career&populate=career.specialty&langCode=en`,
        token: learner.token,
      })
    ).json().data;
    expect(en.expert.specialty).toEqual(profileEn.career.specialty);
    await db().update(users).set({ specialtyId: null, avatarMediaId: null }).where(eq(users.id, otherExpert.id));
    const bare = analysisResultSchema.parse((await read(video.id, learner)).json().data);
    expect(bare.expert).toMatchObject({ id: otherExpert.id, specialty: null, media: null });
  });
});
