import pino from 'pino';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnerSelfVsExpert } from '@sutura/domain/self-assessment';
import type { LearnerStats } from '@sutura/domain/stats';
import { KPIS } from '@sutura/domain/analysis';
import {
  analyses,
  analysisComments,
  claims,
  disagreements,
  media,
  preparations,
  selfAssessments,
  users,
  videoSteps,
  videos,
} from '../src/db/schema.ts';
import type { Cohort, MyProgrammes } from '@sutura/domain/programmes';
import { DEMO_HISTORY_LEARNERS, DEMO_PROGRAMME, seedDemoHistory } from '../src/demo/history.ts';
import { createDemoPreparation, type DemoPreparationState } from '../src/demo/preparation.ts';
import { DEMO_PASSWORD, demoHistoryWanted, seed } from '../src/demo/seed.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
const log = pino({ level: 'silent' });
let first: { created: number };
const preparation = createDemoPreparation();
/** What /v1/health said of the demo, and whether the history was still wanted, before, during and after it was made. */
const told: { before?: DemoPreparationState; during?: DemoPreparationState; after?: DemoPreparationState } = {};
const wanted: { before?: boolean; after?: boolean } = {};
const progress: [number, number][] = [];
const healthDemo = async () => {
  const res = await ctx.inject({ method: 'GET', url: '/v1/health' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.demo as DemoPreparationState;
};

async function signIn(email: string) {
  const res = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: DEMO_PASSWORD } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

async function learnerStats(token: string, compare: 'all' | 'specialty' = 'all') {
  const res = await ctx.inject({ method: 'GET', url: `/v1/stats/me?filter=compare==${compare}`, token });
  expect(res.statusCode, res.body).toBe(200);
  const stats = res.json().data as LearnerStats;
  if (!stats.ratingsShown) throw new Error('ratings hidden');
  return stats;
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false, demoPreparation: preparation });
  const { createdDemo } = await seed({
    db: ctx.database.db,
    vocabularies: ctx.services.vocabularies,
    rpps: ctx.services.rpps,
    demoData: true,
    log,
  });
  expect(createdDemo).toBe(true);
  told.before = await healthDemo();
  wanted.before = await demoHistoryWanted(ctx.database.db);
  // As the server does: the part begins before the first page, progresses, and ends.
  const part = preparation.begin();
  let asked: Promise<DemoPreparationState> | undefined;
  first = await seedDemoHistory({
    db: ctx.database.db,
    storage: ctx.storage,
    scratch: ctx.services.scratch,
    log,
    ffmpegPath: ctx.config.ffmpegPath,
    onProgress: (done, total) => {
      progress.push([done, total]);
      part.progress(done, total);
      // Halfway, a dashboard asks.
      if (!asked && done * 2 >= total) asked = healthDemo();
    },
  }).finally(() => part.end());
  told.during = await asked;
  told.after = await healthDemo();
  wanted.after = await demoHistoryWanted(ctx.database.db);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('the demo history', () => {
  it('is said to be in preparation on /v1/health while it is made, with its progress, and no more once made', () => {
    expect(wanted).toEqual({ before: true, after: false });
    expect(told.before).toEqual({ preparing: false, progress: 100 });
    expect(told.during!.preparing).toBe(true);
    expect(told.during!.progress).toBeGreaterThanOrEqual(50);
    expect(told.during!.progress).toBeLessThan(100);
    expect(told.after).toEqual({ preparing: false, progress: 100 });
    // Step by step to the end, never backwards.
    expect(progress.at(-1)).toEqual([progress.at(-1)![1], progress.at(-1)![1]]);
    expect(progress.map(([done]) => done)).toEqual(progress.map((_, i) => i + 1));
  });

  it('weighs each part of the demo the same, and never reads as made before every part has ended', () => {
    const tracker = createDemoPreparation();
    expect(tracker.state()).toEqual({ preparing: false, progress: 100 });
    const videos = tracker.begin();
    const history = tracker.begin();
    expect(tracker.state()).toEqual({ preparing: true, progress: 0 });
    videos.progress(3, 4);
    expect(tracker.state()).toEqual({ preparing: true, progress: 37 });
    history.progress(10, 10);
    videos.end();
    expect(tracker.state()).toEqual({ preparing: true, progress: 99 });
    history.end();
    expect(tracker.state()).toEqual({ preparing: false, progress: 100 });
  });

  it("fills every point of the demo learner's statistics, and the average surgeon is someone else", async () => {
    expect(first.created).toBeGreaterThan(30);
    const stats = await learnerStats(await signIn('learner@sutura.local'));
    const byKey = new Map(stats.radar.map((s) => [s.key, s]));
    for (const key of ['average', 0, 1, 3, 6] as const) expect(byKey.get(key)?.enoughData, `series ${key}`).toBe(true);
    // Improving: today's means above those of six months ago, and the average surgeon differs.
    const mean = (key: 'average' | number) => Object.values(byKey.get(key)!.kpis).reduce((a, b) => a! + b!, 0)! / 5;
    expect(mean(0)).toBeGreaterThan(mean(6) + 0.5);
    expect(mean('average')).not.toBe(mean(0));
    // Month by month: most of the last ten months have analyses, the global rating rising.
    const months = stats.timeline.filter((m) => m.analyses > 0);
    expect(months.length).toBeGreaterThanOrEqual(9);
    expect(months.at(-1)!.global!).toBeGreaterThan(months[0]!.global!);
  });

  it('gives the demo learner self-assessments whose gap to the experts narrows over the months', async () => {
    const token = await signIn('learner@sutura.local');
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me/self-assessment', token });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as LearnerSelfVsExpert;
    if (!data.ratingsShown) throw new Error('ratings hidden');
    const months = data.months.filter((m) => m.cases > 0);
    expect(months.length).toBeGreaterThanOrEqual(6);
    expect(data.trend).toBe('closer');
    expect(data.last!).toBeLessThan(data.first! - 0.5);
    // Some cases skipped, none left open: every past result was seen, and its ratings released.
    const rows = await ctx.database.db.select().from(selfAssessments);
    expect(rows.some((r) => r.skippedAt && !r.submittedAt)).toBe(true);
    expect(rows.every((r) => r.resultSeenAt)).toBe(true);
    const past = await ctx.database.db.select().from(videos);
    expect(past.length).toBeGreaterThan(20);
    for (const video of past) {
      expect(video.ratingsReleasedAt, video.id).not.toBeNull();
      expect(video.ratingsReleasedAt!.getTime()).toBeGreaterThanOrEqual(video.resultReleasedAt!.getTime());
    }
  });

  it('compares with a specialty of its own: two specialties have cases', async () => {
    const all = await learnerStats(await signIn('learner@sutura.local'), 'all');
    const specialty = await learnerStats(await signIn('learner@sutura.local'), 'specialty');
    expect(specialty.compare).toBe('specialty');
    expect(specialty.radar[0]!.analyses).toBeLessThan(all.radar[0]!.analyses);
    const colleague = await learnerStats(await signIn(DEMO_HISTORY_LEARNERS[0].email));
    expect(colleague.radar.find((s) => s.key === 0)!.enoughData).toBe(true);
  });

  it('makes real workflow rows: steps within the video, a preparation, two claims, a dated submitted analysis', async () => {
    const [learner] = await ctx.database.db.select().from(users).where(eq(users.email, 'learner@sutura.local'));
    const cases = await ctx.database.db.select().from(videos).where(eq(videos.authorId, learner!.id));
    expect(cases.length).toBe(20);
    for (const video of cases) {
      expect(video).toMatchObject({ status: 'analysed', mediaStatus: 'ready', kind: 'video' });
      const steps = await ctx.database.db.select().from(videoSteps).where(eq(videoSteps.videoId, video.id));
      expect(steps.length).toBe(4);
      for (const s of steps) expect(s.end).toBeLessThanOrEqual(video.duration!);
      const [prep] = await ctx.database.db.select().from(preparations).where(eq(preparations.videoId, video.id));
      expect(prep).toMatchObject({ renderStatus: 'done', phase: 'steps' });
      const history = await ctx.database.db.select().from(claims).where(eq(claims.videoId, video.id));
      expect(history.map((c) => [c.stage, c.endReason]).sort()).toEqual([
        ['analysis', 'submitted'],
        ['preparation', 'submitted'],
      ]);
      const [analysis] = await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video.id));
      expect(analysis!.status).toBe('submitted');
      expect(analysis!.submittedAt!.getTime()).toBeLessThan(Date.now());
      expect(Object.keys(analysis!.stepRatings).sort()).toEqual(steps.map((s) => s.id).sort());
    }
  });

  it('has its second reviews given by a second person: own words, own leanings, disagreements on different items', async () => {
    const db = ctx.database.db;
    const [second] = await db.select().from(users).where(eq(users.email, 'expert2@sutura.local'));
    const seconds = await db.select().from(analyses).where(eq(analyses.round, 2));
    expect(seconds.length).toBe(7);
    const flagged = await db.select().from(disagreements);
    let differByOne = 0;
    for (const review of seconds) {
      expect(review.expertId).toBe(second!.id);
      const [firstReview] = await db
        .select()
        .from(analyses)
        .where(and(eq(analyses.videoId, review.videoId), eq(analyses.round, 1)));
      // His own words, never the first expert's.
      expect(review.assessment).not.toBe(firstReview!.assessment);
      expect(review.advice).not.toBe(firstReview!.advice);
      const comments = await db.select().from(analysisComments).where(eq(analysisComments.videoId, review.videoId));
      const firstWords = new Set(comments.filter((c) => c.round === 1).map((c) => c.text));
      const secondWords = comments.filter((c) => c.round === 2);
      expect(secondWords.length).toBeGreaterThanOrEqual(2);
      for (const c of secondWords) expect(firstWords.has(c.text), c.text).toBe(false);
      // Within a level on every item of a case that is not flagged; a level apart here and there.
      const gaps = [
        ...KPIS.map((k) => Math.abs(review.kpiRatings[k]! - firstReview!.kpiRatings[k]!)),
        ...Object.keys(firstReview!.stepRatings).map((id) => Math.abs(review.stepRatings[id]! - firstReview!.stepRatings[id]!)),
      ];
      differByOne += gaps.filter((g) => g === 1).length;
      const disagreement = flagged.find((d) => d.videoId === review.videoId);
      if (!disagreement) expect(Math.max(...gaps)).toBeLessThanOrEqual(1);
      else expect(disagreement.maxGap).toBe(Math.max(...gaps));
    }
    expect(differByOne).toBeGreaterThanOrEqual(7);
    // Some cases flagged, not all; on different skills and steps, by two or three levels.
    expect(flagged.length).toBeGreaterThanOrEqual(2);
    expect(flagged.length).toBeLessThan(seconds.length);
    const items = flagged.flatMap((d) => d.items as { kind: string; key: string }[]);
    expect(new Set(items.map((i) => i.key)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(items.map((i) => i.kind))).toEqual(new Set(['kpi', 'step']));
    expect(new Set(flagged.map((d) => d.maxGap))).toEqual(new Set([2, 3]));
  });

  it('gives each case files of its own: deleting one leaves the others playable', async () => {
    const token = await signIn('learner@sutura.local');
    const [learner] = await ctx.database.db.select().from(users).where(eq(users.email, 'learner@sutura.local'));
    const [one, other] = await ctx.database.db.select().from(videos).where(eq(videos.authorId, learner!.id)).limit(2);
    const files = await ctx.database.db
      .select()
      .from(media)
      .where(inArray(media.videoId, [one!.id, other!.id]));
    expect(files.length).toBe(4);
    expect(new Set(files.map((f) => f.storageKey)).size).toBe(4);
    for (const f of files) expect(await ctx.storage.size(f.storageKey)).toBe(f.size);

    const detail = await ctx.inject({ method: 'GET', url: `/v1/videos/${other!.id}`, token });
    expect(detail.json().data.videoUrl).toBeTruthy();
    const removed = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${one!.id}`, token });
    expect(removed.statusCode).toBe(200);
    for (const f of files) {
      expect(await ctx.storage.size(f.storageKey)).toBe(f.videoId === one!.id ? undefined : f.size);
    }
  });

  it('has a training programme directed by the demo expert whose curves show every state', async () => {
    const token = await signIn('expert@sutura.local');
    const mine = await ctx.inject({ method: 'GET', url: '/v1/programmes', token, headers: { 'accept-language': 'en' } });
    const programmes = (mine.json().data as MyProgrammes).directed;
    expect(programmes.map((p) => p.name)).toEqual([DEMO_PROGRAMME.name]);
    const res = await ctx.inject({
      method: 'GET',
      url: `/v1/programmes/${programmes[0]!.id}/cohort`,
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const cohort = res.json().data as Cohort;
    expect(cohort.learners).toHaveLength(DEMO_PROGRAMME.members.length);
    const of = (email: string) => {
      const learner = cohort.learners.find((l) => l.email === email)!;
      return cohort.rows.filter((r) => r.learnerId === learner.id);
    };
    const pyeloplasty = (email: string) => of(email).find((r) => r.surgery.name === 'Pyeloplasty')!;
    // Two failures, then nine successes: proficient at the 11th; nine successes then two failures: a relapse at the 11th.
    expect(pyeloplasty('learner6@sutura.local')).toMatchObject({ cases: 13, state: 'proficient', proficientAt: 11, unacceptableAt: 2 });
    expect(pyeloplasty('learner7@sutura.local')).toMatchObject({ cases: 12, state: 'relapse', proficientAt: 9, relapseAt: 11 });
    expect(new Set(cohort.rows.map((r) => r.state))).toContain('learning');
    // Nobody was told of what happened before the first start.
    const told = await ctx.inject({ method: 'GET', url: '/v1/notification/list', token });
    expect((told.json().data.data as { key: string }[]).filter((n) => n.key.startsWith('learner'))).toEqual([]);
  });

  it('adds nothing when run again', async () => {
    const [before] = await ctx.database.db.select({ n: count() }).from(videos);
    expect(await seedDemoHistory({ db: ctx.database.db, storage: ctx.storage, scratch: ctx.services.scratch, log })).toEqual({
      created: 0,
    });
    const [after] = await ctx.database.db.select({ n: count() }).from(videos);
    expect(after!.n).toBe(before!.n);
  });
});
