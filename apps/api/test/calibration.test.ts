import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KPIS } from '@sutura/domain/analysis';
import type { AgreementReport, ItemAgreement } from '@sutura/domain/agreement';
import type { ExpertCalibration } from '@sutura/domain/calibration';
import { sql } from 'drizzle-orm';
import { analyses, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

/**
 * The calibration routes on a small set of double reviews inserted here, whose figures are
 * computed by hand below (docs/agreement.md gives the formulas). Every KPI and the global rating
 * carry the same levels, so each item has the same numbers.
 */
let ctx: TestContext;
type Person = Awaited<ReturnType<TestContext['createUser']>>;
let e1: Person, e2: Person, e3: Person, admin: Person, copil: Person, learner: Person;
const surgery = { s: '', t: '' };

const at = (iso: string) => new Date(iso);

/** A case of `surgeryId` by `authorId`, with its reviews [expert, level, submitted at (null: draft)] in review order. */
async function reviewed(authorId: string, surgeryId: string, reviews: [Person, number, Date | null][]) {
  const [video] = await ctx.database.db
    .insert(videos)
    .values({ authorId, surgeryId, status: 'analysed', mediaStatus: 'ready', reviewsRequired: reviews.length })
    .returning();
  for (const [index, [expert, level, submittedAt]] of reviews.entries()) {
    await ctx.database.db.insert(analyses).values({
      videoId: video!.id,
      round: index + 1,
      expertId: expert.id,
      status: submittedAt ? 'submitted' : 'draft',
      kpiRatings: Object.fromEntries(KPIS.map((k) => [k, level])),
      globalRating: level,
      submittedAt,
    });
  }
  return video!.id;
}

const PERIOD = 'from==2026-04-01__to==2026-04-30';
const get = (url: string, person?: Person, headers?: Record<string, string>) =>
  ctx.inject({ method: 'GET', url, ...(person ? { token: person.token } : {}), ...(headers ? { headers } : {}) });
const item = (report: AgreementReport, name: ItemAgreement['item']) => report.items.find((i) => i.item === name)!;

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  e1 = await ctx.createUser('expert', { firstName: 'Alice', lastName: 'Un' });
  e2 = await ctx.createUser('expert', { firstName: 'Bruno', lastName: 'Deux' });
  e3 = await ctx.createUser('expert', { firstName: 'Chloé', lastName: 'Trois' });
  admin = await ctx.createUser('administrator');
  copil = await ctx.createUser('copil');
  learner = await ctx.createUser('learner');
  const { rows } = await ctx.database.db.execute<{ id: string }>(sql`SELECT id FROM surgeries ORDER BY position LIMIT 2`);
  surgery.s = rows[0]!.id;
  surgery.t = rows[1]!.id;
  const s = surgery.s;
  // Surgery S, pairs (first, second): (4, 3), (2, 2), (5, 4), (3, 3); D has a third review.
  // A's second review is at 00:30 on 1 April in Paris (22:30 UTC the day before): in the period.
  await reviewed(learner.id, s, [
    [e1, 4, at('2026-03-20T10:00:00Z')],
    [e2, 3, at('2026-03-31T22:30:00Z')],
  ]);
  await reviewed(learner.id, s, [
    [e2, 2, at('2026-04-02T10:00:00Z')],
    [e1, 2, at('2026-04-03T10:00:00Z')],
  ]);
  await reviewed(learner.id, s, [
    [e1, 5, at('2026-04-04T10:00:00Z')],
    [e2, 4, at('2026-04-05T10:00:00Z')],
  ]);
  await reviewed(learner.id, s, [
    [e3, 3, at('2026-04-06T10:00:00Z')],
    [e1, 3, at('2026-04-07T10:00:00Z')],
    [e2, 1, at('2026-04-08T10:00:00Z')],
  ]);
  // Left out: a second review at 23:30 on 31 March in Paris; one after the period; one review only;
  // two reviews by the same expert is not a second opinion.
  await reviewed(learner.id, s, [
    [e1, 1, at('2026-03-01T10:00:00Z')],
    [e2, 5, at('2026-03-31T21:30:00Z')],
  ]);
  await reviewed(learner.id, s, [
    [e1, 1, at('2026-04-10T10:00:00Z')],
    [e2, 5, at('2026-05-01T10:00:00Z')],
  ]);
  await reviewed(learner.id, s, [[e1, 1, at('2026-04-10T10:00:00Z')]]);
  await reviewed(learner.id, s, [
    [e1, 1, at('2026-04-10T10:00:00Z')],
    [e1, 5, at('2026-04-11T10:00:00Z')],
  ]);
  // Surgery T: one case agreed, and one that e3 is still reviewing (a third review, in draft).
  await reviewed(learner.id, surgery.t, [
    [e1, 3, at('2026-04-12T10:00:00Z')],
    [e2, 3, at('2026-04-13T10:00:00Z')],
  ]);
  await reviewed(learner.id, surgery.t, [
    [e1, 1, at('2026-04-12T10:00:00Z')],
    [e2, 5, at('2026-04-13T10:00:00Z')],
    [e3, 2, null],
  ]);
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /v1/admin/calibration', () => {
  it('gives the hand-computed figures of a surgery over the period', async () => {
    const res = await get(`/v1/admin/calibration?filter=${PERIOD}__surgeryId==${surgery.s}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().data as AgreementReport;
    expect(report).toMatchObject({
      from: '2026-04-01',
      to: '2026-04-30',
      surgeryId: surgery.s,
      expertId: null,
      cases: 4,
      tripleReviewed: 1,
    });
    for (const name of [...KPIS, 'global'] as const) {
      const row = item(report, name);
      expect(row.pairs, name).toBe(4);
      // x = 4 2 5 3, y = 3 2 4 3: s_xy = 0.75, s_x² = 1.25, s_y² = 0.5, (x̄ − ȳ)² = 0.25: κ_w = 1.5 / 2.
      expect(row.kappa.value, name).toBeCloseTo(0.75, 10);
      // MSR = 6.5 / 3, MSC = 0.5, MSE = 0.5 / 3: ICC = 2 / 2.5.
      expect(row.icc.value, name).toBeCloseTo(0.8, 10);
      expect(row.kappa.ci!.lower).toBeLessThan(0.75);
      expect(row.icc.ci!.upper).toBeGreaterThan(0.8);
      // Differences 1 0 1 0: bias 0.5, SD √(1/3), limits 0.5 ± 1.96 SD.
      expect(row.blandAltman.bias).toBeCloseTo(0.5, 10);
      expect(row.blandAltman.sd).toBeCloseTo(Math.sqrt(1 / 3), 10);
      expect(row.blandAltman.upper).toBeCloseTo(0.5 + 1.959963984540054 * Math.sqrt(1 / 3), 10);
      expect(row.blandAltman.points).toHaveLength(4);
      // Each rating against the mean of the others: Chloé +1 (one case); Alice +1 0 +1 +1; Bruno −1 0 −1 −2.
      expect(row.experts.map((e) => [e.name, e.cases, e.mean])).toEqual([
        ['Chloé Trois', 1, 1],
        ['Alice Un', 4, 0.75],
        ['Bruno Deux', 4, -1],
      ]);
      expect(row.experts[0]!.ci).toBeNull();
    }
    expect(item(report, 'steps').pairs).toBe(0);
    expect(item(report, 'steps').kappa.gap).toBe('tooFewPairs');
  });

  it('counts every surgery without the filter, the case still under review included', async () => {
    const res = await get(`/v1/admin/calibration?filter=${PERIOD}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ surgeryId: null, cases: 6, tripleReviewed: 1 });
  });

  it("narrows to one expert's view on request, and is read by copil", async () => {
    const res = await get(`/v1/admin/calibration?filter=${PERIOD}__surgeryId==${surgery.s}__expertId==${e2.id}`, copil);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().data as AgreementReport;
    expect(report).toMatchObject({ expertId: e2.id, cases: 4 });
    // (Bruno, the first other review): (3, 4), (2, 2), (4, 5), (1, 3).
    expect(item(report, 'global').blandAltman.bias).toBeCloseTo(-1, 10);
    expect(item(report, 'global').experts.map((e) => e.name)).toEqual(['Bruno Deux']);
  });

  it('finds nothing in an empty period', async () => {
    const res = await get('/v1/admin/calibration?filter=from==2025-01-01__to==2025-01-31', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ cases: 0 });
    expect(item(res.json().data, 'global').kappa).toEqual({ value: null, ci: null, gap: 'tooFewPairs' });
  });

  it('refuses a bad filter with a catalogue error in the caller’s language, never a 500', async () => {
    const cases: [string, string, string][] = [
      ['', 'FIELD_REQUIRED', 'filter.from'],
      ['?filter=from==2026-04-01', 'FIELD_REQUIRED', 'filter.to'],
      ['?filter=from==2026-05-01__to==2026-04-01', 'DATE_RANGE_INVERTED', 'filter.to'],
      ['?filter=from==yesterday__to==2026-04-01', 'INVALID_VALUE', 'filter.from'],
      [`?filter=${PERIOD}__surgeryId==heart`, 'INVALID_VALUE', 'filter.surgeryId'],
    ];
    for (const [query, code, path] of cases) {
      const res = await get(`/v1/admin/calibration${query}`, admin, { 'accept-language': 'fr' });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe(code);
      expect(res.json().error.details[0].path, query).toBe(path);
    }
    const fr = await get('/v1/admin/calibration?filter=from==2026-04-01&langCode=fr', admin);
    expect(fr.json().error.message).toBe('Ce champ est obligatoire');
    const en = await get('/v1/admin/calibration?filter=from==2026-04-01&langCode=en', admin);
    expect(en.json().error.message).toBe('This field is required');
    const unknown = await get(`/v1/admin/calibration?filter=${PERIOD}__learnerId==${learner.id}`, admin);
    expect(unknown.statusCode).toBe(400);
  });

  it('answers 404 for a surgery or an expert that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await get(`/v1/admin/calibration?filter=${PERIOD}__surgeryId==${missing}`, admin)).statusCode).toBe(404);
    expect((await get(`/v1/admin/calibration?filter=${PERIOD}__expertId==${missing}`, admin)).statusCode).toBe(404);
  });

  it('is for the administration only', async () => {
    expect((await get(`/v1/admin/calibration?filter=${PERIOD}`)).statusCode).toBe(401);
    for (const person of [e1, learner]) expect((await get(`/v1/admin/calibration?filter=${PERIOD}`, person)).statusCode).toBe(403);
    const editor = await ctx.createUser('editor');
    expect((await get(`/v1/admin/calibration?filter=${PERIOD}`, editor)).statusCode).toBe(403);
  });
});

describe('GET /v1/expert/calibration', () => {
  it("gives the expert their own figures and the programme's, with no other expert's name", async () => {
    const res = await get(`/v1/expert/calibration?filter=${PERIOD}__surgeryId==${surgery.s}`, e2);
    expect(res.statusCode, res.body).toBe(200);
    const { own, programme } = res.json().data as ExpertCalibration;
    expect(own).toMatchObject({ expertId: e2.id, cases: 4 });
    expect(item(own, 'depthPerception').blandAltman.bias).toBeCloseTo(-1, 10);
    expect(item(own, 'depthPerception').experts).toEqual([
      expect.objectContaining({ expertId: e2.id, name: 'Bruno Deux', cases: 4, mean: -1 }),
    ]);
    expect(programme).toMatchObject({ expertId: null, cases: 4 });
    expect(item(programme, 'global').kappa.value).toBeCloseTo(0.75, 10);
    expect(item(programme, 'global').icc.value).toBeCloseTo(0.8, 10);
    expect(programme.items.every((i) => i.experts.length === 0)).toBe(true);
    expect(res.body).not.toContain('Alice');
    expect(res.body).not.toContain(e1.id);
  });

  it('leaves out the cases the expert still reviews, blind', async () => {
    const mine = (await get(`/v1/expert/calibration?filter=${PERIOD}`, e3)).json().data as ExpertCalibration;
    // The admin counts 6 cases; e3 has a draft on one of them, which none of e3's figures count.
    expect(mine.programme.cases).toBe(5);
    expect(mine.own.cases).toBe(1);
    // e1 reviewed that case, whose third review is not in yet: still blind for them too.
    const first = (await get(`/v1/expert/calibration?filter=${PERIOD}`, e1)).json().data as ExpertCalibration;
    expect(first.programme.cases).toBe(5);
    // Once the third review is in, every figure counts it.
    await ctx.database.db.execute(
      sql`UPDATE analyses SET status = 'submitted', submitted_at = '2026-04-20T10:00:00Z' WHERE expert_id = ${e3.id} AND status = 'draft'`,
    );
    const after = (await get(`/v1/expert/calibration?filter=${PERIOD}`, e1)).json().data as ExpertCalibration;
    expect(after.programme.cases).toBe(6);
    expect(after.programme.tripleReviewed).toBe(2);
    await ctx.database.db.execute(
      sql`UPDATE analyses SET status = 'draft', submitted_at = NULL WHERE expert_id = ${e3.id} AND submitted_at = '2026-04-20T10:00:00Z'`,
    );
  });

  it('takes the same filter, and refuses another expert', async () => {
    expect((await get(`/v1/expert/calibration?filter=${PERIOD}__expertId==${e2.id}`, e2)).statusCode).toBe(200);
    const res = await get(`/v1/expert/calibration?filter=${PERIOD}__expertId==${e1.id}`, e2);
    expect(res.statusCode).toBe(403);
    expect((await get('/v1/expert/calibration?filter=from==2026-05-01__to==2026-04-01', e2)).statusCode).toBe(400);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await get(`/v1/expert/calibration?filter=${PERIOD}__surgeryId==${missing}`, e2)).statusCode).toBe(404);
  });

  it('is for experts only', async () => {
    expect((await get(`/v1/expert/calibration?filter=${PERIOD}`)).statusCode).toBe(401);
    for (const person of [admin, copil, learner])
      expect((await get(`/v1/expert/calibration?filter=${PERIOD}`, person)).statusCode).toBe(403);
  });
});
