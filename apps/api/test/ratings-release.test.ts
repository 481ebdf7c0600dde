// @database-server: the statistics SQL (AT TIME ZONE on the server's time zone data, the stats_version triggers)
import type { AddressInfo } from 'node:net';
import { asc, eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResultSchema, KPIS, type Kpi } from '@sutura/domain/analysis';
import type { Dashboard } from '@sutura/domain/dashboard';
import type { LearnerSelfVsExpert, SelfAssessment } from '@sutura/domain/self-assessment';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import type { LearnerStats } from '@sutura/domain/stats';
import { analyses, surgerySteps, videos, videoSteps } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { readableMail } from './mail-text.ts';
import { videoForm } from './video-fixtures.ts';

// The rule of docs/self-assessment.md, surface by surface: a case's ratings reach its learner only
// once its result is released and the learner answered or skipped its self-assessment; from then
// on the self-assessment is read-only, and every surface shows the same result.

type Person = Awaited<ReturnType<TestContext['createUser']>>;
let ctx: TestContext;
let learner: Person;
let peer: Person;
let first: Person;
let second: Person;
let admin: Person;
/** Every socket event the learner received, with its payload. */
const heard: { event: string; payload: unknown }[] = [];
let socket: Socket | undefined;

const db = () => ctx.database.db;
const allKpis = (level: number) => Object.fromEntries(KPIS.map((k) => [k, level])) as Record<Kpi, number>;
const get = (url: string, who: Person = learner) =>
  ctx.inject({ method: 'GET', url, token: who.token, headers: { 'accept-language': 'en' } });

beforeAll(async () => {
  ctx = await createTestContext({ listen: true });
  learner = await ctx.createUser('learner');
  peer = await ctx.createUser('learner');
  first = await ctx.createUser('expert');
  second = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
  // Every case of this file drawn for a second review until a test says otherwise.
  const share = await ctx.inject({ method: 'PUT', url: '/v1/admin/review-settings', token: admin.token, body: { secondReviewShare: 100 } });
  expect(share.statusCode, share.body).toBe(200);

  const port = (ctx.app.server.address() as AddressInfo).port;
  socket = io(`http://127.0.0.1:${port}`, { auth: { token: learner.token }, transports: ['websocket'], reconnection: false });
  socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket!.once('connect', resolve);
    socket!.once('connect_error', reject);
  });
  await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.initialize, { id: learner.id });
}, 180_000);

afterAll(async () => {
  socket?.close();
  await ctx?.close();
});

/**
 * A case of `author` rendered with two steps, entering the analysis stage: the draw of the second
 * review is made as the render makes it (docs/double-review.md).
 */
async function caseEnteringAnalysis(author: Person = learner) {
  const form = await videoForm(ctx);
  const { kind: _kind, ...fields } = form;
  const [row] = await db()
    .insert(videos)
    .values({
      ...fields,
      authorId: author.id,
      kind: 'video',
      status: 'pending_analysis',
      mediaStatus: 'ready',
      duration: 60,
      sentAt: new Date(),
    })
    .returning();
  const [step] = await db()
    .select()
    .from(surgerySteps)
    .where(eq(surgerySteps.surgeryId, form.surgeryId))
    .orderBy(asc(surgerySteps.position));
  await db()
    .insert(videoSteps)
    .values([
      { videoId: row!.id, position: 0, surgeryStepId: step!.id, name: step!.nameEn, start: 0, end: 20 },
      { videoId: row!.id, position: 1, surgeryStepId: null, name: 'Closure', start: 25, end: 50 },
    ]);
  await ctx.services.review.draw(db(), row!.id);
  return row!.id;
}

/** An expert claims the case, rates every KPI, step and the global rating at `level`, and submits. */
async function review(videoId: string, who: Person, level: number) {
  const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/claim`, token: who.token, body: {} });
  expect(claimed.statusCode, claimed.body).toBe(200);
  const fencingToken = claimed.json().data.fencingToken as number;
  const workspace = await get(`/v1/expert/videos/${videoId}`, who);
  const steps = workspace.json().data.steps as { id: string }[];
  const saved = await ctx.inject({
    method: 'PUT',
    url: `/v1/expert/videos/${videoId}/analysis`,
    token: who.token,
    body: {
      fencingToken,
      kpiRatings: allKpis(level),
      stepRatings: steps.map((s) => ({ stepId: s.id, rating: level })),
      globalRating: level,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const done = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${videoId}/finalize`, token: who.token, body: { fencingToken } });
  expect(done.statusCode, done.body).toBe(200);
}

const selfAssessment = async (videoId: string) => {
  const res = await get(`/v1/videos/${videoId}/self-assessment`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as SelfAssessment;
};
const rate = (videoId: string, level: number) =>
  ctx.inject({ method: 'PUT', url: `/v1/videos/${videoId}/self-assessment`, token: learner.token, body: { kpiRatings: allKpis(level) } });
const skip = (videoId: string) =>
  ctx.inject({ method: 'POST', url: `/v1/videos/${videoId}/self-assessment/skip`, token: learner.token, body: {} });
const dashboard = async () => ((await get('/v1/dashboard')).json().data as Dashboard).learner!;
const stats = async (who: Person = learner) => {
  const data = (await get('/v1/stats/me', who)).json().data as LearnerStats;
  if (!data.ratingsShown) throw new Error('ratings hidden');
  return data;
};
const selfVsExpert = async () => {
  const data = (await get('/v1/stats/me/self-assessment')).json().data as LearnerSelfVsExpert;
  if (!data.ratingsShown) throw new Error('ratings hidden');
  return data;
};
/** The learner's own cases in their statistics (the radar of now) and the cases of the average surgeon. */
const counted = async (who: Person = learner) => {
  const s = await stats(who);
  return {
    mine: s.radar.find((r) => r.key === 0)!.analyses,
    months: s.timeline.reduce((n, m) => n + m.analyses, 0),
    average: s.radar.find((r) => r.key === 'average')!.analyses,
  };
};
const gapCases = async () => (await selfVsExpert()).months.reduce((n, m) => n + m.cases, 0);
/** No payload the learner heard carries a rating, a gap or a level. */
const heardNoRating = () => {
  const text = JSON.stringify(heard);
  expect(text).not.toMatch(/rating|kpi|gap|"level"/i);
};
const notificationTexts = async () =>
  ((await get('/v1/notification/list?limit=100')).json().data.data as { content: string }[]).map((n) => n.content);

/** Nothing of the case's ratings reaches the learner, on any surface. */
async function expectHidden(videoId: string, baseline: { mine: number; months: number; average: number; gapCases: number }) {
  expect(await counted()).toEqual({ mine: baseline.mine, months: baseline.months, average: baseline.average });
  // The average surgeon of another learner leaves it out too.
  expect((await counted(peer)).average).toBe(baseline.average);
  expect(await gapCases()).toBe(baseline.gapCases);
  const mine = await dashboard();
  if (mine.latestFeedback?.videoId === videoId) {
    expect(mine.latestFeedback).toMatchObject({ awaitingSelfAssessment: true });
    expect(mine.latestFeedback).not.toHaveProperty('globalRating');
  }
  expect((await selfAssessment(videoId)).comparison).toBeNull();
  const comparison = await get(`/v1/videos/${videoId}/comparison`);
  expect(JSON.stringify(comparison.json())).not.toMatch(/rating/i);
  heardNoRating();
}

describe('a case reviewed twice, self-assessed before its result (the reproduction of the issue)', () => {
  it('hides the first review everywhere while the second is awaited, keeps the self-assessment open, then shows the mean', async () => {
    const before = { ...(await counted()), gapCases: await gapCases() };
    const videoId = await caseEnteringAnalysis();
    expect((await db().select().from(videos).where(eq(videos.id, videoId)))[0]!.reviewsRequired).toBe(2);
    expect((await rate(videoId, 5)).statusCode).toBe(200);

    // The first expert rates everything 1 and submits: the result waits for the second review.
    await review(videoId, first, 1);
    const notReady = await get(`/v1/videos/${videoId}/analysis`);
    expect(notReady.statusCode).toBe(404);
    expect(notReady.json().error.code).toBe('ANALYSIS_NOT_READY');
    expect((await get(`/v1/videos/${videoId}/analysis/report`)).statusCode).toBe(404);
    expect((await get(`/v1/videos/${videoId}/comparison`)).json().error.code).toBe('ANALYSIS_NOT_READY');
    // No gap, no rating: not in self against expert, the statistics, the dashboard.
    await expectHidden(videoId, before);
    const board = await dashboard();
    expect(board.latestFeedback?.videoId).not.toBe(videoId);
    expect(JSON.stringify(board)).not.toMatch(/"globalRating":1\b/);
    // The self-assessment can still be changed.
    const changed = await rate(videoId, 4);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ canRate: true, ratingsReleasedAt: null, comparison: null });

    // The second expert rates everything 2: the result is released, and with it the ratings (the
    // learner had answered): every surface shows the mean, 1.5.
    await review(videoId, second, 2);
    const self = await selfAssessment(videoId);
    expect(self).toMatchObject({ state: 'submitted', canRate: false, invite: false });
    expect(self.ratingsReleasedAt).not.toBeNull();
    expect(self.comparison).toEqual([
      ...KPIS.map((kpi) => ({ kpi, self: 4, expert: 1.5, gap: 2.5 })),
      { kpi: 'global', self: null, expert: 1.5, gap: null },
    ]);
    const locked = await rate(videoId, 2);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
    expect((await skip(videoId)).json().error.code).toBe('SELF_ASSESSMENT_LOCKED');

    const result = analysisResultSchema.parse((await get(`/v1/videos/${videoId}/analysis`)).json().data);
    expect(result.mean.globalRating).toBe(1.5);
    const [video] = await db().select().from(videos).where(eq(videos.id, videoId));
    const reviews = await db().select().from(analyses).where(eq(analyses.videoId, videoId)).orderBy(asc(analyses.round));
    const latest = (await dashboard()).latestFeedback!;
    expect(latest).toEqual({
      videoId,
      surgery: expect.any(String),
      // The release of the result (the second review), not the first review.
      submittedAt: video!.resultReleasedAt!.toISOString(),
      awaitingSelfAssessment: false,
      globalRating: result.mean.globalRating,
    });
    expect(Date.parse(latest.submittedAt)).toBeGreaterThanOrEqual(reviews[1]!.submittedAt!.getTime());
    expect(Date.parse(latest.submittedAt)).toBeGreaterThan(reviews[0]!.submittedAt!.getTime());

    expect(await counted()).toEqual({ mine: before.mine + 1, months: before.months + 1, average: before.average + 1 });
    expect((await counted(peer)).average).toBe(before.average + 1);
    const month = (await selfVsExpert()).months.at(-1)!;
    expect(month).toMatchObject({ cases: 1, overall: 2.5, pairs: 5 });
    expect((await get(`/v1/videos/${videoId}/analysis/report`)).statusCode).toBe(200);
    const comparison = await get(`/v1/videos/${videoId}/comparison`);
    expect(comparison.statusCode).toBe(200);
    expect(JSON.stringify(comparison.json())).not.toMatch(/rating/i);

    // Told of the analysis without a rating: in the app, by mail and on the socket.
    const texts = await notificationTexts();
    expect(texts.some((t) => /analys/.test(t))).toBe(true);
    for (const text of texts) expect(text).not.toMatch(/\d\s*\/\s*5|1[.,]5|rating|note/i);
    const mail = readableMail((await ctx.waitForMail(learner.email)).text);
    expect(mail).toMatch(/analys/);
    expect(mail).not.toMatch(/\d\s*\/\s*5|rating|note globale/i);
    heardNoRating();
  });
});

describe('a case reviewed twice, not self-assessed before its result', () => {
  it('keeps the ratings hidden once both reviews are in, until the learner skips; then the mean everywhere', async () => {
    const before = { ...(await counted()), gapCases: await gapCases() };
    const videoId = await caseEnteringAnalysis();
    await review(videoId, first, 3);
    await expectHidden(videoId, before);
    await review(videoId, second, 4);

    // The result is released, the ratings are not: the invitation comes first.
    expect(await selfAssessment(videoId)).toMatchObject({ state: 'open', invite: true, canRate: true, ratingsReleasedAt: null });
    expect((await get(`/v1/videos/${videoId}/analysis?ifReady=true`)).json().data).toBeNull();
    await expectHidden(videoId, before);
    const waiting = (await dashboard()).latestFeedback!;
    expect(waiting).toEqual({ videoId, surgery: expect.any(String), submittedAt: expect.any(String), awaitingSelfAssessment: true });

    const dashboardEvents = heard.filter((h) => h.event === SOCKET_EVENTS.dashboardChanged).length;
    const skipped = await skip(videoId);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json().data).toMatchObject({ state: 'skipped', canRate: false, comparison: null });
    // The learner's dashboard hears of it.
    await expect.poll(() => heard.filter((h) => h.event === SOCKET_EVENTS.dashboardChanged).length).toBeGreaterThan(dashboardEvents);

    const result = analysisResultSchema.parse((await get(`/v1/videos/${videoId}/analysis`)).json().data);
    expect(result.mean.globalRating).toBe(3.5);
    expect((await dashboard()).latestFeedback).toEqual({ ...waiting, awaitingSelfAssessment: false, globalRating: 3.5 });
    expect(await counted()).toEqual({ mine: before.mine + 1, months: before.months + 1, average: before.average + 1 });
    // Skipped: no gap to count.
    expect(await gapCases()).toBe(before.gapCases);
    expect((await rate(videoId, 3)).json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
    heardNoRating();
  });
});

describe('a case reviewed once', () => {
  it('is hidden on the dashboard and in the statistics from its finalize until the learner answers', async () => {
    const share = await ctx.inject({ method: 'PUT', url: '/v1/admin/review-settings', token: admin.token, body: { secondReviewShare: 0 } });
    expect(share.statusCode, share.body).toBe(200);
    const before = { ...(await counted()), gapCases: await gapCases() };
    const average = (await dashboard()).averageGlobalRating;
    const videoId = await caseEnteringAnalysis();
    await review(videoId, first, 5);
    expect((await db().select().from(videos).where(eq(videos.id, videoId)))[0]!.status).toBe('analysed');

    await expectHidden(videoId, before);
    const board = await dashboard();
    expect(board.latestFeedback).toMatchObject({ videoId, awaitingSelfAssessment: true });
    expect(board.averageGlobalRating).toBe(average);

    const answered = await rate(videoId, 3);
    expect(answered.statusCode).toBe(200);
    expect(answered.json().data).toMatchObject({ canRate: false, state: 'submitted' });
    expect(answered.json().data.comparison).toContainEqual({ kpi: 'autonomy', self: 3, expert: 5, gap: -2 });
    const after = await dashboard();
    expect(after.latestFeedback).toMatchObject({ videoId, awaitingSelfAssessment: false, globalRating: 5 });
    expect(after.averageGlobalRating).not.toBe(average);
    expect(await counted()).toEqual({ mine: before.mine + 1, months: before.months + 1, average: before.average + 1 });
    expect(await gapCases()).toBe(before.gapCases + 1);
    expect((await rate(videoId, 5)).json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
  });

  it("is released by its author's reading of the result, which counts as a skip", async () => {
    const videoId = await caseEnteringAnalysis();
    await review(videoId, first, 2);
    expect((await dashboard()).latestFeedback).toMatchObject({ videoId, awaitingSelfAssessment: true });
    expect((await get(`/v1/videos/${videoId}/analysis`)).statusCode).toBe(200);
    expect((await dashboard()).latestFeedback).toMatchObject({ videoId, awaitingSelfAssessment: false, globalRating: 2 });
    expect((await selfAssessment(videoId)).canRate).toBe(false);
  });
});
