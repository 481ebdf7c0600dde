import { z } from 'zod';
import { KPIS, type Kpi } from './analysis.ts';
import { wallTime } from './time-zone.ts';

/**
 * A learner's learning curve for one procedure (docs/learning-curves.md): the global rating and
 * the GOALS total case by case with their moving averages, and a CUSUM chart of failures in the
 * sequential probability ratio test form of Bolsin & Colson (2000) and Rogers et al. (2004),
 * with its signals and the learner's state. Pure arithmetic on cases already read: the same
 * numbers on the server, in the web and in tests.
 */

// ---- Settings (a programme may set its own)

/** What makes a case a failure: a global rating below 3, or any of the five GOALS skills below 3. */
export const FAILURE_RULES = ['globalBelow3', 'anySkillBelow3'] as const;
export type FailureRule = (typeof FAILURE_RULES)[number];

/** Level 3 is "competent" (RATING_LABELS of analysis.ts): a rating, or a mean of ratings, below it is a failure. */
export const FAILURE_THRESHOLD = 3;

/** A failure rate is a proportion between 1 % and 99 %; α and β at least 1 % and below 50 % (h0, h1 > 0). */
export const LEARNING_CURVE_BOUNDS = {
  rate: { min: 0.01, max: 0.99 },
  risk: { min: 0.01, below: 0.5 },
} as const;

export interface LearningCurveSettings {
  /** Acceptable failure rate: a learner failing this often is proficient. */
  p0: number;
  /** Unacceptable failure rate: a learner failing this often needs attention. */
  p1: number;
  /** Risk of calling a learner unacceptable whose true rate is p0. */
  alpha: number;
  /** Risk of calling a learner proficient whose true rate is p1. */
  beta: number;
  failureRule: FailureRule;
}

export const DEFAULT_LEARNING_CURVE_SETTINGS: LearningCurveSettings = {
  p0: 0.1,
  p1: 0.3,
  alpha: 0.1,
  beta: 0.1,
  failureRule: 'globalBelow3',
};

const rate = z
  .number({ error: 'INVALID_VALUE' })
  .min(LEARNING_CURVE_BOUNDS.rate.min, { error: 'LEARNING_CURVE_RATE_RANGE' })
  .max(LEARNING_CURVE_BOUNDS.rate.max, { error: 'LEARNING_CURVE_RATE_RANGE' });
const risk = z
  .number({ error: 'INVALID_VALUE' })
  .min(LEARNING_CURVE_BOUNDS.risk.min, { error: 'LEARNING_CURVE_RISK_RANGE' })
  .lt(LEARNING_CURVE_BOUNDS.risk.below, { error: 'LEARNING_CURVE_RISK_RANGE' });

/** A programme's settings: 0.01 ≤ p0 < p1 ≤ 0.99, 0.01 ≤ α, β < 0.5, one of the failure rules. */
export const learningCurveSettingsSchema = z
  .object({
    p0: rate,
    p1: rate,
    alpha: risk,
    beta: risk,
    failureRule: z.enum(FAILURE_RULES, { error: 'INVALID_VALUE' }),
  })
  .strict()
  .refine((s) => s.p0 < s.p1, { path: ['p1'], error: 'LEARNING_CURVE_RATE_ORDER' });

// The schema and the settings type are one shape: tsc fails when they part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameSettings: Same<z.infer<typeof learningCurveSettingsSchema>, LearningCurveSettings> = true;
void sameSettings;

// ---- The limits of the chart

export interface CusumLimits {
  /** ln(p1 / p0). */
  P: number;
  /** ln((1 − p0) / (1 − p1)). */
  Q: number;
  /** Q / (P + Q): taken off for a success; 1 − s is added for a failure. */
  s: number;
  /** ln((1 − α) / β) / (P + Q): the chart signals proficiency at −h0. */
  h0: number;
  /** ln((1 − β) / α) / (P + Q): the chart signals an unacceptable rate at +h1. */
  h1: number;
}

export function cusumLimits(settings: Pick<LearningCurveSettings, 'p0' | 'p1' | 'alpha' | 'beta'>): CusumLimits {
  const { p0, p1, alpha, beta } = settings;
  const P = Math.log(p1 / p0);
  const Q = Math.log((1 - p0) / (1 - p1));
  return {
    P,
    Q,
    s: Q / (P + Q),
    h0: Math.log((1 - alpha) / beta) / (P + Q),
    h1: Math.log((1 - beta) / alpha) / (P + Q),
  };
}

/**
 * A limit counts as reached within this margin: with the defaults, two failures from 0 make
 * 2(1 − s) = 2P/(P + Q), exactly h1 = ln 9/(P + Q), yet one ulp short in floating point.
 */
export const CUSUM_REACH_TOLERANCE = 1e-9;

// ---- The cases

/** One analysed case of the learner for the procedure; a case reviewed several times gives the means of its reviews (`caseRatingsOfReviews`). */
export interface LearningCurveCase {
  videoId: string;
  /** Day of the operation (YYYY-MM-DD), null when the learner did not give it. */
  operatedOn: string | null;
  /** When the case was sent for review (ISO 8601 instant): the day stands in for a missing operation day, and the instant orders cases of one day. */
  sentAt: string;
  /** Global rating, or the mean of the reviews' (fractional); null when unrated. */
  globalRating: number | null;
  /** The five GOALS skills, each a rating or a mean; null or absent when unrated. */
  kpis: Readonly<Partial<Record<Kpi, number | null>>> | null;
}

export interface CaseReviewRatings {
  globalRating: number | null;
  kpis: Readonly<Partial<Record<Kpi, number | null>>>;
}

const meanOf = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A case's ratings from its submitted reviews: each item the mean of the reviews that rated it (as the statistics do), null when none did. */
export function caseRatingsOfReviews(reviews: readonly CaseReviewRatings[]): Pick<LearningCurveCase, 'globalRating' | 'kpis'> {
  const present = (xs: (number | null | undefined)[]) => xs.filter((x): x is number => typeof x === 'number');
  return {
    globalRating: meanOf(present(reviews.map((r) => r.globalRating))),
    kpis: Object.fromEntries(KPIS.map((k) => [k, meanOf(present(reviews.map((r) => r.kpis[k])))])) as Record<Kpi, number | null>,
  };
}

// ---- The curve

export const CUSUM_SIGNALS = ['proficient', 'unacceptable'] as const;
export type CusumSignal = (typeof CUSUM_SIGNALS)[number];

export const LEARNING_CURVE_STATES = ['learning', 'proficient', 'relapse', 'unacceptable'] as const;
export type LearningCurveState = (typeof LEARNING_CURVE_STATES)[number];

/** Cases in the moving averages. */
export const MOVING_AVERAGE_CASES = 5;

export interface LearningCurvePoint {
  /** 1-based, in operation order. */
  index: number;
  videoId: string;
  /** The day the case is ordered by: the operation's, or the day it was sent in the installation's zone. */
  date: string;
  dateSource: 'operation' | 'sent';
  globalRating: number | null;
  /** Sum of the five skills (5–25), null when one is missing. */
  goalsTotal: number | null;
  /** Mean of this case's global rating and the up to 4 latest earlier ones available; null when this case has none. */
  globalAverage: number | null;
  /** The same for the GOALS total. */
  goalsAverage: number | null;
  /** Null when the rule cannot judge the case: the CUSUM then passes it by. */
  failure: boolean | null;
  /** The chart after the case: on a signal the value that reached the limit (the next case starts from 0). */
  cusum: number;
  signal: CusumSignal | null;
}

export interface LearningCurveSummary {
  /** Analysed cases on the curve. */
  cases: number;
  /** Cases the failure rule could judge, and of those the failures. */
  judged: number;
  failures: number;
  state: LearningCurveState;
  /** The case where the latest proficiency began (repeated proficiency signals do not move it). */
  proficientAt: number | null;
  /** The case where the latest relapse (an unacceptable signal after proficiency) began. */
  relapseAt: number | null;
  /** The case where an unacceptable rate was first signalled before any proficiency. */
  unacceptableAt: number | null;
  signals: { index: number; kind: CusumSignal }[];
}

export interface LearningCurve {
  limits: CusumLimits;
  points: LearningCurvePoint[];
  summary: LearningCurveSummary;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');
/** Code-unit order: the same on every runtime and locale (ids and YYYY-MM-DD days). */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function goalsTotalOf(kpis: LearningCurveCase['kpis']): number | null {
  let total = 0;
  for (const k of KPIS) {
    const v = kpis?.[k];
    if (typeof v !== 'number') return null;
    total += v;
  }
  return total;
}

/** Below 3 within rounding: a mean of exactly 3 computed as 2.9999999999999996 passes. */
const below3 = (x: number) => x < FAILURE_THRESHOLD - CUSUM_REACH_TOLERANCE;

/** Whether the case is a failure under the rule; null when it cannot be told. */
export function caseFailure(c: Pick<LearningCurveCase, 'globalRating' | 'kpis'>, rule: FailureRule): boolean | null {
  switch (rule) {
    case 'globalBelow3':
      return c.globalRating === null ? null : below3(c.globalRating);
    case 'anySkillBelow3': {
      const skills = KPIS.map((k) => c.kpis?.[k] ?? null);
      // One skill below 3 fails the case whatever the missing ones; a pass needs all five.
      if (skills.some((v) => v !== null && below3(v))) return true;
      return skills.every((v) => v !== null) ? false : null;
    }
  }
}

/** Adds the case's value to the history and gives the mean of the latest MOVING_AVERAGE_CASES values. */
function movingAverage(history: number[], value: number | null): number | null {
  if (value === null) return null;
  history.push(value);
  return meanOf(history.slice(-MOVING_AVERAGE_CASES));
}

/**
 * The curve of one learner for one procedure. Cases are ordered by the day of the operation (the
 * day the case was sent, in `timeZone`, when the operation day is missing), then by the instant
 * they were sent, then by video id.
 */
export function learningCurve(
  cases: readonly LearningCurveCase[],
  settings: LearningCurveSettings,
  options: { timeZone: string },
): LearningCurve {
  const limits = cusumLimits(settings);
  const dated = cases.map((c) => {
    if (c.operatedOn !== null) return { c, date: c.operatedOn, dateSource: 'operation' as const, sent: Date.parse(c.sentAt) };
    const t = wallTime(new Date(c.sentAt), options.timeZone);
    return { c, date: `${t.year}-${twoDigits(t.month)}-${twoDigits(t.day)}`, dateSource: 'sent' as const, sent: Date.parse(c.sentAt) };
  });
  dated.sort((a, b) => cmp(a.date, b.date) || a.sent - b.sent || cmp(a.c.videoId, b.c.videoId));

  const globals: number[] = [];
  const totals: number[] = [];
  const signals: LearningCurveSummary['signals'] = [];
  let cusum = 0;
  let judged = 0;
  let failures = 0;
  let state: LearningCurveState = 'learning';
  let proficientAt: number | null = null;
  let relapseAt: number | null = null;
  let unacceptableAt: number | null = null;

  const points = dated.map(({ c, date, dateSource }, i): LearningCurvePoint => {
    const index = i + 1;
    const goalsTotal = goalsTotalOf(c.kpis);
    const failure = caseFailure(c, settings.failureRule);
    let signal: CusumSignal | null = null;
    let value = cusum;
    if (failure !== null) {
      judged += 1;
      if (failure) failures += 1;
      value = cusum + (failure ? 1 - limits.s : -limits.s);
      if (value <= -limits.h0 + CUSUM_REACH_TOLERANCE) signal = 'proficient';
      else if (value >= limits.h1 - CUSUM_REACH_TOLERANCE) signal = 'unacceptable';
      cusum = signal === null ? value : 0;
    }
    if (signal === 'proficient') {
      if (state !== 'proficient') proficientAt = index;
      state = 'proficient';
    } else if (signal === 'unacceptable') {
      if (proficientAt === null) {
        unacceptableAt ??= index;
        state = 'unacceptable';
      } else {
        if (state !== 'relapse') relapseAt = index;
        state = 'relapse';
      }
    }
    if (signal !== null) signals.push({ index, kind: signal });
    return {
      index,
      videoId: c.videoId,
      date,
      dateSource,
      globalRating: c.globalRating,
      goalsTotal,
      globalAverage: movingAverage(globals, c.globalRating),
      goalsAverage: movingAverage(totals, goalsTotal),
      failure,
      cusum: value,
      signal,
    };
  });

  return {
    limits,
    points,
    summary: { cases: points.length, judged, failures, state, proficientAt, relapseAt, unacceptableAt, signals },
  };
}

// ---- The answer of the programmes' routes (modules/programmes), one shape with `LearningCurve`

const nullableNumber = z.number().nullable();
const signal = z.enum(CUSUM_SIGNALS);

export const learningCurveSchema = z.object({
  limits: z.object({ P: z.number(), Q: z.number(), s: z.number(), h0: z.number(), h1: z.number() }),
  points: z.array(
    z.object({
      index: z.number(),
      videoId: z.string(),
      date: z.string(),
      dateSource: z.enum(['operation', 'sent']),
      globalRating: nullableNumber,
      goalsTotal: nullableNumber,
      globalAverage: nullableNumber,
      goalsAverage: nullableNumber,
      failure: z.boolean().nullable(),
      cusum: z.number(),
      signal: signal.nullable(),
    }),
  ),
  summary: z.object({
    cases: z.number(),
    judged: z.number(),
    failures: z.number(),
    state: z.enum(LEARNING_CURVE_STATES),
    proficientAt: nullableNumber,
    relapseAt: nullableNumber,
    unacceptableAt: nullableNumber,
    signals: z.array(z.object({ index: z.number(), kind: signal })),
  }),
});

const sameCurve: Same<z.infer<typeof learningCurveSchema>, LearningCurve> = true;
void sameCurve;
