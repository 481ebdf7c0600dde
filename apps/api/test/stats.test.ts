// @database-server: the statistics SQL (LATERAL, FILTER, AT TIME ZONE on the server's time zone data, the snapshot triggers)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import { learnerNasaTlxSchema, learnerStepTimesSchema, type LearnerStats } from '@sutura/domain/stats';
import type { NasaTlx } from '@sutura/domain/videos';
import { and, asc, eq, sql } from 'drizzle-orm';
import { analyses, specialties, surgeries, surgerySteps, users, videos, videoSteps } from '../src/db/schema.ts';
import { createStatsService, monthsBefore } from '../src/modules/stats/stats.service.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
const NOW = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY);
const people = {} as Record<'a' | 'b' | 'c' | 'lonely' | 'hidden', Awaited<ReturnType<TestContext['createUser']>>>;
/** Two surgeries of the vocabulary: S with its first three steps, T with its first. */
const vocabulary = { s: '', t: '', st1: '', st2: '', st3: '', t1: '' };

/** Every NASA-TLX scale at `level`, with some overridden. */
const tlx = (level: number, overrides: Partial<NasaTlx> = {}): NasaTlx => ({
  mentalDemand: level,
  physicalDemand: level,
  temporalDemand: level,
  performance: level,
  effort: level,
  frustration: level,
  ...overrides,
});

/** A case with its NASA-TLX, sent for review at `sentAt` (null: never sent). */
async function sent(authorId: string, sentAt: Date | null, nasaTlx: NasaTlx) {
  await ctx.database.db
    .insert(videos)
    .values({ authorId, status: sentAt ? 'pending_preparation' : 'saved', mediaStatus: 'ready', sentAt, nasaTlx });
}

/** A prepared case of a surgery: its rendered duration, declared minutes and steps [surgery step or null, start, end]. */
async function prepared(
  authorId: string,
  surgeryId: string,
  duration: number,
  surgeryDuration: number,
  steps: [string | null, number, number][],
) {
  const [video] = await ctx.database.db
    .insert(videos)
    .values({ authorId, surgeryId, status: 'pending_analysis', mediaStatus: 'ready', duration, surgeryDuration, sentAt: daysAgo(3) })
    .returning();
  if (steps.length)
    await ctx.database.db
      .insert(videoSteps)
      .values(
        steps.map(([surgeryStepId, start, end], position) => ({ videoId: video!.id, position, surgeryStepId, name: 'Step', start, end })),
      );
}

/** Every KPI at `level`, with some KPIs overridden (null: not rated). */
const ratings = (level: number, overrides: Partial<Record<Kpi, number | null>> = {}) => ({
  ...Object.fromEntries(KPIS.map((k) => [k, level])),
  ...overrides,
});

/**
 * An analysed case with its review (a draft when `submittedAt` is null). A submitted one is
 * released to its learner at once, as if they had answered their self-assessment before: only such
 * a case counts (docs/self-assessment.md).
 */
async function analysed(authorId: string, submittedAt: Date | null, kpis: Record<string, number | null>, global: number | null) {
  const [video] = await ctx.database.db
    .insert(videos)
    .values({ authorId, status: 'analysed', mediaStatus: 'ready', resultReleasedAt: submittedAt, ratingsReleasedAt: submittedAt })
    .returning();
  await ctx.database.db.insert(analyses).values({
    videoId: video!.id,
    status: submittedAt ? 'submitted' : 'draft',
    kpiRatings: kpis,
    globalRating: global,
    submittedAt,
  });
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  const [s1, s2] = await ctx.database.db.select().from(specialties).limit(2);
  people.a = await ctx.createUser('learner', { specialtyId: s1!.id });
  people.b = await ctx.createUser('learner', { specialtyId: s2!.id });
  people.c = await ctx.createUser('learner', { specialtyId: s1!.id });
  people.lonely = await ctx.createUser('learner', { specialtyId: null });
  people.hidden = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: false } });
  // Learner A: two analyses in the last 90 days, one 100 days ago, and a draft that never counts.
  await analysed(people.a.id, daysAgo(10), ratings(4, { autonomy: 5, tissueHandling: null }), 4);
  await analysed(people.a.id, daysAgo(40), ratings(2), 2);
  await analysed(people.a.id, daysAgo(100), ratings(3), 3);
  await analysed(people.a.id, null, ratings(1), 1);
  await analysed(people.b.id, daysAgo(5), ratings(5), 5);
  await analysed(people.c.id, daysAgo(5), ratings(1), 1);
  await analysed(people.c.id, daysAgo(200), ratings(5), 5);

  // NASA-TLX: A's two cases of the window, one of 100 days ago and one never sent; B's and C's.
  await sent(people.a.id, daysAgo(10), tlx(40, { mentalDemand: 60 }));
  await sent(people.a.id, daysAgo(40), tlx(20));
  await sent(people.a.id, daysAgo(100), tlx(80));
  await sent(people.a.id, null, tlx(100));
  await sent(people.b.id, daysAgo(5), tlx(50));
  await sent(people.c.id, daysAgo(5), tlx(10));

  // Step times: two surgeries of the vocabulary with steps.
  const { rows: withSteps } = await ctx.database.db.execute<{ id: string; n: number }>(
    sql`SELECT s.id, (SELECT count(*)::int FROM surgery_steps ss WHERE ss.surgery_id = s.id) AS n FROM surgeries s ORDER BY s.position`,
  );
  const [s, t] = withSteps.filter((x) => x.n >= 3);
  const stepsOf = async (id: string) =>
    (await ctx.database.db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, id)).orderBy(asc(surgerySteps.position))).map(
      (x) => x.id,
    );
  const [st1, st2, st3] = await stepsOf(s!.id);
  const [t1] = await stepsOf(t!.id);
  Object.assign(vocabulary, { s: s!.id, t: t!.id, st1, st2, st3, t1 });
  // A1: a free step overlaps st2 by 20 s: active 100 + 230 = 330 s of 600.
  await prepared(people.a.id, s!.id, 600, 90, [
    [st1!, 0, 100],
    [st2!, 120, 300],
    [null, 280, 350],
  ]);
  // A2: st1 marked twice (100 s in all) and st3: active 200 s of 400.
  await prepared(people.a.id, s!.id, 400, 70, [
    [st1!, 10, 60],
    [st1!, 100, 150],
    [st3!, 200, 300],
  ]);
  // A's case of T, a case of S not prepared yet (no steps), C's case of S, B's case of T.
  await prepared(people.a.id, t!.id, 300, 40, [[t1!, 0, 120]]);
  await prepared(people.a.id, s!.id, 900, 200, []);
  await prepared(people.c.id, s!.id, 500, 110, [
    [st1!, 0, 200],
    [st2!, 250, 400],
  ]);
  await prepared(people.b.id, t!.id, 300, 60, [[t1!, 0, 60]]);
});
afterAll(async () => {
  await ctx?.close();
});

const PARIS = 'Europe/Paris';
const stats = (at = NOW, timeZone = PARIS) => createStatsService({ db: ctx.database.db, clock: () => at, timeZone });
const viewer = (person: { id: string }, showRatings = true) => ({
  id: person.id,
  sessionId: 'test',
  sessionEndsAt: new Date(8.64e15),
  roles: ['learner' as const],
  preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings },
});
function shown(result: LearnerStats) {
  if (!result.ratingsShown) throw new Error('ratings hidden');
  return result;
}

describe('the radar', () => {
  it('counts back calendar months on the installation’s clock, clamped to the end of a shorter month', () => {
    // 14:00 in Paris (summer time) on 15 June is 14:00 on 15 March (winter time): 13:00Z.
    expect(monthsBefore(NOW, 3, PARIS).toISOString()).toBe('2026-03-15T13:00:00.000Z');
    expect(monthsBefore(NOW, 3, 'UTC').toISOString()).toBe('2026-03-15T12:00:00.000Z');
    expect(monthsBefore(new Date('2026-05-31T08:00:00Z'), 3, PARIS).toISOString()).toBe('2026-02-28T09:00:00.000Z');
  });

  it('gives the learner now, 1, 3 and 6 months ago as means over the 90 days before each point', async () => {
    const result = shown(await stats().learner(viewer(people.a), 'all'));
    const [, now, one, three, six] = result.radar;
    // Now: the analyses of 10 and 40 days ago; tissue handling was rated only in the second.
    expect(now).toMatchObject({ key: 0, analyses: 2, enoughData: true, at: NOW.toISOString() });
    expect(now!.kpis).toEqual({ depthPerception: 3, bimanualDexterity: 3, efficiency: 3, tissueHandling: 2, autonomy: 3.5 });
    // 2026-05-15: the analyses of 40 and 100 days ago (2026-05-06 and 2026-03-07).
    expect(one).toMatchObject({ key: 1, analyses: 2, enoughData: true, at: '2026-05-15T12:00:00.000Z' });
    expect(one!.kpis.depthPerception).toBe(2.5);
    // 2026-03-15: only the one of 100 days ago, too little to make a point.
    expect(three).toMatchObject({ key: 3, analyses: 1, enoughData: false });
    expect(Object.values(three!.kpis)).toEqual([null, null, null, null, null]);
    expect(six).toMatchObject({ key: 6, analyses: 0, enoughData: false });
  });

  it('compares with the average surgeon: the mean of each surgeon’s own mean, over every learner or the same specialty', async () => {
    const all = shown(await stats().learner(viewer(people.a), 'all'));
    // A's two recent ones, B's and C's recent ones; C's of 200 days ago and A's draft are out.
    expect(all).toMatchObject({ minAnalyses: 2, minSurgeons: 2 });
    expect(all.radar[0]).toMatchObject({ key: 'average', analyses: 4, surgeons: 3, enoughData: true });
    expect(all.radar[0]!.kpis).toEqual({
      depthPerception: 3, // A (4 + 2) / 2 = 3, B 5, C 1: (3 + 5 + 1) / 3
      bimanualDexterity: 3,
      efficiency: 3,
      tissueHandling: 2.7, // A 2 (rated once), B 5, C 1: 8 / 3
      autonomy: 3.2, // A (5 + 2) / 2 = 3.5, B 5, C 1: 9.5 / 3 = 3.17 (over analyses it would be 3.25)
    });
    const peers = shown(await stats().learner(viewer(people.a), 'specialty'));
    expect(peers.compare).toBe('specialty');
    expect(peers.radar[0]).toMatchObject({ analyses: 3, surgeons: 2 });
    expect(peers.radar[0]!.kpis.depthPerception).toBe(2); // A 3, C 1 (over analyses: (4 + 2 + 1) / 3 = 2.3)
    expect(peers.radar[0]!.kpis.autonomy).toBe(2.3); // A 3.5, C 1: 2.25 (over analyses: 2.7)
  });

  it('falls back to every learner for someone without a specialty, and says so', async () => {
    const result = shown(await stats().learner(viewer(people.lonely), 'specialty'));
    expect(result).toMatchObject({ compare: 'all', specialtyKnown: false });
    expect(result.radar[0]!.analyses).toBe(4);
    expect(result.radar.slice(1).every((s) => !s.enoughData && s.analyses === 0)).toBe(true);
  });
});

describe('the timeline', () => {
  it('gives each KPI and the global rating month by month over twelve months', async () => {
    const { timeline } = shown(await stats().learner(viewer(people.a), 'all'));
    expect(timeline.map((p) => p.month)).toEqual([
      '2025-07-01',
      '2025-08-01',
      '2025-09-01',
      '2025-10-01',
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
      '2026-06-01',
    ]);
    const byMonth = Object.fromEntries(timeline.map((p) => [p.month, p]));
    expect(byMonth['2026-06-01']).toMatchObject({
      analyses: 1,
      global: 4,
      kpis: { depthPerception: 4, tissueHandling: null, autonomy: 5 },
    });
    expect(byMonth['2026-05-01']).toMatchObject({ analyses: 1, global: 2, kpis: { depthPerception: 2 } });
    expect(byMonth['2026-03-01']).toMatchObject({ analyses: 1, global: 3 });
    expect(byMonth['2026-04-01']).toMatchObject({ analyses: 0, global: null, kpis: { depthPerception: null } });
  });
});

describe('the NASA-TLX', () => {
  it('gives the mean of each scale over the cases sent in the window, mine against every learner', async () => {
    const result = await stats().nasaTlx(viewer(people.a), 'all');
    // Mine: the cases sent 10 and 40 days ago; neither the one of 100 days ago nor the unsent one.
    expect(result.mine).toMatchObject({ key: 'mine', cases: 2, enoughData: true });
    expect(result.mine.dimensions).toEqual({
      mentalDemand: 40, // (60 + 20) / 2
      physicalDemand: 30, // (40 + 20) / 2
      temporalDemand: 30,
      performance: 30,
      effort: 30,
      frustration: 30,
    });
    expect(result.mine.raw).toBe(31.7); // ((60 + 5 × 40) / 6 + 20) / 2 = 31.67
    // The average surgeon: each surgeon's own mean (A's two cases, B's, C's), then their mean.
    expect(result.average).toMatchObject({ key: 'average', cases: 4, surgeons: 3, enoughData: true });
    expect(result.average.dimensions.mentalDemand).toBe(33.3); // A (60 + 20) / 2 = 40, B 50, C 10: 100 / 3 (over cases: 35)
    expect(result.average.dimensions.effort).toBe(30); // A 30, B 50, C 10
    expect(result.average.raw).toBe(30.6); // A 31.67, B 50, C 10: 91.67 / 3 (over cases: 30.8)
    expect(result).toMatchObject({ compare: 'all', specialtyKnown: true, windowDays: 90, minCases: 2, minSurgeons: 2 });
  });

  it('compares with the learners of the same specialty', async () => {
    const result = await stats().nasaTlx(viewer(people.a), 'specialty');
    expect(result.compare).toBe('specialty');
    expect(result.average).toMatchObject({ cases: 3, surgeons: 2 }); // A's two and C's
    expect(result.average.dimensions.mentalDemand).toBe(25); // A 40, C 10 (over cases: 30)
    expect(result.average.dimensions.frustration).toBe(20); // A 30, C 10 (over cases: 23.3)
    expect(result.average.raw).toBe(20.8); // A 31.67, C 10 (over cases: 24.4)
  });

  it('has too little data with one case, and falls back to everyone without a specialty', async () => {
    const b = await stats().nasaTlx(viewer(people.b), 'all');
    expect(b.mine).toMatchObject({ cases: 1, enoughData: false, raw: null });
    expect(Object.values(b.mine.dimensions)).toEqual([null, null, null, null, null, null]);
    const lonely = await stats().nasaTlx(viewer(people.lonely), 'specialty');
    expect(lonely).toMatchObject({ compare: 'all', specialtyKnown: false, mine: { cases: 0, enoughData: false } });
    expect(lonely.average.cases).toBe(4);
  });

  it('gives my scales month by month over twelve months, by the month the case was sent', async () => {
    const { timeline } = await stats().nasaTlx(viewer(people.a), 'all');
    expect(timeline).toHaveLength(12);
    const byMonth = Object.fromEntries(timeline.map((p) => [p.month, p]));
    expect(byMonth['2026-06-01']).toMatchObject({ cases: 1, raw: 43.3, dimensions: { mentalDemand: 60, effort: 40 } });
    expect(byMonth['2026-05-01']).toMatchObject({ cases: 1, raw: 20 });
    expect(byMonth['2026-03-01']).toMatchObject({ cases: 1, raw: 80 });
    expect(byMonth['2026-04-01']).toMatchObject({ cases: 0, raw: null, dimensions: { mentalDemand: null } });
  });
});

describe('the step times', () => {
  it('lists the surgeries of my prepared cases, most cases first, and shows the first by default', async () => {
    const result = await stats().stepTimes(viewer(people.a), undefined, 'en');
    // The case of S without steps is not prepared: it does not count.
    expect(result.surgeries.map((s) => [s.id, s.cases])).toEqual([
      [vocabulary.s, 2],
      [vocabulary.t, 1],
    ]);
    expect(result.surgeryId).toBe(vocabulary.s);
  });

  it('gives each step of the surgery, mine against every learner, a step marked twice counting both marks', async () => {
    const result = await stats().stepTimes(viewer(people.a), vocabulary.s, 'en');
    expect(result.steps.map((s) => [s.surgeryStepId, s.mine, s.average])).toEqual([
      // A1 100 s, A2 50 + 50 s; C1 200 s.
      [vocabulary.st1, { cases: 2, mean: 100 }, { cases: 3, mean: 133.3 }],
      // A1 180 s; C1 150 s.
      [vocabulary.st2, { cases: 1, mean: 180 }, { cases: 2, mean: 165 }],
      // A2 only: mine from one case, but an average needs two.
      [vocabulary.st3, { cases: 1, mean: 100 }, { cases: 1, mean: null }],
    ]);
    expect(result.steps[0]!.name).toMatch(/\S/);
  });

  it('gives the active time (inside the steps, overlaps once), the non-active rest and the declared duration per case', async () => {
    const result = await stats().stepTimes(viewer(people.a), vocabulary.s, 'en');
    // A1: 330 active of 600; A2: 200 of 400.
    expect(result.mine).toEqual({ cases: 2, enoughData: true, duration: 500, active: 265, nonActive: 235, surgeryDuration: 80 });
    // With C1: 350 active of 500, 110 minutes declared.
    expect(result.average).toEqual({ cases: 3, enoughData: true, duration: 500, active: 293.3, nonActive: 206.7, surgeryDuration: 90 });
  });

  it('has too little data for an average of one case, and nothing to show without a prepared case', async () => {
    const t = await stats().stepTimes(viewer(people.b), vocabulary.t, 'en');
    expect(t.mine).toMatchObject({ cases: 1, enoughData: true, active: 60, nonActive: 240, surgeryDuration: 60 });
    expect(t.average).toMatchObject({ cases: 2, enoughData: true, active: 90 });
    const none = await stats().stepTimes(viewer(people.lonely), undefined, 'en');
    expect(none).toMatchObject({ surgeries: [], surgeryId: null, steps: [], mine: { cases: 0, enoughData: false } });
    const c = await stats().stepTimes(viewer(people.c), vocabulary.t, 'en');
    expect(c.mine).toMatchObject({ cases: 0, enoughData: false, active: null });
    expect(c.steps[0]).toMatchObject({ surgeryStepId: vocabulary.t1, mine: { cases: 0, mean: null }, average: { cases: 2, mean: 90 } });
  });
});

describe('GET /v1/stats/me', () => {
  it('answers the learner with their statistics', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me?filter=compare==specialty', token: people.a.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ratingsShown: true, compare: 'specialty', windowDays: 90, minAnalyses: 2 });
    expect(res.json().data.radar).toHaveLength(5);
  });

  it('sends no rating to a learner who hid ratings', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me', token: people.hidden.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ratingsShown: false });
  });

  it('is for learners only', async () => {
    for (const role of ['editor', 'expert', 'administrator'] as const) {
      const person = await ctx.createUser(role);
      const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me', token: person.token });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await ctx.inject({ method: 'GET', url: '/v1/stats/me' })).statusCode).toBe(401);
  });

  it('answers the NASA-TLX and the step times, even with ratings hidden (they are not ratings)', async () => {
    const tlxRes = await ctx.inject({ method: 'GET', url: '/v1/stats/me/nasa-tlx?filter=compare==specialty', token: people.a.token });
    expect(tlxRes.statusCode, tlxRes.body).toBe(200);
    // The route runs on the real clock, far from the cases above: the shape, not the numbers.
    expect(learnerNasaTlxSchema.parse(tlxRes.json().data)).toMatchObject({ compare: 'specialty', mine: { key: 'mine' } });
    const steps = await ctx.inject({ method: 'GET', url: `/v1/stats/me/steps?filter=surgeryId==${vocabulary.t}`, token: people.a.token });
    expect(steps.statusCode, steps.body).toBe(200);
    expect(learnerStepTimesSchema.parse(steps.json().data)).toMatchObject({ surgeryId: vocabulary.t, mine: { cases: 1 } });
    const hidden = await ctx.inject({ method: 'GET', url: '/v1/stats/me/nasa-tlx', token: people.hidden.token });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json().data).toMatchObject({ mine: { cases: 0 }, average: { key: 'average' } });
  });

  it('names the surgeries and steps in the language asked', async () => {
    const [fr] = await ctx.database.db.select().from(surgeries).where(eq(surgeries.id, vocabulary.s));
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me/steps?langCode=fr', token: people.a.token });
    expect(res.json().data.surgeries[0].name).toBe(fr!.nameFr);
  });

  it('refuses a surgery that is not an id, and answers 404 for one that does not exist', async () => {
    const bad = await ctx.inject({ method: 'GET', url: '/v1/stats/me/steps?filter=surgeryId==prostate', token: people.a.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('INVALID_VALUE');
    const unknown = await ctx.inject({
      method: 'GET',
      url: '/v1/stats/me/steps?filter=surgeryId==00000000-0000-4000-8000-000000000000',
      token: people.a.token,
    });
    expect(unknown.statusCode).toBe(404);
    for (const url of ['/v1/stats/me/nasa-tlx', '/v1/stats/me/steps']) {
      const expert = await ctx.createUser('expert');
      expect((await ctx.inject({ method: 'GET', url, token: expert.token })).statusCode, url).toBe(403);
    }
  });

  it('refuses an unknown comparison', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me?filter=compare==everyone', token: people.a.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_VALUE');
  });
});

describe('the peers of an analysis', () => {
  it('are those of its author when it was submitted, whatever writes it, and stay when the author changes specialty', async () => {
    const [s1, s2] = await ctx.database.db.select().from(specialties).limit(2);
    const d = await ctx.createUser('learner', { specialtyId: s2!.id });
    const [video] = await ctx.database.db.insert(videos).values({ authorId: d.id, status: 'analysed', mediaStatus: 'ready' }).returning();
    // A draft has no author yet; submitting it takes the author and their specialty of the time.
    await ctx.database.db.insert(analyses).values({ videoId: video!.id, status: 'draft', kpiRatings: ratings(3), globalRating: 3 });
    let [row] = await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video!.id));
    expect(row).toMatchObject({ authorId: null, authorSpecialtyId: null });
    await ctx.database.db
      .update(analyses)
      .set({ status: 'submitted', submittedAt: daysAgo(2) })
      .where(eq(analyses.videoId, video!.id));
    [row] = await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video!.id));
    expect(row).toMatchObject({ authorId: d.id, authorSpecialtyId: s2!.id });
    // D answered their self-assessment: the case's ratings are theirs, and it counts.
    await ctx.database.db
      .update(videos)
      .set({ resultReleasedAt: daysAgo(2), ratingsReleasedAt: daysAgo(2) })
      .where(eq(videos.id, video!.id));

    // B's specialty now has B's analysis and D's; D moving to A's specialty does not move it.
    await ctx.database.db.update(users).set({ specialtyId: s1!.id }).where(eq(users.id, d.id));
    const b = shown(await stats().learner(viewer(people.b), 'specialty'));
    expect(b.radar[0]).toMatchObject({ analyses: 2 });
    expect(b.radar[0]!.kpis.depthPerception).toBe(4); // (5 + 3) / 2
    const a = shown(await stats().learner(viewer(people.a), 'specialty'));
    expect(a.radar[0]).toMatchObject({ analyses: 3 });
  });
});

describe('the active time of a case', () => {
  it('follows its steps whatever writes them: recomputed when they are replaced, none without steps', async () => {
    const [video] = await ctx.database.db
      .insert(videos)
      .values({ authorId: people.b.id, status: 'pending_analysis', duration: 300 })
      .returning();
    const activeOf = async () => (await ctx.database.db.select().from(videos).where(eq(videos.id, video!.id)))[0]!.activeSeconds;
    const mark = (position: number, start: number, end: number) => ({ videoId: video!.id, position, name: 'Step', start, end });
    expect(await activeOf()).toBeNull();
    // Two steps nested in a third: 0–100 covers 10–20 and 30–40.
    await ctx.database.db.insert(videoSteps).values([mark(0, 0, 100), mark(1, 10, 20), mark(2, 30, 40)]);
    expect(await activeOf()).toBe(100);
    // A render replaces them in one transaction.
    await ctx.database.db.transaction(async (tx) => {
      await tx.delete(videoSteps).where(eq(videoSteps.videoId, video!.id));
      await tx.insert(videoSteps).values([mark(0, 0, 50), mark(1, 60, 90)]);
    });
    expect(await activeOf()).toBe(80);
    await ctx.database.db.update(videoSteps).set({ end: 70 }).where(eq(videoSteps.videoId, video!.id));
    expect(await activeOf()).toBe(70); // 0–70 and 60–70
    await ctx.database.db.delete(videoSteps).where(eq(videoSteps.videoId, video!.id));
    expect(await activeOf()).toBeNull();
    // Deleting a case with steps takes them along without trouble.
    await ctx.database.db.insert(videoSteps).values([mark(0, 0, 50)]);
    await ctx.database.db.delete(videos).where(eq(videos.id, video!.id));
    expect(await ctx.database.db.select().from(videoSteps).where(eq(videoSteps.videoId, video!.id))).toEqual([]);
  });
});

describe('the average surgeon', () => {
  it('weighs every surgeon the same, however many analyses and cases they have, and needs two surgeons', async () => {
    const [, , s3] = await ctx.database.db.select().from(specialties).limit(3);
    expect(s3).toBeDefined();
    const heavy = await ctx.createUser('learner', { specialtyId: s3!.id });
    const light = await ctx.createUser('learner', { specialtyId: s3!.id });
    // One surgeon with six analyses rated 5 (tissue handling included) and six cases at 90.
    for (let i = 1; i <= 6; i++) {
      await analysed(heavy.id, daysAgo(i * 5), ratings(5), 5);
      await sent(heavy.id, daysAgo(i * 5), tlx(90));
    }
    // Alone in the specialty: many analyses, but one surgeon is no average.
    const alone = shown(await stats().learner(viewer(heavy), 'specialty'));
    expect(alone.radar[0]).toMatchObject({ key: 'average', analyses: 6, surgeons: 1, enoughData: false });
    expect(Object.values(alone.radar[0]!.kpis)).toEqual([null, null, null, null, null]);
    const aloneTlx = await stats().nasaTlx(viewer(heavy), 'specialty');
    expect(aloneTlx.average).toMatchObject({ cases: 6, surgeons: 1, enoughData: false, raw: null });

    // A second surgeon with one analysis rated 1 (tissue handling not rated) and one case at 10.
    await analysed(light.id, daysAgo(3), ratings(1, { tissueHandling: null }), 1);
    await sent(light.id, daysAgo(3), tlx(10));
    const both = shown(await stats().learner(viewer(light), 'specialty'));
    expect(both.radar[0]).toMatchObject({ analyses: 7, surgeons: 2, enoughData: true });
    // (5 + 1) / 2 = 3, where the mean over analyses would give (6 × 5 + 1) / 7 = 4.4.
    expect(both.radar[0]!.kpis).toMatchObject({ depthPerception: 3, bimanualDexterity: 3, efficiency: 3, autonomy: 3 });
    // Rated for one surgeon only: no average of that skill.
    expect(both.radar[0]!.kpis.tissueHandling).toBeNull();
    const bothTlx = await stats().nasaTlx(viewer(light), 'specialty');
    // (90 + 10) / 2 = 50, where the mean over cases would give (6 × 90 + 10) / 7 = 78.6.
    expect(bothTlx.average).toMatchObject({ cases: 7, surgeons: 2, enoughData: true, raw: 50 });
    expect(bothTlx.average.dimensions.mentalDemand).toBe(50);
  });
});

describe('the NASA-TLX peers of a case', () => {
  it('are those of its author when it was sent, whatever writes it, and stay when the author changes specialty', async () => {
    const [s1, s2] = await ctx.database.db.select().from(specialties).limit(2);
    const e = await ctx.createUser('learner', { specialtyId: s2!.id });
    // Sent while E is of B's specialty.
    await sent(e.id, daysAgo(4), tlx(70));
    const [first] = await ctx.database.db.select().from(videos).where(eq(videos.authorId, e.id));
    expect(first!.authorSpecialtyId).toBe(s2!.id);
    const bBefore = await stats().nasaTlx(viewer(people.b), 'specialty');
    expect(bBefore.average).toMatchObject({ surgeons: 2 }); // B 50 and E 70
    expect(bBefore.average.dimensions.mentalDemand).toBe(60);

    // E moves to A's specialty: the case sent before stays with B's peers.
    await ctx.database.db.update(users).set({ specialtyId: s1!.id }).where(eq(users.id, e.id));
    const bAfter = await stats().nasaTlx(viewer(people.b), 'specialty');
    expect(bAfter.average).toEqual(bBefore.average);
    const aBefore = await stats().nasaTlx(viewer(people.a), 'specialty');
    expect(aBefore.average).toMatchObject({ surgeons: 2 });
    expect(aBefore.average.dimensions.mentalDemand).toBe(25); // A 40, C 10, as before E moved

    // A draft E sends now joins A's specialty when it is sent.
    const [draft] = await ctx.database.db
      .insert(videos)
      .values({ authorId: e.id, status: 'saved', mediaStatus: 'ready', nasaTlx: tlx(30) })
      .returning();
    expect(draft!.authorSpecialtyId).toBeNull();
    await ctx.database.db
      .update(videos)
      .set({ status: 'pending_preparation', sentAt: daysAgo(1) })
      .where(eq(videos.id, draft!.id));
    const [sentNow] = await ctx.database.db.select().from(videos).where(eq(videos.id, draft!.id));
    expect(sentNow!.authorSpecialtyId).toBe(s1!.id);
    const aAfter = await stats().nasaTlx(viewer(people.a), 'specialty');
    expect(aAfter.average).toMatchObject({ surgeons: 3 });
    expect(aAfter.average.dimensions.mentalDemand).toBe(26.7); // A 40, C 10, E 30
    // And B's peers still hold E's first case only.
    expect((await stats().nasaTlx(viewer(people.b), 'specialty')).average.dimensions.mentalDemand).toBe(60);
  });
});

describe('months of the installation’s clock', () => {
  it('put an analysis of 23:30Z on 31 October in November in Paris, and a case of 22:30Z on 31 March in April (summer time)', async () => {
    const f = await ctx.createUser('learner', { specialtyId: null });
    await analysed(f.id, new Date('2025-10-31T23:30:00Z'), ratings(4), 4);
    await sent(f.id, new Date('2026-03-31T22:30:00Z'), tlx(60));
    const month = (points: { month: string; analyses?: number; cases?: number }[]) =>
      points.filter((p) => (p.analyses ?? p.cases ?? 0) > 0).map((p) => p.month);
    expect(month(shown(await stats().learner(viewer(f), 'all')).timeline)).toEqual(['2025-11-01']);
    expect(month(shown(await stats(NOW, 'UTC').learner(viewer(f), 'all')).timeline)).toEqual(['2025-10-01']);
    expect(month((await stats().nasaTlx(viewer(f), 'all')).timeline)).toEqual(['2026-04-01']);
    expect(month((await stats(NOW, 'UTC').nasaTlx(viewer(f), 'all')).timeline)).toEqual(['2026-03-01']);
    // The twelve months end with the month of now in Paris: at 22:30Z on 30 June it is already July there.
    const july = shown(await stats(new Date('2026-06-30T22:30:00Z')).learner(viewer(f), 'all')).timeline;
    expect([july[0]!.month, july.at(-1)!.month]).toEqual(['2025-08-01', '2026-07-01']);
  });
});

describe('a double-reviewed case', () => {
  it('counts once, with the mean of its submitted reviews, and not before its ratings reached its learner', async () => {
    const g = await ctx.createUser('learner', { specialtyId: null });
    const db = ctx.database.db;
    // A case reviewed twice (2 and 4 everywhere), released to its learner.
    const [twice] = await db
      .insert(videos)
      .values({
        authorId: g.id,
        status: 'analysed',
        mediaStatus: 'ready',
        reviewsRequired: 2,
        resultReleasedAt: daysAgo(8),
        ratingsReleasedAt: daysAgo(8),
      })
      .returning();
    await db.insert(analyses).values([
      { videoId: twice!.id, round: 1, status: 'submitted', kpiRatings: ratings(2), globalRating: 2, submittedAt: daysAgo(9) },
      {
        videoId: twice!.id,
        round: 2,
        status: 'submitted',
        kpiRatings: ratings(4, { autonomy: null }),
        globalRating: 4,
        submittedAt: daysAgo(8),
      },
    ]);
    // A single review (level 5), and a case whose second review is awaited: its first does not count yet.
    await analysed(g.id, daysAgo(6), ratings(5), 5);
    const [waiting] = await db
      .insert(videos)
      .values({ authorId: g.id, status: 'pending_review', reviewRound: 2, mediaStatus: 'ready', reviewsRequired: 2 })
      .returning();
    await db
      .insert(analyses)
      .values({ videoId: waiting!.id, round: 1, status: 'submitted', kpiRatings: ratings(1), globalRating: 1, submittedAt: daysAgo(4) });

    const result = shown(await stats().learner(viewer(g), 'all'));
    const now = result.radar.find((s) => s.key === 0)!;
    // Two cases: (2 + 4) / 2 = 3 and 5, so 4; autonomy rated once in the double review: (2 + 5) / 2.
    expect(now).toMatchObject({ analyses: 2, enoughData: true });
    expect(now.kpis).toEqual({ depthPerception: 4, bimanualDexterity: 4, efficiency: 4, tissueHandling: 4, autonomy: 3.5 });
    const june = result.timeline.find((p) => p.month === '2026-06-01')!;
    expect(june).toMatchObject({ analyses: 2, global: 4 });

    // The awaited review in and the result shown: still nothing while the learner has not
    // answered their self-assessment (the ratings have not reached them).
    await db
      .insert(analyses)
      .values({ videoId: waiting!.id, round: 2, status: 'submitted', kpiRatings: ratings(3), globalRating: 3, submittedAt: daysAgo(3) });
    await db
      .update(videos)
      .set({ status: 'analysed', resultReleasedAt: daysAgo(3) })
      .where(eq(videos.id, waiting!.id));
    expect(shown(await stats().learner(viewer(g), 'all')).radar.find((s) => s.key === 0)!).toEqual(now);
    // Answered: the case counts, with its mean.
    await db
      .update(videos)
      .set({ ratingsReleasedAt: daysAgo(2) })
      .where(eq(videos.id, waiting!.id));
    const after = shown(await stats().learner(viewer(g), 'all'));
    // (3 + 5 + 2) / 3 for depth perception.
    expect(after.radar.find((s) => s.key === 0)!).toMatchObject({ analyses: 3, kpis: { depthPerception: 3.3 } });
  });
});

describe('the averages kept between requests', () => {
  /** A service that keeps its averages between calls, on a clock the test moves. */
  function keptService(at: Date) {
    const clock = { at };
    return { clock, service: createStatsService({ db: ctx.database.db, clock: () => clock.at, timeZone: PARIS }) };
  }
  /** The learner's KPIs, NASA-TLX and step times, both comparisons. */
  async function everything(service: ReturnType<typeof stats>, person: { id: string }) {
    return {
      kpisAll: await service.learner(viewer(person), 'all'),
      kpisSpecialty: await service.learner(viewer(person), 'specialty'),
      tlxAll: await service.nasaTlx(viewer(person), 'all'),
      tlxSpecialty: await service.nasaTlx(viewer(person), 'specialty'),
      steps: await service.stepTimes(viewer(person), vocabulary.s, 'en'),
    };
  }
  const versions = async () =>
    (
      await ctx.database.db.execute<{ kpis: string; tlx: string; steps: string }>(
        sql`SELECT kpis::text, tlx::text, steps::text FROM stats_version`,
      )
    ).rows[0]!;
  const averageOf = (result: LearnerStats) => shown(result).radar[0]!;

  it('slide with the clock exactly as if computed afresh, cases entering and leaving the window', async () => {
    // A case reviewed three times (1, 2 and 4: a mean of 7/3) and one sent in the future of NOW.
    const [thrice] = await ctx.database.db
      .insert(videos)
      .values({
        authorId: people.b.id,
        status: 'analysed',
        mediaStatus: 'ready',
        reviewsRequired: 3,
        resultReleasedAt: daysAgo(20),
        ratingsReleasedAt: daysAgo(20),
      })
      .returning();
    await ctx.database.db.insert(analyses).values(
      [1, 2, 4].map((level, i) => ({
        videoId: thrice!.id,
        round: i + 1,
        status: 'submitted',
        kpiRatings: ratings(level),
        globalRating: level,
        submittedAt: daysAgo(22 - i),
      })),
    );
    await analysed(people.c.id, daysAgo(-30), ratings(2, { efficiency: null }), 2);
    await sent(people.c.id, daysAgo(-30), tlx(35));
    const { clock, service } = keptService(daysAgo(220));
    // From before the oldest case to after the newest, by steps of a few hours to a few weeks.
    let step = 0;
    while (clock.at.getTime() < daysAgo(-150).getTime()) {
      for (const person of [people.a, people.b]) {
        expect(await everything(service, person), `${clock.at.toISOString()}`).toEqual(await everything(stats(clock.at), person));
      }
      step += 1;
      clock.at = new Date(clock.at.getTime() + ((step * 7919) % 23) * DAY + ((step * 104_729) % 86_400_000));
    }
    expect(step).toBeGreaterThan(15);
  });

  it('change when a case is finalized and released, when a second review is added, and when a case is deleted', async () => {
    const { service } = keptService(NOW);
    const h = await ctx.createUser('learner', { specialtyId: null });
    const before = averageOf(await service.learner(viewer(h), 'all'));
    // A review submitted: the case joins the average.
    const [video] = await ctx.database.db.insert(videos).values({ authorId: h.id, status: 'analysed', mediaStatus: 'ready' }).returning();
    await ctx.database.db.insert(analyses).values({ videoId: video!.id, status: 'draft', kpiRatings: ratings(5), globalRating: 5 });
    const draftVersions = await versions();
    // A draft saved again changes nothing that is kept.
    await ctx.database.db
      .update(analyses)
      .set({ kpiRatings: ratings(1) })
      .where(eq(analyses.videoId, video!.id));
    expect(await versions()).toEqual(draftVersions);
    expect(averageOf(await service.learner(viewer(h), 'all'))).toEqual(before);
    await ctx.database.db.transaction(async (tx) => {
      await tx
        .update(analyses)
        .set({ status: 'submitted', submittedAt: daysAgo(1) })
        .where(eq(analyses.videoId, video!.id));
      await tx
        .update(videos)
        .set({ resultReleasedAt: daysAgo(1) })
        .where(eq(videos.id, video!.id));
    });
    const submittedVersions = await versions();
    expect(submittedVersions.kpis).not.toBe(draftVersions.kpis);
    // Its result shown, its ratings not released to its learner yet: the average keeps without it.
    expect(averageOf(await service.learner(viewer(h), 'all'))).toEqual(before);
    // The learner answers their self-assessment: the ratings are released, the version changes alone.
    await ctx.database.db
      .update(videos)
      .set({ ratingsReleasedAt: daysAgo(0.9) })
      .where(eq(videos.id, video!.id));
    const releasedVersions = await versions();
    expect(releasedVersions.kpis).not.toBe(submittedVersions.kpis);
    expect({ ...releasedVersions, kpis: null }).toEqual({ ...submittedVersions, kpis: null });
    const finalized = averageOf(await service.learner(viewer(h), 'all'));
    expect(finalized).toMatchObject({ analyses: before.analyses + 1, surgeons: before.surgeons! + 1 });
    expect(finalized).toEqual(averageOf(await stats().learner(viewer(h), 'all')));
    expect(finalized.kpis.depthPerception).not.toBe(before.kpis.depthPerception);

    // An administrator sends the analysed case for a second review: once in, the case counts with
    // the mean of both (1 and 3: 2), not its first review alone.
    await ctx.database.db.update(videos).set({ reviewsRequired: 2 }).where(eq(videos.id, video!.id));
    expect(averageOf(await service.learner(viewer(h), 'all'))).toEqual(finalized);
    await ctx.database.db
      .insert(analyses)
      .values({ videoId: video!.id, round: 2, status: 'submitted', kpiRatings: ratings(3), globalRating: 3, submittedAt: daysAgo(0.5) });
    const reviewedTwice = averageOf(await service.learner(viewer(h), 'all'));
    expect(reviewedTwice).toMatchObject({ analyses: finalized.analyses, surgeons: finalized.surgeons });
    expect(reviewedTwice).toEqual(averageOf(await stats().learner(viewer(h), 'all')));
    expect(reviewedTwice.kpis).not.toEqual(finalized.kpis);
    const mine = shown(await service.learner(viewer(h), 'all')).timeline.at(-1)!;
    expect(mine.kpis.depthPerception).toBe(2);

    // The case deleted: the average is the one before it was submitted.
    await ctx.database.db.delete(videos).where(eq(videos.id, video!.id));
    expect(averageOf(await service.learner(viewer(h), 'all'))).toEqual(before);
  });

  it('change when a case is sent with its NASA-TLX, and when the steps of a case are replaced', async () => {
    const { service } = keptService(NOW);
    const before = await everything(service, people.c);
    await sent(people.b.id, daysAgo(2), tlx(95));
    const afterSending = await everything(service, people.c);
    expect(afterSending.tlxAll.average.cases).toBe(before.tlxAll.average.cases + 1);
    expect(afterSending).toEqual(await everything(stats(), people.c));

    // B's case of S, its steps replaced by a render: everyone's step times follow.
    await prepared(people.b.id, vocabulary.s, 800, 100, [[vocabulary.st3, 0, 300]]);
    const [video] = await ctx.database.db
      .select()
      .from(videos)
      .where(and(eq(videos.authorId, people.b.id), eq(videos.surgeryId, vocabulary.s)));
    const withStep = await everything(service, people.c);
    expect(withStep.steps.steps.find((s) => s.surgeryStepId === vocabulary.st3)!.average).toEqual({ cases: 2, mean: 200 });
    await ctx.database.db.transaction(async (tx) => {
      await tx.delete(videoSteps).where(eq(videoSteps.videoId, video!.id));
      await tx
        .insert(videoSteps)
        .values({ videoId: video!.id, position: 0, surgeryStepId: vocabulary.st3, name: 'Step', start: 0, end: 500 });
    });
    const replaced = await everything(service, people.c);
    expect(replaced.steps.steps.find((s) => s.surgeryStepId === vocabulary.st3)!.average).toEqual({ cases: 2, mean: 300 });
    expect(replaced.steps.average.active).not.toBe(withStep.steps.average.active);
    expect(replaced).toEqual(await everything(stats(), people.c));
  });

  it('hold across two API processes on the same database', async () => {
    // The routes run on the real clock: these cases are of the last days.
    const second = await createTestContext({ workers: false, databaseOf: ctx });
    try {
      const k = await ctx.createUser('learner', { specialtyId: null });
      const now = Date.now();
      await analysed(k.id, new Date(now - 2 * DAY), ratings(4), 4);
      await analysed(people.a.id, new Date(now - 3 * DAY), ratings(2), 2);
      const read = async (c: TestContext) => {
        const res = await c.inject({ method: 'GET', url: '/v1/stats/me', token: k.token });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data.radar[0];
      };
      const [one, two] = [await read(ctx), await read(second)];
      expect(one).toMatchObject({ analyses: 2, surgeons: 2, kpis: { depthPerception: 3 } });
      expect({ ...two, at: null }).toEqual({ ...one, at: null });
      // Submitted through the first process's database pool: the second process's average follows.
      await analysed(people.b.id, new Date(now - DAY), ratings(5), 5);
      expect(await read(second)).toMatchObject({ analyses: 3, surgeons: 3, kpis: { depthPerception: 3.7 } });
      expect(await read(ctx)).toMatchObject({ analyses: 3, kpis: { depthPerception: 3.7 } });
    } finally {
      await second.close();
    }
  });
});
