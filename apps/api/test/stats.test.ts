import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import type { LearnerStats } from '@sutura/domain/stats';
import { analyses, specialties, videos } from '../src/db/schema.ts';
import { createStatsService, monthsBefore } from '../src/modules/stats/stats.service.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
const NOW = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY);
const people = {} as Record<'a' | 'b' | 'c' | 'lonely' | 'hidden', Awaited<ReturnType<TestContext['createUser']>>>;

/** Every KPI at `level`, with some KPIs overridden (null: not rated). */
const ratings = (level: number, overrides: Partial<Record<Kpi, number | null>> = {}) => ({
  ...Object.fromEntries(KPIS.map((k) => [k, level])),
  ...overrides,
});

async function analysed(authorId: string, submittedAt: Date | null, kpis: Record<string, number | null>, global: number | null) {
  const [video] = await ctx.database.db.insert(videos).values({ authorId, status: 'analysed', mediaStatus: 'ready' }).returning();
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
});
afterAll(async () => {
  await ctx?.close();
});

const stats = () => createStatsService({ db: ctx.database.db, clock: () => NOW });
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
  it('counts back calendar months, clamped to the end of a shorter month', () => {
    expect(monthsBefore(NOW, 3).toISOString()).toBe('2026-03-15T12:00:00.000Z');
    expect(monthsBefore(new Date('2026-05-31T08:00:00Z'), 3).toISOString()).toBe('2026-02-28T08:00:00.000Z');
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

  it('compares with every learner, or with those of the same specialty', async () => {
    const all = shown(await stats().learner(viewer(people.a), 'all'));
    // A's two recent ones, B's and C's recent ones; C's of 200 days ago and A's draft are out.
    expect(all.radar[0]).toMatchObject({ key: 'average', analyses: 4, enoughData: true });
    expect(all.radar[0]!.kpis).toEqual({
      depthPerception: 3, // (4 + 2 + 5 + 1) / 4
      bimanualDexterity: 3,
      efficiency: 3,
      tissueHandling: 2.7, // (2 + 5 + 1) / 3
      autonomy: 3.3, // (5 + 2 + 5 + 1) / 4 = 3.25
    });
    const peers = shown(await stats().learner(viewer(people.a), 'specialty'));
    expect(peers.compare).toBe('specialty');
    expect(peers.radar[0]).toMatchObject({ analyses: 3 });
    expect(peers.radar[0]!.kpis.depthPerception).toBe(2.3); // (4 + 2 + 1) / 3
    expect(peers.radar[0]!.kpis.autonomy).toBe(2.7); // (5 + 2 + 1) / 3
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

  it('refuses an unknown comparison', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me?filter=compare==everyone', token: people.a.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_VALUE');
  });
});
