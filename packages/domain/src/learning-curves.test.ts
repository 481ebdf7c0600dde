import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KPIS, type Kpi } from './analysis.ts';
import { ERRORS } from './errors.ts';
import {
  caseFailure,
  caseRatingsOfReviews,
  cusumLimits,
  DEFAULT_LEARNING_CURVE_SETTINGS,
  learningCurve,
  learningCurveSchema,
  learningCurveSettingsSchema,
  type LearningCurveCase,
  type LearningCurveSettings,
} from './learning-curves.ts';

const PARIS = { timeZone: 'Europe/Paris' };
const skills = (xs: readonly (number | null)[]) => Object.fromEntries(KPIS.map((k, i) => [k, xs[i] ?? null])) as Record<Kpi, number | null>;

/** Cases a week apart from 2026-01-07, in operation order, one per global rating (skills all equal to it). */
function weekly(ratings: readonly (number | null)[]): LearningCurveCase[] {
  return ratings.map((g, i) => {
    const day = new Date(Date.UTC(2026, 0, 7 + 7 * i));
    return {
      videoId: `v${String(i + 1).padStart(3, '0')}`,
      operatedOn: day.toISOString().slice(0, 10),
      sentAt: new Date(day.getTime() + 86_400_000).toISOString(),
      globalRating: g,
      kpis: skills(Array(5).fill(g)),
    };
  });
}
const curve = (ratings: readonly (number | null)[], settings: LearningCurveSettings = DEFAULT_LEARNING_CURVE_SETTINGS) =>
  learningCurve(weekly(ratings), settings, PARIS);
const S = 4; // a success under the default rule
const F = 2; // a failure

describe('the limits of the chart', () => {
  it('are, with the defaults p0 = 0.10, p1 = 0.30, α = β = 0.10, the numbers of docs/learning-curves.md', () => {
    const l = cusumLimits(DEFAULT_LEARNING_CURVE_SETTINGS);
    // P = ln 3; Q = ln(0.9/0.7) = ln(9/7); s = Q/(P + Q); h0 = h1 = ln 9/(P + Q).
    expect(l.P).toBeCloseTo(Math.log(3), 14);
    expect(l.P).toBeCloseTo(1.0986, 4);
    expect(l.Q).toBeCloseTo(Math.log(9 / 7), 14);
    expect(l.Q).toBeCloseTo(0.2513, 4);
    expect(l.P + l.Q).toBeCloseTo(1.3499, 4);
    expect(l.s).toBeCloseTo(0.1862, 4);
    expect(l.h0).toBeCloseTo(1.6277, 4);
    expect(l.h1).toBe(l.h0);
    // h1 = ln 9/(P + Q) = 2 ln 3/(P + Q) = 2(1 − s): two failures from 0 land exactly on the limit.
    expect(2 * (1 - l.s)).toBeCloseTo(l.h1, 12);
    // h0/s = ln 9/ln(9/7) ≈ 8.74: nine successes in a row from 0 reach −h0, eight do not.
    expect(l.h0 / l.s).toBeCloseTo(8.743, 3);
    expect(8 * l.s).toBeLessThan(l.h0);
    expect(9 * l.s).toBeGreaterThan(l.h0);
  });

  it('follow the settings: α and β set h1 and h0 apart', () => {
    // p0 = 0.05, p1 = 0.15, α = 0.05, β = 0.20 (by hand): P = ln 3 = 1.098612, Q = ln(0.95/0.85) = 0.111226,
    // P + Q = 1.209838, s = 0.111226/1.209838 = 0.091934, h0 = ln(0.95/0.2)/(P + Q) = 1.558145/1.209838 = 1.287895,
    // h1 = ln(0.8/0.05)/(P + Q) = 2.772589/1.209838 = 2.291703.
    const l = cusumLimits({ p0: 0.05, p1: 0.15, alpha: 0.05, beta: 0.2 });
    expect(l.P).toBeCloseTo(1.098612, 6);
    expect(l.Q).toBeCloseTo(0.111226, 6);
    expect(l.s).toBeCloseTo(0.091934, 6);
    expect(l.h0).toBeCloseTo(1.287895, 6);
    expect(l.h1).toBeCloseTo(2.291703, 6);
  });
});

describe('the CUSUM chart', () => {
  const { s, h0 } = cusumLimits(DEFAULT_LEARNING_CURVE_SETTINGS);

  it('signals proficiency at the 9th success in a row, not before', () => {
    const c = curve(Array(9).fill(S));
    c.points.slice(0, 8).forEach((p, i) => {
      expect(p.cusum).toBeCloseTo(-(i + 1) * s, 12);
      expect(p.signal).toBeNull();
    });
    expect(c.points[7]!.cusum).toBeGreaterThan(-h0);
    expect(c.points[8]!.cusum).toBeCloseTo(-1.6755, 4);
    expect(c.points[8]!.signal).toBe('proficient');
    expect(c.summary).toMatchObject({ cases: 9, state: 'proficient', proficientAt: 9, relapseAt: null, unacceptableAt: null });
    expect(curve(Array(8).fill(S)).summary.state).toBe('learning');
  });

  it('adds 1 − s for a failure and takes s off for a success', () => {
    const c = curve([F, S, S, F]);
    expect(c.points.map((p) => p.cusum)).toEqual([1 - s, 1 - 2 * s, 1 - 3 * s, 2 - 4 * s].map((x) => expect.closeTo(x, 12)));
    expect(c.points.map((p) => p.failure)).toEqual([true, false, false, true]);
    expect(c.summary).toMatchObject({ cases: 4, judged: 4, failures: 2, state: 'learning', signals: [] });
  });

  it('restarts from 0 after a signal, and a second proficiency signal keeps the first as the start of proficiency', () => {
    const c = curve(Array(18).fill(S));
    expect(c.points[8]!.signal).toBe('proficient');
    // The 10th case starts from 0, not from −1.6755.
    expect(c.points[9]!.cusum).toBeCloseTo(-s, 12);
    expect(c.points[17]!.signal).toBe('proficient');
    expect(c.summary.signals).toEqual([
      { index: 9, kind: 'proficient' },
      { index: 18, kind: 'proficient' },
    ]);
    expect(c.summary).toMatchObject({ state: 'proficient', proficientAt: 9 });
  });

  it('calls an unacceptable signal after proficiency a relapse, and a new proficiency moves proficientAt', () => {
    // Proficient at 9; from 0 two failures reach h1 (exactly, within rounding): relapse at 11.
    const c = curve([...Array(9).fill(S), F, F]);
    expect(c.points[9]!.cusum).toBeCloseTo(1 - s, 12);
    expect(c.points[10]!.cusum).toBeCloseTo(1.6277, 4);
    expect(c.points[10]!.signal).toBe('unacceptable');
    expect(c.summary).toMatchObject({ cases: 11, state: 'relapse', proficientAt: 9, relapseAt: 11, unacceptableAt: null });

    // A success between the failures keeps it below h1: 2(1 − s) − s = 1.44 < 1.63, no relapse yet.
    expect(curve([...Array(9).fill(S), F, S, F]).summary.state).toBe('proficient');

    // Nine successes after the relapse: proficient again, since the 20th; the relapse stays on record.
    const again = curve([...Array(9).fill(S), F, F, ...Array(9).fill(S)]);
    expect(again.summary).toMatchObject({ cases: 20, state: 'proficient', proficientAt: 20, relapseAt: 11 });
  });

  it('tells an unacceptable rate before any proficiency apart from a relapse', () => {
    const c = curve([F, F, S]);
    expect(c.points[1]!.signal).toBe('unacceptable');
    expect(c.points[2]!.cusum).toBeCloseTo(-s, 12);
    expect(c.summary).toMatchObject({ state: 'unacceptable', unacceptableAt: 2, proficientAt: null, relapseAt: null });
    // A second unacceptable signal keeps the first as its start; proficiency then ends it.
    const later = curve([F, F, F, F, ...Array(9).fill(S)]);
    expect(later.summary.signals).toEqual([
      { index: 2, kind: 'unacceptable' },
      { index: 4, kind: 'unacceptable' },
      { index: 13, kind: 'proficient' },
    ]);
    expect(later.summary).toMatchObject({ state: 'proficient', unacceptableAt: 2, proficientAt: 13, relapseAt: null });
  });

  it('follows a programme’s own settings', () => {
    // p0 = 0.05, p1 = 0.15, α = 0.05, β = 0.20: s = 0.0919, h0 = 1.2879, h0/s = 14.01, so 15 successes.
    const settings: LearningCurveSettings = { p0: 0.05, p1: 0.15, alpha: 0.05, beta: 0.2, failureRule: 'globalBelow3' };
    expect(curve(Array(14).fill(S), settings).summary.state).toBe('learning');
    expect(curve(Array(15).fill(S), settings).summary).toMatchObject({ state: 'proficient', proficientAt: 15 });
    // h1 = 2.2917 and 1 − s = 0.9081: three failures (2.7244) are needed, two (1.8161) are not enough.
    expect(curve([F, F], settings).summary.state).toBe('learning');
    expect(curve([F, F, F], settings).summary).toMatchObject({ state: 'unacceptable', unacceptableAt: 3 });
  });

  it('asks three failures in a row from 0 when α is lowered to 0.05, still nine successes', () => {
    const settings: LearningCurveSettings = { ...DEFAULT_LEARNING_CURVE_SETTINGS, alpha: 0.05 };
    const l = cusumLimits(settings);
    expect(l.h1).toBeCloseTo(2.1411, 4); // ln 18 / (P + Q)
    expect(l.h0).toBeCloseTo(1.6677, 4); // ln 9.5 / (P + Q)
    expect(curve([F, F], settings).summary.state).toBe('learning');
    expect(curve([F, F, F], settings).summary.unacceptableAt).toBe(3);
    expect(curve(Array(8).fill(S), settings).summary.state).toBe('learning');
    expect(curve(Array(9).fill(S), settings).summary.proficientAt).toBe(9);
  });
});

describe('failures', () => {
  it('are a mean below 3: a double-reviewed 2 and 3 (2.5) fails, 3 and 3 passes, 2 and 4 passes', () => {
    const mean = (a: number, b: number) =>
      caseRatingsOfReviews([
        { globalRating: a, kpis: skills([a, a, a, a, a]) },
        { globalRating: b, kpis: skills([b, b, b, b, b]) },
      ]);
    expect(mean(2, 3).globalRating).toBe(2.5);
    expect(caseFailure(mean(2, 3), 'globalBelow3')).toBe(true);
    expect(caseFailure(mean(3, 3), 'globalBelow3')).toBe(false);
    expect(caseFailure(mean(2, 4), 'globalBelow3')).toBe(false);
    // Three reviews 2, 3, 4 make exactly 3: a pass.
    const three = caseRatingsOfReviews([2, 3, 4].map((g) => ({ globalRating: g, kpis: {} })));
    expect(caseFailure(three, 'globalBelow3')).toBe(false);
    // A mean that floating point makes 2.9999999999999996 is still 3.
    expect(caseFailure({ globalRating: 2 / 3 + 3 / 3 + 4 / 3, kpis: null }, 'globalBelow3')).toBe(false);
    expect(caseFailure({ globalRating: 2.99, kpis: null }, 'globalBelow3')).toBe(true);
  });

  it('average each item over the reviews that rated it', () => {
    const r = caseRatingsOfReviews([
      { globalRating: 3, kpis: { depthPerception: 2, autonomy: null } },
      { globalRating: null, kpis: { depthPerception: 3, autonomy: null, efficiency: 5 } },
    ]);
    expect(r.globalRating).toBe(3);
    expect(r.kpis).toEqual({ depthPerception: 2.5, bimanualDexterity: null, efficiency: 5, tissueHandling: null, autonomy: null });
  });

  it('under the any-skill rule: one skill below 3 fails the case, even with another missing; a pass needs all five', () => {
    const c = (kpis: (number | null)[], globalRating: number | null = 4) => ({ globalRating, kpis: skills(kpis) });
    expect(caseFailure(c([3, 3, 3, 3, 3]), 'anySkillBelow3')).toBe(false);
    expect(caseFailure(c([4, 4, 2.5, 4, 4]), 'anySkillBelow3')).toBe(true);
    expect(caseFailure(c([4, null, 2, 4, 4]), 'anySkillBelow3')).toBe(true);
    expect(caseFailure(c([4, null, 3, 4, 4]), 'anySkillBelow3')).toBeNull();
    expect(caseFailure({ globalRating: 4, kpis: null }, 'anySkillBelow3')).toBeNull();
    // The global rating does not count under this rule, nor the skills under the global one.
    expect(caseFailure(c([4, 4, 4, 4, 4], 2), 'anySkillBelow3')).toBe(false);
    expect(caseFailure(c([2, 2, 2, 2, 2], 4), 'globalBelow3')).toBe(false);
    expect(caseFailure(c([4, 4, 4, 4, 4], null), 'globalBelow3')).toBeNull();
  });

  it('change the chart with the rule', () => {
    const cases = weekly([4, 4]).map((c, i) => ({ ...c, kpis: skills(i === 0 ? [4, 4, 4, 4, 2] : [4, 4, 4, 4, 4]) }));
    const globalRule = learningCurve(cases, DEFAULT_LEARNING_CURVE_SETTINGS, PARIS);
    const skillRule = learningCurve(cases, { ...DEFAULT_LEARNING_CURVE_SETTINGS, failureRule: 'anySkillBelow3' }, PARIS);
    expect(globalRule.points.map((p) => p.failure)).toEqual([false, false]);
    expect(skillRule.points.map((p) => p.failure)).toEqual([true, false]);
    expect(skillRule.summary.failures).toBe(1);
  });

  it('cannot be judged without a rating: the case is on the curve, the chart passes it by', () => {
    const { s } = cusumLimits(DEFAULT_LEARNING_CURVE_SETTINGS);
    const c = curve([S, null, S]);
    expect(c.points.map((p) => p.index)).toEqual([1, 2, 3]);
    expect(c.points[1]).toMatchObject({
      failure: null,
      cusum: expect.closeTo(-s, 12),
      signal: null,
      globalRating: null,
      globalAverage: null,
    });
    expect(c.points[2]!.cusum).toBeCloseTo(-2 * s, 12);
    expect(c.summary).toMatchObject({ cases: 3, judged: 2, failures: 0 });
    // Nine successes around an unrated case still signal at the 9th judged one (the 10th case).
    const gap = curve([S, S, S, null, S, S, S, S, S, S]);
    expect(gap.summary).toMatchObject({ state: 'proficient', proficientAt: 10 });
  });
});

describe('order and moving averages', () => {
  it('order cases by the operation day, not by when they were sent; the same day by the sending, then the id', () => {
    const base = { globalRating: 4, kpis: null };
    const cases: LearningCurveCase[] = [
      { ...base, videoId: 'c', operatedOn: '2026-03-02', sentAt: '2026-03-03T08:00:00Z' },
      { ...base, videoId: 'a', operatedOn: '2026-03-09', sentAt: '2026-03-01T08:00:00Z' },
      { ...base, videoId: 'b', operatedOn: '2026-03-01', sentAt: '2026-03-20T08:00:00Z' },
      { ...base, videoId: 'e', operatedOn: '2026-03-02', sentAt: '2026-03-02T18:00:00Z' },
      { ...base, videoId: 'd', operatedOn: '2026-03-02', sentAt: '2026-03-02T18:00:00Z' },
    ];
    const c = learningCurve(cases, DEFAULT_LEARNING_CURVE_SETTINGS, PARIS);
    expect(c.points.map((p) => p.videoId)).toEqual(['b', 'd', 'e', 'c', 'a']);
    expect(c.points.map((p) => p.index)).toEqual([1, 2, 3, 4, 5]);
    // The order does not depend on the order given.
    expect(learningCurve([...cases].reverse(), DEFAULT_LEARNING_CURVE_SETTINGS, PARIS).points).toEqual(c.points);
  });

  it('use the day the case was sent, in the installation’s zone, when the operation day is missing', () => {
    const base = { globalRating: 4, kpis: null };
    const cases: LearningCurveCase[] = [
      { ...base, videoId: 'operated', operatedOn: '2026-03-04', sentAt: '2026-03-05T08:00:00Z' },
      // 23:30 UTC on 3 March is 00:30 on 4 March in Paris: the same day as "operated", sent earlier.
      { ...base, videoId: 'undated', operatedOn: null, sentAt: '2026-03-03T23:30:00Z' },
    ];
    const paris = learningCurve(cases, DEFAULT_LEARNING_CURVE_SETTINGS, PARIS);
    expect(paris.points.map((p) => [p.videoId, p.date, p.dateSource])).toEqual([
      ['undated', '2026-03-04', 'sent'],
      ['operated', '2026-03-04', 'operation'],
    ]);
    const newYork = learningCurve(cases, DEFAULT_LEARNING_CURVE_SETTINGS, { timeZone: 'America/New_York' });
    expect(newYork.points[0]).toMatchObject({ videoId: 'undated', date: '2026-03-03' });
  });

  it('average the latest five values available, this case’s included, fewer at the start; none at a case without one', () => {
    const cases = weekly([1, 2, 3, 4, 5, null, 1, 3]).map((c, i) => ({
      ...c,
      kpis: i === 3 ? skills([4, 4, 4, 4, null]) : c.kpis,
    }));
    const c = learningCurve(cases, DEFAULT_LEARNING_CURVE_SETTINGS, PARIS);
    expect(c.points.map((p) => p.globalAverage)).toEqual([1, 1.5, 2, 2.5, 3, null, 3, 3.2]);
    // (1+2+3+4+5)/5 = 3; 7th: (2+3+4+5+1)/5 = 3 (the unrated 6th is skipped, not a window slot); 8th: (3+4+5+1+3)/5 = 3.2.
    expect(c.points.map((p) => p.goalsTotal)).toEqual([5, 10, 15, null, 25, null, 5, 15]);
    // Totals 5, 10, 15, 25, 5, 15: 5; 7.5; 10; —; 13.75; —; 12; 14.
    expect(c.points.map((p) => p.goalsAverage)).toEqual([5, 7.5, 10, null, 13.75, null, 12, 14]);
  });

  it('keep a fractional GOALS total of means', () => {
    const c = learningCurve(
      [{ videoId: 'x', operatedOn: '2026-01-01', sentAt: '2026-01-02T00:00:00Z', globalRating: 3.5, kpis: skills([3.5, 4, 3, 2.5, 4]) }],
      DEFAULT_LEARNING_CURVE_SETTINGS,
      PARIS,
    );
    expect(c.points[0]).toMatchObject({ goalsTotal: 17, globalRating: 3.5, failure: false });
  });

  it('give an empty curve for no case', () => {
    expect(learningCurve([], DEFAULT_LEARNING_CURVE_SETTINGS, PARIS)).toMatchObject({
      points: [],
      summary: {
        cases: 0,
        judged: 0,
        failures: 0,
        state: 'learning',
        proficientAt: null,
        relapseAt: null,
        unacceptableAt: null,
        signals: [],
      },
    });
  });
});

describe('the settings schema', () => {
  const codes = (input: unknown) => {
    const r = learningCurveSettingsSchema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };
  const ok = DEFAULT_LEARNING_CURVE_SETTINGS;

  it('accepts the defaults and a programme’s own values at the bounds', () => {
    expect(codes(ok)).toEqual([]);
    expect(codes({ p0: 0.01, p1: 0.99, alpha: 0.01, beta: 0.499, failureRule: 'anySkillBelow3' })).toEqual([]);
  });

  it('refuses rates out of 1–99 %, p1 not above p0, risks out of [1 %, 50 %), an unknown rule or field', () => {
    expect(codes({ ...ok, p0: 0 })).toEqual(['p0:LEARNING_CURVE_RATE_RANGE']);
    expect(codes({ ...ok, p1: 1 })).toEqual(['p1:LEARNING_CURVE_RATE_RANGE']);
    expect(codes({ ...ok, p0: 0.3, p1: 0.3 })).toEqual(['p1:LEARNING_CURVE_RATE_ORDER']);
    expect(codes({ ...ok, p0: 0.4, p1: 0.2 })).toEqual(['p1:LEARNING_CURVE_RATE_ORDER']);
    expect(codes({ ...ok, alpha: 0.5 })).toEqual(['alpha:LEARNING_CURVE_RISK_RANGE']);
    expect(codes({ ...ok, beta: 0 })).toEqual(['beta:LEARNING_CURVE_RISK_RANGE']);
    expect(codes({ ...ok, alpha: Number.NaN })).toEqual(['alpha:INVALID_VALUE']);
    expect(codes({ ...ok, beta: Number.POSITIVE_INFINITY })).toHaveLength(1);
    expect(codes({ ...ok, p0: '0.1' })).toEqual(['p0:INVALID_VALUE']);
    expect(codes({ ...ok, failureRule: 'globalBelow2' })).toEqual(['failureRule:INVALID_VALUE']);
    expect(codes({ ...ok, extra: 1 })).toHaveLength(1);
    expect(codes({ p0: 0.1, p1: 0.3, alpha: 0.1, failureRule: 'globalBelow3' })).toEqual(['beta:INVALID_VALUE']);
  });

  it('speaks through the error catalogue', () => {
    for (const code of ['LEARNING_CURVE_RATE_RANGE', 'LEARNING_CURVE_RATE_ORDER', 'LEARNING_CURVE_RISK_RANGE'] as const)
      expect(ERRORS[code].status).toBe(400);
  });
});

// ---- The worked example of docs/learning-curves.md: the table there is what this computes.

const EXAMPLE: [operatedOn: string | null, sentAt: string, global: number | null, skills: (number | null)[]][] = [
  ['2026-01-07', '2026-01-08T09:00:00Z', 2, [2, 3, 2, 3, 2]],
  ['2026-01-14', '2026-01-15T09:00:00Z', 2.5, [2.5, 3, 2.5, 3, 3]],
  ['2026-01-21', '2026-01-29T09:00:00Z', 3, [3, 3, 3, 3, 3]],
  ['2026-01-28', '2026-01-28T20:00:00Z', 4, [3, 4, 3, 4, 3]],
  ['2026-02-04', '2026-02-05T09:00:00Z', null, [3, 3, 3, 4, 3]],
  ['2026-02-11', '2026-02-12T09:00:00Z', 3, [3, 3, 3, 3, 4]],
  ['2026-02-18', '2026-02-19T09:00:00Z', 2, [2, 3, 2, 3, 3]],
  ['2026-02-25', '2026-02-26T09:00:00Z', 3, [3, 3, 3, 3, 3]],
  [null, '2026-03-03T23:30:00Z', 4, [4, 3, 4, 4, 3]],
  ['2026-03-11', '2026-03-12T09:00:00Z', 4, [4, 4, 3, 4, 4]],
  ['2026-03-18', '2026-03-19T09:00:00Z', 3.5, [3.5, 4, 3.5, 3.5, 4]],
  ['2026-03-25', '2026-03-26T09:00:00Z', 4, [4, 4, 4, 4, null]],
  ['2026-04-01', '2026-04-02T09:00:00Z', 4, [4, 4, 4, 4, 4]],
  ['2026-04-08', '2026-04-09T09:00:00Z', 5, [4, 5, 4, 5, 4]],
  ['2026-04-15', '2026-04-15T14:00:00Z', 4, [4, 4, 4, 4, 4]],
  ['2026-04-15', '2026-04-15T18:00:00Z', 4, [4, 4, 4, 5, 4]],
  ['2026-04-22', '2026-04-23T09:00:00Z', 4, [4, 4, 5, 4, 4]],
  ['2026-04-29', '2026-04-30T09:00:00Z', 5, [5, 4, 5, 5, 4]],
  ['2026-05-06', '2026-05-07T09:00:00Z', 2, [3, 2, 3, 3, 2]],
  ['2026-05-13', '2026-05-14T09:00:00Z', 2, [2, 3, 3, 2, 3]],
];

describe('the worked example of docs/learning-curves.md', () => {
  const cases: LearningCurveCase[] = EXAMPLE.map(([operatedOn, sentAt, globalRating, s], i) => ({
    videoId: `case-${String(i + 1).padStart(2, '0')}`,
    operatedOn,
    sentAt,
    globalRating,
    kpis: skills(s),
  }));
  // Given in the order they were sent (case 4 before case 3), as the database may return them.
  const sent = [...cases].sort((a, b) => Date.parse(a.sentAt) - Date.parse(b.sentAt));
  const result = learningCurve(sent, DEFAULT_LEARNING_CURVE_SETTINGS, PARIS);

  it('is ordered by operation day, whatever the order of sending', () => {
    expect(sent.slice(2, 4).map((c) => c.videoId)).toEqual(['case-04', 'case-03']);
    expect(result.points.map((p) => p.videoId)).toEqual(cases.map((c) => c.videoId));
  });

  it('has the table of the documentation, number for number', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/learning-curves.md'), 'utf8');
    const table = doc.split('<!-- worked-example:start -->')[1]!.split('<!-- worked-example:end -->')[0]!;
    const rows = table
      .split('\n')
      .filter((line) => /^\|\s*\d+\s*\|/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const f = (x: number | null, digits: number) => (x === null ? '—' : x.toFixed(digits).replace('-', '−'));
    const expected = result.points.map((p) => [
      String(p.index),
      p.dateSource === 'sent' ? `${p.date} (sent)` : p.date,
      f(p.globalRating, 1),
      f(p.globalAverage, 2),
      f(p.goalsTotal, 1),
      f(p.goalsAverage, 2),
      p.failure === null ? '—' : p.failure ? 'yes' : 'no',
      f(p.cusum, 4),
      p.signal ?? '',
    ]);
    expect(rows).toEqual(expected);
  });

  it('is what the answer schema of the routes to come accepts', () => {
    expect(learningCurveSchema.parse(result)).toEqual(result);
    expect(learningCurveSchema.safeParse({ ...result, summary: { ...result.summary, state: 'competent' } }).success).toBe(false);
  });

  it('ends in a relapse, with the numbers of the summary in the documentation', () => {
    expect(result.summary).toEqual({
      cases: 20,
      judged: 19,
      failures: 5,
      state: 'relapse',
      proficientAt: 18,
      relapseAt: 20,
      unacceptableAt: 2,
      signals: [
        { index: 2, kind: 'unacceptable' },
        { index: 18, kind: 'proficient' },
        { index: 20, kind: 'unacceptable' },
      ],
    });
  });
});
