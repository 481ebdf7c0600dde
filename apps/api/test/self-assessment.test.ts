// @database-server: the self vs expert statistics SQL (jsonb casts, AT TIME ZONE on the server's time zone data)
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import { selfVsExpertDirection, selfVsExpertTrend, type LearnerSelfVsExpert, type SelfAssessment } from '@sutura/domain/self-assessment';
import { analyses, selfAssessments, videos } from '../src/db/schema.ts';
import { createSelfVsExpertStats } from '../src/modules/self-assessment/self-assessment.stats.ts';
import { createTestContext, type TestContext } from './harness.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;
let ctx: TestContext;
let learner: Person;
let other: Person;
let expert: Person;
let admin: Person;
let hidden: Person;
const db = () => ctx.database.db;

/** Every KPI at `level`, some overridden. */
const levels = (level: number, overrides: Partial<Record<Kpi, number | null>> = {}) =>
  ({ ...Object.fromEntries(KPIS.map((k) => [k, level])), ...overrides }) as Record<Kpi, number>;

/** A case of `authorId` at `status`; with `expertKpis`, an expert's submitted analysis of it. */
async function caseOf(
  authorId: string,
  status: 'saved' | 'pending_analysis' | 'analysed',
  expertKpis?: Record<string, number | null>,
  at = new Date(),
) {
  const [video] = await db()
    .insert(videos)
    .values({ authorId, status, mediaStatus: 'ready', duration: 60, sentAt: status === 'saved' ? null : at })
    .returning();
  if (expertKpis)
    await db().insert(analyses).values({
      videoId: video!.id,
      expertId: expert.id,
      status: 'submitted',
      kpiRatings: expertKpis,
      globalRating: 3,
      submittedAt: at,
    });
  return video!.id;
}

/** The expert claims a case waiting for analysis, rates every KPI at `level` and submits: its result is released. */
async function finalize(id: string, level: number) {
  const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${id}/claim`, token: expert.token, body: {} });
  expect(claimed.statusCode, claimed.body).toBe(200);
  const fencingToken = claimed.json().data.fencingToken as number;
  const saved = await ctx.inject({
    method: 'PUT',
    url: `/v1/expert/videos/${id}/analysis`,
    token: expert.token,
    body: { fencingToken, kpiRatings: levels(level), globalRating: level },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const done = await ctx.inject({
    method: 'POST',
    url: `/v1/expert/videos/${id}/finalize`,
    token: expert.token,
    body: { fencingToken, confirmAnyway: true },
  });
  expect(done.statusCode, done.body).toBe(200);
}

const path = (id: string) => `/v1/videos/${id}/self-assessment`;
const read = async (id: string, token = learner.token) => {
  const res = await ctx.inject({ method: 'GET', url: path(id), token });
  return { status: res.statusCode, data: res.json().data as SelfAssessment, res };
};
const rate = (id: string, body: unknown, token = learner.token, lang = 'en') =>
  ctx.inject({ method: 'PUT', url: path(id), token, body, headers: { 'accept-language': lang } });
const skip = (id: string, token = learner.token) => ctx.inject({ method: 'POST', url: `${path(id)}/skip`, token, body: {} });

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  learner = await ctx.createUser('learner');
  other = await ctx.createUser('learner');
  expert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
  hidden = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: false } });
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the self-assessment of a case', () => {
  it('is changed freely before the result; the last review releases the ratings to a learner who answered: compared, then locked', async () => {
    const id = await caseOf(learner.id, 'pending_analysis');
    const before = await read(id);
    expect(before.status).toBe(200);
    expect(before.data).toMatchObject({ state: 'open', canRate: true, invite: false, resultSeenAt: null, ratingsReleasedAt: null });

    const saved = await rate(id, { kpiRatings: levels(4), globalRating: 4 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ state: 'submitted', invite: false, canRate: true, kpiRatings: levels(4), globalRating: 4 });
    expect(saved.json().data.comparison).toBeNull();
    // Rated again before the result: the new levels replace the old.
    expect((await rate(id, { kpiRatings: levels(5, { autonomy: 1 }) })).json().data.kpiRatings.autonomy).toBe(1);

    // The expert submits (3 everywhere): the learner had answered, so the ratings are theirs at
    // once — before any reading of the result — and the self-assessment is read-only.
    await finalize(id, 3);
    const after = await read(id);
    expect(after.data).toMatchObject({ state: 'submitted', canRate: false, invite: false, resultSeenAt: null });
    expect(after.data.ratingsReleasedAt).not.toBeNull();
    expect(after.data.comparison).toEqual([
      ...KPIS.map((kpi) => ({ kpi, self: kpi === 'autonomy' ? 1 : 5, expert: 3, gap: kpi === 'autonomy' ? -2 : 2 })),
      { kpi: 'global', self: null, expert: 3, gap: null },
    ]);

    const refused = await rate(id, { kpiRatings: levels(3) }, learner.token, 'fr');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'SELF_ASSESSMENT_LOCKED' });
    expect(refused.json().error.message).toMatch(/auto-évaluation/);
    expect((await skip(id)).statusCode).toBe(409);
    const [row] = await db().select().from(selfAssessments).where(eq(selfAssessments.videoId, id));
    expect(row!.kpiRatings).toEqual(levels(5, { autonomy: 1 }));
    // The result read: the first reading is recorded, and kept.
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: learner.token })).statusCode).toBe(200);
    const seen = (await read(id)).data.resultSeenAt;
    expect(seen).not.toBeNull();
    await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: learner.token });
    expect((await read(id)).data).toMatchObject({ resultSeenAt: seen, ratingsReleasedAt: after.data.ratingsReleasedAt });
  });

  it('invites on an analysed case whose ratings are not released; answering releases them at once and locks', async () => {
    const id = await caseOf(learner.id, 'analysed', levels(3, { autonomy: 2 }));
    expect((await read(id)).data).toMatchObject({ state: 'open', canRate: true, invite: true, ratingsReleasedAt: null, comparison: null });
    const saved = await rate(id, { kpiRatings: levels(4), globalRating: 4 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ state: 'submitted', invite: false, canRate: false, resultSeenAt: null });
    expect(saved.json().data.ratingsReleasedAt).not.toBeNull();
    expect(saved.json().data.comparison).toEqual([
      ...KPIS.map((kpi) => ({ kpi, self: 4, expert: kpi === 'autonomy' ? 2 : 3, gap: kpi === 'autonomy' ? 2 : 1 })),
      { kpi: 'global', self: 4, expert: 3, gap: 1 },
    ]);
    const again = await rate(id, { kpiRatings: levels(2) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
  });

  it('records a skip once; a case skipped before its result may still be rated until its ratings are released', async () => {
    const id = await caseOf(learner.id, 'pending_analysis');
    const first = await skip(id);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ state: 'skipped', invite: false, canRate: true, ratingsReleasedAt: null });
    const skippedAt = first.json().data.skippedAt;
    expect((await skip(id)).json().data.skippedAt).toBe(skippedAt);
    expect((await rate(id, { kpiRatings: levels(2) })).json().data).toMatchObject({ state: 'submitted', skippedAt });
    // Skipping a rated case changes nothing.
    expect((await skip(id)).json().data).toMatchObject({ state: 'submitted', kpiRatings: levels(2) });

    // A skip once the result is released releases the ratings: no rating after it.
    const analysed = await caseOf(learner.id, 'analysed', levels(3));
    const skipped = await skip(analysed);
    expect(skipped.json().data).toMatchObject({ state: 'skipped', canRate: false, comparison: null });
    expect(skipped.json().data.ratingsReleasedAt).not.toBeNull();
    expect((await rate(analysed, { kpiRatings: levels(2) })).json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
  });

  it('counts a reading of the result while the invitation is open as a skip: released and locked', async () => {
    const id = await caseOf(learner.id, 'analysed', levels(3));
    // Asked with the case (`ifReady`), the result is not served while the invitation is open.
    const ifReady = await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis?ifReady=true`, token: learner.token });
    expect(ifReady.json().data).toBeNull();
    expect((await read(id)).data).toMatchObject({ invite: true, canRate: true, ratingsReleasedAt: null });
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: learner.token })).statusCode).toBe(200);
    const after = (await read(id)).data;
    expect(after).toMatchObject({ state: 'open', invite: false, canRate: false });
    expect(after.ratingsReleasedAt).not.toBeNull();
    expect(after.resultSeenAt).toBe(after.ratingsReleasedAt);
    expect((await rate(id, { kpiRatings: levels(3) })).json().error.code).toBe('SELF_ASSESSMENT_LOCKED');
  });

  it('opens once the case is sent, before the analysis, and not before sending', async () => {
    const waiting = await caseOf(learner.id, 'pending_analysis');
    expect((await read(waiting)).data).toMatchObject({ state: 'open', canRate: true, invite: false });
    expect((await rate(waiting, { kpiRatings: levels(3) })).statusCode).toBe(200);
    const draft = await caseOf(learner.id, 'saved');
    expect((await read(draft)).data).toMatchObject({ canRate: false, invite: false });
    const refused = await rate(draft, { kpiRatings: levels(3) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('SELF_ASSESSMENT_NOT_SENT');
    expect((await skip(draft)).statusCode).toBe(409);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const id = await caseOf(learner.id, 'analysed', levels(3));
    const bodies = [
      {},
      { kpiRatings: levels(3, { autonomy: null }) },
      { kpiRatings: levels(3, { efficiency: 6 }) },
      { kpiRatings: levels(3, { efficiency: 0 }) },
      { kpiRatings: levels(3, { efficiency: 2.5 }) },
      { kpiRatings: { ...levels(3), speed: 3 } },
      { kpiRatings: levels(3), globalRating: 9 },
      { kpiRatings: levels(3), extra: true },
      { kpiRatings: 'good' },
    ];
    for (const body of bodies) {
      const res = await rate(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(['VALIDATION', 'FIELD_REQUIRED', 'INVALID_VALUE']).toContain(res.json().error.code);
    }
    // An id that is no UUID names no case.
    expect((await ctx.inject({ method: 'GET', url: path('not-a-uuid'), token: learner.token })).statusCode).toBe(404);
    expect(await db().select().from(selfAssessments).where(eq(selfAssessments.videoId, id))).toEqual([]);
  });

  it("is the author's only: 401 without a session, 403 for other roles, 404 for another learner or no case", async () => {
    const id = await caseOf(learner.id, 'analysed', levels(3));
    for (const [method, url, body] of [
      ['GET', path(id), undefined],
      ['PUT', path(id), { kpiRatings: levels(3) }],
      ['POST', `${path(id)}/skip`, {}],
    ] as const) {
      expect((await ctx.inject({ method, url, body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await ctx.inject({ method, url, body, token: expert.token })).statusCode).toBe(403);
      expect((await ctx.inject({ method, url, body, token: admin.token })).statusCode).toBe(403);
      expect((await ctx.inject({ method, url, body, token: other.token })).statusCode).toBe(404);
      const missing = url.replace(id, '00000000-0000-4000-8000-000000000000');
      expect((await ctx.inject({ method, url: missing, body, token: learner.token })).statusCode).toBe(404);
    }
    expect(await db().select().from(selfAssessments).where(eq(selfAssessments.videoId, id))).toEqual([]);
    // An administrator's reading of the result neither releases nor locks it...
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: admin.token })).statusCode).toBe(200);
    expect((await read(id)).data).toMatchObject({ canRate: true, ratingsReleasedAt: null });
    // ...and the result read by an administrator carries no self-assessment.
    expect((await rate(id, { kpiRatings: levels(1) })).statusCode).toBe(200);
    const asAdmin = await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: admin.token });
    expect(asAdmin.statusCode).toBe(200);
    expect(JSON.stringify(asAdmin.json().data)).not.toMatch(/self/i);
  });

  it('shows no comparison with ratings hidden', async () => {
    const id = await caseOf(hidden.id, 'analysed', levels(3));
    expect((await rate(id, { kpiRatings: levels(4) }, hidden.token)).statusCode).toBe(200);
    await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis`, token: hidden.token });
    expect((await read(id, hidden.token)).data).toMatchObject({ state: 'submitted', canRate: false, comparison: null });
    const stats = await ctx.inject({ method: 'GET', url: '/v1/stats/me/self-assessment', token: hidden.token });
    expect(stats.json().data).toEqual({ ratingsShown: false });
  });
});

describe('the PDF report', () => {
  const reportText = async (id: string, lang: 'en' | 'fr') => {
    const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${id}/analysis/report?langCode=${lang}`, token: learner.token });
    expect(res.statusCode).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true });
    return text;
  };

  it('carries the self-assessment against the expert when there is one, and locks it', async () => {
    const id = await caseOf(learner.id, 'analysed', levels(3));
    expect((await rate(id, { kpiRatings: levels(4, { efficiency: 3 }), globalRating: 2 })).statusCode).toBe(200);
    const en = await reportText(id, 'en');
    expect(en).toContain('Self-assessment');
    // Reviewed once: against that expert.
    expect(en).toMatch(/Skill\s+You\s+Expert\s+Gap/);
    expect(en).toMatch(/Depth perception\s*4\s*3\s*1 higher/);
    expect(en).toMatch(/Movement efficiency\s*3\s*3\s*agree/);
    expect(en).toMatch(/Overall rating\s*2\s*3\s*1 lower/);
    expect(await reportText(id, 'fr')).toContain('Auto-évaluation');

    const skipped = await caseOf(learner.id, 'analysed', levels(3));
    await skip(skipped);
    expect(await reportText(skipped, 'en')).not.toContain('Self-assessment');

    // The report is the result too: read while the invitation is open, it counts as a skip.
    const unanswered = await caseOf(learner.id, 'analysed', levels(3));
    expect((await read(unanswered)).data.canRate).toBe(true);
    expect(await reportText(unanswered, 'en')).not.toContain('Self-assessment');
    expect((await read(unanswered)).data).toMatchObject({ canRate: false, invite: false });
    expect((await read(unanswered)).data.ratingsReleasedAt).not.toBeNull();
  });
});

describe('self vs expert statistics', () => {
  const NOW = new Date('2026-06-15T12:00:00Z');

  it('computes the mean absolute difference per KPI and overall, month by month, and the trend', async () => {
    const person = await ctx.createUser('learner');
    // Each self-assessed before the result, its ratings released to the learner with the result
    // (the moment the expert submitted), as the finalize does; `withheld` leaves them unreleased.
    const rated = async (
      at: Date,
      self: Record<Kpi, number> | null,
      expertKpis: Record<string, number | null>,
      skipped = false,
      withheld = false,
    ) => {
      const id = await caseOf(person.id, 'analysed', expertKpis, at);
      await db()
        .insert(selfAssessments)
        .values({ videoId: id, authorId: person.id, kpiRatings: self, submittedAt: self ? at : null, skippedAt: skipped ? at : null });
      if (!withheld) await db().update(videos).set({ resultReleasedAt: at, ratingsReleasedAt: at }).where(eq(videos.id, id));
      return id;
    };
    // March: two cases. |4-2|=2 ×5 and |3-3|=0 ×4, |3-1|=2 on autonomy.
    await rated(new Date('2026-03-10T10:00:00Z'), levels(4), levels(2));
    await rated(new Date('2026-03-20T10:00:00Z'), levels(3), levels(3, { autonomy: 1 }));
    // May: one case, the expert left tissue handling unrated: |4-3|=1 on the four others.
    const may = await rated(new Date('2026-05-05T10:00:00Z'), levels(4), levels(3, { tissueHandling: null }));
    // The expert rating may be a mean of reviews (3 and 4 → 3.5 on depth perception): stood in for by one analysis at 3.5.
    await db()
      .update(analyses)
      .set({ kpiRatings: levels(3, { tissueHandling: null, depthPerception: 3.5 }) })
      .where(eq(analyses.videoId, may));
    // Skipped: never counted.
    await rated(new Date('2026-05-06T10:00:00Z'), null, levels(1), true);
    // Its ratings not released to the learner (as while a second review is awaited): not counted, whatever the gap.
    await rated(new Date('2026-05-07T10:00:00Z'), levels(5), levels(1), false, true);
    // The last day of April in Paris (22:30 UTC on 30 April is 1 May 00:30 in Paris): a May case.
    await rated(new Date('2026-04-30T22:30:00Z'), levels(5), levels(5));

    const stats = createSelfVsExpertStats({ db: db(), clock: () => NOW, timeZone: 'Europe/Paris' });
    const viewer = {
      id: person.id,
      sessionId: 'test',
      sessionEndsAt: new Date(8.64e15),
      roles: ['learner' as const],
      preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings: true },
    };
    const result = (await stats.learner(viewer)) as Extract<LearnerSelfVsExpert, { ratingsShown: true }>;
    expect(result.months).toHaveLength(12);
    expect(result.months[0]!.month).toBe('2025-07-01');
    const byMonth = Object.fromEntries(result.months.map((m) => [m.month, m]));
    expect(byMonth['2026-03-01']).toEqual({
      month: '2026-03-01',
      cases: 2,
      kpis: { depthPerception: 1, bimanualDexterity: 1, efficiency: 1, tissueHandling: 1, autonomy: 2 },
      kpiCounts: levels(2),
      // (2×5 + 0×4 + 2) / 10 pairs
      overall: 1.2,
      pairs: 10,
      // Every difference the same way (self higher): signed as absolute.
      signedKpis: { depthPerception: 1, bimanualDexterity: 1, efficiency: 1, tissueHandling: 1, autonomy: 2 },
      signedOverall: 1.2,
    });
    expect(byMonth['2026-04-01']).toMatchObject({ cases: 0, overall: null, pairs: 0 });
    // May: the April-30 (Paris May-1) case at 0 everywhere, the May-5 case at 0.5, 1, 1, -, 1.
    expect(byMonth['2026-05-01']).toEqual({
      month: '2026-05-01',
      cases: 2,
      kpis: { depthPerception: 0.25, bimanualDexterity: 0.5, efficiency: 0.5, tissueHandling: 0, autonomy: 0.5 },
      kpiCounts: { depthPerception: 2, bimanualDexterity: 2, efficiency: 2, tissueHandling: 1, autonomy: 2 },
      // (0.5 + 1 + 1 + 1) / 9 pairs
      overall: 0.39,
      pairs: 9,
      signedKpis: { depthPerception: 0.25, bimanualDexterity: 0.5, efficiency: 0.5, tissueHandling: 0, autonomy: 0.5 },
      signedOverall: 0.39,
    });
    expect(result).toMatchObject({ trend: 'closer', first: 1.2, last: 0.39 });
  });

  it('gives the signed mean difference (self − expert) beside the absolute one: negative when the learner rates themselves lower', async () => {
    const person = await ctx.createUser('learner');
    const rated = async (at: Date, self: Record<Kpi, number>, expertKpis: Record<string, number | null>) => {
      const id = await caseOf(person.id, 'analysed', expertKpis, at);
      await db().insert(selfAssessments).values({ videoId: id, authorId: person.id, kpiRatings: self, submittedAt: at });
      // Answered before the result: its ratings reached the learner with it.
      await db().update(videos).set({ resultReleasedAt: at, ratingsReleasedAt: at }).where(eq(videos.id, id));
    };
    // June: 2 − 4 = −2 on four skills and 2 − 1 = +1 on autonomy; then 3 − 3 = 0 everywhere.
    await rated(new Date('2026-06-02T10:00:00Z'), levels(2), levels(4, { autonomy: 1 }));
    await rated(new Date('2026-06-03T10:00:00Z'), levels(3), levels(3));
    const stats = createSelfVsExpertStats({ db: db(), clock: () => NOW, timeZone: 'Europe/Paris' });
    const viewer = {
      id: person.id,
      sessionId: 'test',
      sessionEndsAt: new Date(8.64e15),
      roles: ['learner' as const],
      preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings: true },
    };
    const result = (await stats.learner(viewer)) as Extract<LearnerSelfVsExpert, { ratingsShown: true }>;
    const june = result.months.find((m) => m.month === '2026-06-01')!;
    expect(june).toMatchObject({
      cases: 2,
      kpis: { depthPerception: 1, bimanualDexterity: 1, efficiency: 1, tissueHandling: 1, autonomy: 0.5 },
      // (2×4 + 1) / 10
      overall: 0.9,
      signedKpis: { depthPerception: -1, bimanualDexterity: -1, efficiency: -1, tissueHandling: -1, autonomy: 0.5 },
      // (−2×4 + 1) / 10
      signedOverall: -0.7,
    });
    expect(selfVsExpertDirection(result.months)).toEqual({
      overall: -0.7,
      word: 'lower',
      kpis: { depthPerception: -1, bimanualDexterity: -1, efficiency: -1, tissueHandling: -1, autonomy: 0.5 },
    });
  });

  it('weighs each month by its pairs for the direction over the months, and calls a small lean in line', () => {
    const month = (pairs: number, signedOverall: number | null) => ({
      pairs,
      signedOverall,
      kpiCounts: levels(pairs / 5),
      signedKpis: levels(signedOverall ?? 0) as Record<Kpi, number | null>,
    });
    expect(selfVsExpertDirection([month(10, 1), month(0, null), month(5, -0.5)])).toMatchObject({ overall: 0.5, word: 'higher' });
    expect(selfVsExpertDirection([month(5, 0.2), month(5, 0.1)])).toMatchObject({ overall: 0.15, word: 'inLine' });
    expect(selfVsExpertDirection([month(5, -0.3)])).toMatchObject({ overall: -0.3, word: 'lower' });
    expect(selfVsExpertDirection([month(0, null)])).toMatchObject({ overall: null, word: null });
  });

  it('words the trend from the first and the latest month with data', () => {
    expect(selfVsExpertTrend([{ overall: null }, { overall: 1 }])).toEqual({ trend: null, first: 1, last: 1 });
    expect(selfVsExpertTrend([{ overall: 0.5 }, { overall: null }, { overall: 0.9 }])).toEqual({ trend: 'further', first: 0.5, last: 0.9 });
    expect(selfVsExpertTrend([{ overall: 0.5 }, { overall: 0.55 }])).toMatchObject({ trend: 'steady' });
    expect(selfVsExpertTrend([{ overall: 0.6 }, { overall: 0.5 }])).toMatchObject({ trend: 'closer' });
  });

  it('answers the learner through the route, and refuses other roles', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/stats/me/self-assessment', token: learner.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.ratingsShown).toBe(true);
    expect((await ctx.inject({ method: 'GET', url: '/v1/stats/me/self-assessment' })).statusCode).toBe(401);
    expect((await ctx.inject({ method: 'GET', url: '/v1/stats/me/self-assessment', token: expert.token })).statusCode).toBe(403);
  });
});
