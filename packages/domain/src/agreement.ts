import type { Kpi } from './analysis.ts';

/**
 * Agreement between experts who reviewed the same case (calibration, docs/agreement.md): the
 * quadratic-weighted Cohen's kappa, the ICC(A,1) of McGraw & Wong (Shrout & Fleiss's ICC(2,1)),
 * each expert's mean difference against the others, and a Bland–Altman analysis. Pure arithmetic
 * on ratings already read: no I/O, no dependency, the same numbers on the server and in tests.
 */

// ---- What is rated

/** The five KPIs, the global rating (the "overall" row) and the step ratings pooled. */
export const AGREEMENT_ITEMS = [
  'depthPerception',
  'bimanualDexterity',
  'efficiency',
  'tissueHandling',
  'autonomy',
  'global',
  'steps',
] as const satisfies readonly (Kpi | 'global' | 'steps')[];
export type AgreementItem = (typeof AGREEMENT_ITEMS)[number];
export type CaseItem = Exclude<AgreementItem, 'steps'>;

/** The rating scale (RATING_LEVELS of analysis.ts): integer levels from min to max. */
export interface RatingScale {
  min: number;
  max: number;
}
export const AGREEMENT_SCALE: RatingScale = { min: 1, max: 5 };

/** Below this many pairs the intervals are wide (and the ICC's F approximation rough): the page says so. */
export const AGREEMENT_FEW_PAIRS = 30;

/**
 * The bootstrap that gives the weighted kappa its 95 % interval (docs/agreement.md, "Weighted
 * kappa"): the cases resampled with replacement, from a fixed seed, so that the same reviews give
 * the same interval on every request.
 */
export const KAPPA_BOOTSTRAP = {
  resamples: 2000,
  seed: 20_261_202,
  /** Fewer cases resample into too few distinct tables to bound anything (2 cases: 3 tables). */
  minCases: 3,
  /** A resample where every rating is one level has no kappa (0/0): under half defined, no interval. */
  minDefined: 0.5,
  /**
   * From this many cases the large-sample interval holds (its coverage is near 95 % from about 30
   * cases on) and the bootstrap (2000 × every pair) grows costly: κ ± 1.96 SE, the SE by the
   * jackknife over the cases.
   */
  largeSample: 500,
} as const;

/** The normal quantile of a two-sided 95 % interval. */
export const Z_975 = 1.959963984540054;

// ---- The answer (the route's `agreementReportSchema` in calibration.ts describes the same shape)

/**
 * Why a number is missing: too few pairs, every rating the same (kappa is 0/0), a perfect
 * agreement (no interval), or an interval that cannot be drawn (kappa: fewer than 3 cases, or a
 * bootstrap that says nothing; ICC: Satterthwaite's degrees of freedom below 1).
 */
export const AGREEMENT_GAPS = ['tooFewPairs', 'noVariance', 'perfectAgreement', 'noInterval'] as const;
export type AgreementGap = (typeof AGREEMENT_GAPS)[number];

export interface Interval {
  lower: number;
  upper: number;
}

/** A coefficient with its 95 % interval; `gap` says why the value or the interval is null. */
export interface AgreementEstimate {
  value: number | null;
  ci: Interval | null;
  gap: AgreementGap | null;
}

/** Cases that share one (mean of the two ratings, difference): ratings are levels, so points pile up. */
export interface BlandAltmanPoint {
  mean: number;
  difference: number;
  cases: number;
}

export interface BlandAltman {
  pairs: number;
  /** Mean difference (first − second, or the expert − the other in an expert's own view). */
  bias: number | null;
  biasCi: Interval | null;
  /** Standard deviation of the differences (n − 1). */
  sd: number | null;
  /** Limits of agreement, bias ± 1.96 SD, each with its 95 % interval (Bland & Altman 1999). */
  lower: number | null;
  lowerCi: Interval | null;
  upper: number | null;
  upperCi: Interval | null;
  points: BlandAltmanPoint[];
}

/** An expert's ratings minus the mean of the other reviews of the same case, over their double-reviewed cases. */
export interface ExpertDifference {
  expertId: string;
  name: string;
  cases: number;
  mean: number | null;
  ci: Interval | null;
}

export interface ItemAgreement {
  item: AgreementItem;
  /** Pairs of ratings the kappa, the ICC and the Bland–Altman analysis use. */
  pairs: number;
  kappa: AgreementEstimate;
  icc: AgreementEstimate;
  blandAltman: BlandAltman;
  /** Highest mean difference first (who rates high), experts without a difference last. */
  experts: ExpertDifference[];
}

export interface AgreementReport {
  /** Days of the installation's clock, both included. */
  from: string;
  to: string;
  surgeryId: string | null;
  /** Set in an expert's own view: pairs are (this expert, the other review). */
  expertId: string | null;
  scale: RatingScale;
  /** Cases with at least two reviews by different experts in the period. */
  cases: number;
  /** Of which with a third review. */
  tripleReviewed: number;
  items: ItemAgreement[];
}

// ---- What the report is computed from

export interface CaseReview {
  expertId: string;
  /** The five KPIs and the global rating; null or absent when left unrated. */
  ratings: Partial<Record<CaseItem, number | null>>;
  /** Step ratings by step of the case (the same steps for every review of the case). */
  stepRatings?: Readonly<Record<string, number | null>>;
}

export interface ReviewedCase {
  caseId: string;
  /** In the order they were submitted: the first two make the (first, second) pair. */
  reviews: readonly CaseReview[];
}

// ---- Special functions (enough for F and t quantiles; Numerical Recipes, 3rd ed., §6.1 and §6.4)

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7): about 15 significant digits. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0]!;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 1000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(x, a, b)) / a : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** The y in (0, 1) where I_y(a, b) = p (increasing in y): bisection, exact to the last bits. */
function inverseBeta(p: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    // Stop once the halves no longer differ in double precision.
    if (mid <= lo || mid >= hi) break;
    if (incompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The p-quantile of Fisher's F with (d1, d2) degrees of freedom (real, > 0). */
export function fQuantile(p: number, d1: number, d2: number): number {
  const y = inverseBeta(p, d1 / 2, d2 / 2);
  return (d2 * y) / (d1 * (1 - y));
}

/** Φ(x), the standard normal distribution function (erfc by Chebyshev fitting, Numerical Recipes §6.2: relative error < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The p-quantile (p > 0.5) of Student's t with df degrees of freedom. */
export function tQuantile(p: number, df: number): number {
  // P(|T| > t) = I_{df/(df+t²)}(df/2, 1/2): solve for y = df/(df+t²).
  const y = inverseBeta(2 * (1 - p), df / 2, 0.5);
  return Math.sqrt((df * (1 - y)) / y);
}

// ---- Small helpers

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
function sampleSd(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** A seeded generator of numbers in [0, 1) (mulberry32): the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The p-quantile of sorted values, interpolated between order statistics (R's type 7). */
function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
const missing = (gap: AgreementGap): AgreementEstimate => ({ value: null, ci: null, gap });

// ---- Weighted kappa (Cohen 1968), its large-sample standard error (Fleiss, Cohen & Everitt 1969), its bootstrap

/** Quadratic agreement weights w_ij = 1 − (i − j)² / (k − 1)² (Fleiss & Cohen 1973). */
export function quadraticWeights(k: number): number[][] {
  return Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => 1 - (i - j) ** 2 / (k - 1) ** 2));
}

export interface KappaFromTable {
  kappa: number;
  /** Observed and chance-expected weighted agreement. */
  observed: number;
  expected: number;
  /** Large-sample standard error, not assuming κ = 0 (FCE 1969, eq. 13 with weights). */
  se: number;
  n: number;
}

/**
 * Weighted kappa of a k × k table of counts (rows: rater A, columns: rater B) with agreement
 * weights (1 on the diagonal). Null when the chance-expected agreement is 1 (0/0).
 */
export function kappaFromTable(table: readonly (readonly number[])[], weights: readonly (readonly number[])[]): KappaFromTable | null {
  const k = table.length;
  const n = table.flat().reduce((s, x) => s + x, 0);
  if (n === 0) return null;
  const p = table.map((row) => row.map((x) => x / n));
  const rows = p.map((row) => row.reduce((s, x) => s + x, 0));
  const cols = Array.from({ length: k }, (_, j) => p.reduce((s, row) => s + row[j]!, 0));
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      observed += weights[i]![j]! * p[i]![j]!;
      expected += weights[i]![j]! * rows[i]! * cols[j]!;
    }
  if (expected >= 1 - 1e-12) return null;
  const kappa = (observed - expected) / (1 - expected);
  // w̄_i. = Σ_j p_.j w_ij and w̄_.j = Σ_i p_i. w_ij.
  const wRow = Array.from({ length: k }, (_, i) => cols.reduce((s, c, j) => s + c * weights[i]![j]!, 0));
  const wCol = Array.from({ length: k }, (_, j) => rows.reduce((s, r, i) => s + r * weights[i]![j]!, 0));
  let sum = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) sum += p[i]![j]! * (weights[i]![j]! - (wRow[i]! + wCol[j]!) * (1 - kappa)) ** 2;
  const variance = (sum - (kappa - expected * (1 - kappa)) ** 2) / (n * (1 - expected) ** 2);
  return { kappa, observed, expected, se: Math.sqrt(Math.max(0, variance)), n };
}

/**
 * Weighted kappa of a k × k table of counts held flat (cell i·k + j), NaN when undefined (0/0):
 * the bootstrap's inner loop, without allocation.
 */
function kappaOfCounts(counts: Float64Array, weights: Float64Array, k: number, rows: Float64Array, cols: Float64Array): number {
  rows.fill(0);
  cols.fill(0);
  let n = 0;
  let observed = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const x = counts[i * k + j]!;
      rows[i]! += x;
      cols[j]! += x;
      n += x;
      observed += weights[i * k + j]! * x;
    }
  let expected = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) expected += weights[i * k + j]! * rows[i]! * cols[j]!;
  observed /= n;
  expected /= n * n;
  return expected >= 1 - 1e-12 ? Number.NaN : (observed - expected) / (1 - expected);
}

/**
 * The tail of the expanded percentile interval for m cases (Hesterberg 2015, §4.4): the plain
 * percentile interval is too narrow in small samples (it is about x̄ ± z s/√n where Student asks
 * for x̄ ± t s/√(n − 1)), so its tails move to α' = Φ(−√(m / (m − 1)) · t_0.975(m − 1)): 0.6 % at
 * 8 cases, 1.9 % at 30, → 2.5 % as m grows.
 */
export function expandedTail(m: number): number {
  return normalCdf(-Math.sqrt(m / (m - 1)) * tQuantile(0.975, m - 1));
}

/**
 * The 95 % bootstrap interval of the weighted kappa: the cases (each with all its pairs) drawn
 * with replacement `resamples` times, the kappa of each resample, and their α' and 1 − α'
 * percentiles (the expanded percentile interval, `expandedTail`). Null when it bounds nothing
 * (see KAPPA_BOOTSTRAP).
 */
export function kappaBootstrapInterval(
  cases: readonly (readonly number[])[],
  weights: readonly (readonly number[])[],
  options: { resamples?: number; seed?: number } = {},
): Interval | null {
  const resamples = options.resamples ?? KAPPA_BOOTSTRAP.resamples;
  const random = seededRandom(options.seed ?? KAPPA_BOOTSTRAP.seed);
  const k = weights.length;
  const flatWeights = Float64Array.from(weights.flat());
  const counts = new Float64Array(k * k);
  const rows = new Float64Array(k);
  const cols = new Float64Array(k);
  const m = cases.length;
  // The cells of case c are cells[start[c]] to cells[start[c + 1] − 1].
  const start = new Int32Array(m + 1);
  cases.forEach((c, i) => (start[i + 1] = start[i]! + c.length));
  const cells = Int32Array.from(cases.flat());
  const kappas = new Float64Array(resamples);
  let defined = 0;
  for (let b = 0; b < resamples; b++) {
    counts.fill(0);
    for (let draw = 0; draw < m; draw++) {
      const c = Math.floor(random() * m);
      for (let i = start[c]!; i < start[c + 1]!; i++) counts[cells[i]!]! += 1;
    }
    const kappa = kappaOfCounts(counts, flatWeights, k, rows, cols);
    if (!Number.isNaN(kappa)) kappas[defined++] = kappa;
  }
  if (defined < resamples * KAPPA_BOOTSTRAP.minDefined) return null;
  const sorted = kappas.subarray(0, defined).sort();
  const tail = expandedTail(m);
  const lower = quantile(sorted, tail);
  const upper = quantile(sorted, 1 - tail);
  return upper - lower < 1e-9 ? null : { lower: clamp(lower, -1, 1), upper: clamp(upper, -1, 1) };
}

/**
 * The large-sample 95 % interval κ ± 1.96 SE with the jackknife's SE over the cases (Efron &
 * Tibshirani 1993, §11.2): κ without each case in turn, SE² = (m − 1)/m · Σ (κ₋c − mean)². It
 * equals Fleiss, Cohen & Everitt's SE asymptotically when a case is one pair, and counts a case's
 * pairs as one observation when it has several (its steps).
 */
export function kappaJackknifeInterval(cases: readonly (readonly number[])[], weights: readonly (readonly number[])[]): Interval | null {
  const k = weights.length;
  const flatWeights = Float64Array.from(weights.flat());
  const counts = new Float64Array(k * k);
  const rows = new Float64Array(k);
  const cols = new Float64Array(k);
  for (const c of cases) for (const cell of c) counts[cell]! += 1;
  const kappa = kappaOfCounts(counts, flatWeights, k, rows, cols);
  const leftOut: number[] = [];
  for (const c of cases) {
    for (const cell of c) counts[cell]! -= 1;
    const value = kappaOfCounts(counts, flatWeights, k, rows, cols);
    if (!Number.isNaN(value)) leftOut.push(value);
    for (const cell of c) counts[cell]! += 1;
  }
  const m = leftOut.length;
  if (Number.isNaN(kappa) || m < 2) return null;
  const average = mean(leftOut);
  const se = Math.sqrt(((m - 1) / m) * leftOut.reduce((sum, v) => sum + (v - average) ** 2, 0));
  return se < 1e-9 ? null : { lower: clamp(kappa - Z_975 * se, -1, 1), upper: clamp(kappa + Z_975 * se, -1, 1) };
}

/** The 95 % interval of the weighted kappa of these cases (each the cells of its pairs): see KAPPA_BOOTSTRAP. */
export function kappaInterval(cases: readonly (readonly number[])[], weights: readonly (readonly number[])[]): Interval | null {
  if (cases.length < KAPPA_BOOTSTRAP.minCases) return null;
  return cases.length >= KAPPA_BOOTSTRAP.largeSample ? kappaJackknifeInterval(cases, weights) : kappaBootstrapInterval(cases, weights);
}

/**
 * Quadratic-weighted kappa of (rater A, rater B) pairs of levels on the scale, with its 95 %
 * interval over the cases (kappaInterval) (`caseOf[i]` is the case of the i-th pair: a case's step
 * ratings are resampled together; by default each pair is its own case).
 */
export function weightedKappa(
  pairs: readonly (readonly [number, number])[],
  scale: RatingScale = AGREEMENT_SCALE,
  caseOf?: readonly string[],
): AgreementEstimate {
  if (pairs.length < 2) return missing('tooFewPairs');
  const k = scale.max - scale.min + 1;
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const cases = new Map<string, number[]>();
  pairs.forEach(([a, b], i) => {
    for (const x of [a, b])
      if (!Number.isInteger(x) || x < scale.min || x > scale.max) throw new RangeError(`Rating ${x} is not a level of the scale`);
    table[a - scale.min]![b - scale.min]! += 1;
    const key = caseOf?.[i] ?? String(i);
    const cells = cases.get(key) ?? [];
    cells.push((a - scale.min) * k + (b - scale.min));
    cases.set(key, cells);
  });
  const weights = quadraticWeights(k);
  const result = kappaFromTable(table, weights);
  if (!result) return missing('noVariance');
  if (result.kappa >= 1 - 1e-12) return { value: 1, ci: null, gap: 'perfectAgreement' };
  const ci = kappaInterval([...cases.values()], weights);
  return { value: result.kappa, ci, gap: ci ? null : 'noInterval' };
}

// ---- ICC(A,1): two-way random effects, absolute agreement, single rater (McGraw & Wong 1996, case 2A)

export interface TwoWayAnova {
  n: number;
  k: number;
  /** Mean squares of rows (cases), columns (raters) and residual error. */
  msr: number;
  msc: number;
  mse: number;
  /** Within-row mean square (one-way model): for ICC(1,1). */
  msw: number;
}

/** The two-way ANOVA without replication of a complete n × k matrix (rows: cases, columns: raters). */
export function twoWayAnova(matrix: readonly (readonly number[])[]): TwoWayAnova {
  const n = matrix.length;
  const k = matrix[0]?.length ?? 0;
  const grand = mean(matrix.flat());
  const rowMeans = matrix.map((r) => mean(r));
  const colMeans = Array.from({ length: k }, (_, j) => mean(matrix.map((r) => r[j]!)));
  const sst = matrix.flat().reduce((s, x) => s + (x - grand) ** 2, 0);
  const ssr = k * rowMeans.reduce((s, m) => s + (m - grand) ** 2, 0);
  const ssc = n * colMeans.reduce((s, m) => s + (m - grand) ** 2, 0);
  const sse = Math.max(0, sst - ssr - ssc);
  return {
    n,
    k,
    msr: ssr / (n - 1),
    msc: ssc / (k - 1),
    mse: sse / ((n - 1) * (k - 1)),
    msw: (sst - ssr) / (n * (k - 1)),
  };
}

/**
 * ICC(A,1) = (MSR − MSE) / (MSR + (k − 1) MSE + k (MSC − MSE) / n), with McGraw & Wong's
 * F-based 95 % interval (Satterthwaite's degrees of freedom; Shrout & Fleiss 1979 eq. for ICC(2,1)).
 */
export function icc21(matrix: readonly (readonly number[])[]): AgreementEstimate {
  const n = matrix.length;
  const k = matrix[0]?.length ?? 0;
  if (n < 2) return missing('tooFewPairs');
  if (k < 2 || matrix.some((r) => r.length !== k)) throw new RangeError('ICC needs a complete matrix of at least two raters');
  const { msr, msc, mse } = twoWayAnova(matrix);
  const denominator = msr + (k - 1) * mse + (k * (msc - mse)) / n;
  if (denominator <= 1e-12) return missing('noVariance');
  const icc = (msr - mse) / denominator;
  if (mse <= 1e-12 && msc <= 1e-12) return { value: 1, ci: null, gap: 'perfectAgreement' };
  const a = (k * icc) / (n * (1 - icc));
  const b = 1 + (k * icc * (n - 1)) / (n * (1 - icc));
  const v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1)));
  // The estimator can fall below −1 with very few cases; like its bounds, it is shown within [−1, 1].
  const value = clamp(icc, -1, 1);
  // Satterthwaite's v collapses toward 0 when the agreement is far below chance on a handful of
  // cases: the F approximation then says nothing, and no interval is better than a wrong one.
  if (!(v >= 1)) return { value, ci: null, gap: 'noInterval' };
  const fUpper = fQuantile(0.975, n - 1, v);
  const fLower = fQuantile(0.975, v, n - 1);
  const lower = (n * (msr - fUpper * mse)) / (fUpper * (k * msc + (k * n - k - n) * mse) + n * msr);
  const upper = (n * (fLower * msr - mse)) / (k * msc + (k * n - k - n) * mse + n * fLower * msr);
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) return { value, ci: null, gap: 'noInterval' };
  return { value, ci: { lower: clamp(lower, -1, 1), upper: clamp(upper, -1, 1) }, gap: null };
}

// ---- Bland–Altman (Bland & Altman 1986, 1999)

export function blandAltman(pairs: readonly (readonly [number, number])[]): BlandAltman {
  const counts = new Map<string, BlandAltmanPoint>();
  for (const [a, b] of pairs) {
    const point = { mean: (a + b) / 2, difference: a - b };
    const key = `${point.mean}:${point.difference}`;
    const seen = counts.get(key);
    if (seen) seen.cases += 1;
    else counts.set(key, { ...point, cases: 1 });
  }
  const points = [...counts.values()].sort((p, q) => p.mean - q.mean || p.difference - q.difference);
  const empty = { bias: null, biasCi: null, sd: null, lower: null, lowerCi: null, upper: null, upperCi: null };
  if (pairs.length < 2) return { pairs: pairs.length, ...empty, points };
  const differences = pairs.map(([a, b]) => a - b);
  const n = differences.length;
  const bias = mean(differences);
  const sd = sampleSd(differences);
  const t = tQuantile(0.975, n - 1);
  const around = (x: number, se: number): Interval => ({ lower: x - t * se, upper: x + t * se });
  // SE of the bias s/√n; of each limit ≈ √(3 s² / n) (Bland & Altman 1986, §5).
  const seLimit = Math.sqrt((3 * sd ** 2) / n);
  const lower = bias - Z_975 * sd;
  const upper = bias + Z_975 * sd;
  return {
    pairs: n,
    bias,
    biasCi: around(bias, sd / Math.sqrt(n)),
    sd,
    lower,
    lowerCi: around(lower, seLimit),
    upper,
    upperCi: around(upper, seLimit),
    points,
  };
}

// ---- The mean difference of one expert against the others

/** Mean of the differences with a t-based 95 % interval (none below two cases). */
export function meanWithInterval(values: readonly number[]): { mean: number | null; ci: Interval | null } {
  if (values.length === 0) return { mean: null, ci: null };
  const m = mean(values);
  if (values.length < 2) return { mean: m, ci: null };
  const half = (tQuantile(0.975, values.length - 1) * sampleSd(values)) / Math.sqrt(values.length);
  return { mean: m, ci: { lower: m - half, upper: m + half } };
}

// ---- The report

/** The ratings of one unit (a case, or a step of a case), in review order, one per expert, unrated left out. */
interface Unit {
  caseId: string;
  ratings: { expertId: string; rating: number }[];
}

function unitsOf(cases: readonly ReviewedCase[], item: AgreementItem): Unit[] {
  const units: Unit[] = [];
  const push = (caseId: string, ratings: { expertId: string; rating: number | null | undefined }[]) => {
    const seen = new Set<string>();
    const kept: Unit['ratings'] = [];
    for (const r of ratings) {
      if (r.rating === null || r.rating === undefined || seen.has(r.expertId)) continue;
      seen.add(r.expertId);
      kept.push({ expertId: r.expertId, rating: r.rating });
    }
    units.push({ caseId, ratings: kept });
  };
  for (const c of cases) {
    if (item !== 'steps') {
      push(
        c.caseId,
        c.reviews.map((r) => ({ expertId: r.expertId, rating: r.ratings[item] })),
      );
      continue;
    }
    const stepIds = new Set(c.reviews.flatMap((r) => Object.keys(r.stepRatings ?? {})));
    for (const stepId of [...stepIds].sort())
      push(
        c.caseId,
        c.reviews.map((r) => ({ expertId: r.expertId, rating: r.stepRatings?.[stepId] })),
      );
  }
  return units;
}

/**
 * (first, second) of each unit; in an expert's own view (the expert, the first other review).
 * With each pair, its case: the kappa's bootstrap resamples a case's pairs together.
 */
function pairsOf(units: readonly Unit[], focus: string | null): { pairs: [number, number][]; cases: string[] } {
  const pairs: [number, number][] = [];
  const cases: string[] = [];
  for (const { caseId, ratings } of units) {
    if (ratings.length < 2) continue;
    const mine = focus === null ? ratings[0] : ratings.find((r) => r.expertId === focus);
    const other = focus === null ? ratings[1] : ratings.find((r) => r.expertId !== focus);
    if (!mine || !other) continue;
    pairs.push([mine.rating, other.rating]);
    cases.push(caseId);
  }
  return { pairs, cases };
}

function expertDifferences(units: readonly Unit[], names: ReadonlyMap<string, string>, focus: string | null): ExpertDifference[] {
  const byExpert = new Map<string, number[]>();
  for (const { ratings } of units) {
    if (ratings.length < 2) continue;
    const total = ratings.reduce((s, r) => s + r.rating, 0);
    for (const r of ratings) {
      if (focus !== null && r.expertId !== focus) continue;
      const othersMean = (total - r.rating) / (ratings.length - 1);
      const list = byExpert.get(r.expertId) ?? [];
      list.push(r.rating - othersMean);
      byExpert.set(r.expertId, list);
    }
  }
  const rows = [...byExpert].map(([expertId, values]) => ({
    expertId,
    name: names.get(expertId) ?? expertId,
    cases: values.length,
    ...meanWithInterval(values),
  }));
  return rows.sort((a, b) => (b.mean ?? -Infinity) - (a.mean ?? -Infinity) || a.name.localeCompare(b.name));
}

export interface AgreementInput {
  cases: readonly ReviewedCase[];
  /** Display names of the experts (their id is shown otherwise). */
  experts?: readonly { id: string; name: string }[];
  from: string;
  to: string;
  surgeryId?: string | null;
  /** An expert's own view: only the cases they reviewed, paired (them, the other review). */
  expertId?: string | null;
  scale?: RatingScale;
}

/** Every number of the calibration page for the cases given (already filtered by period and surgery). */
export function buildAgreementReport(input: AgreementInput): AgreementReport {
  const scale = input.scale ?? AGREEMENT_SCALE;
  const focus = input.expertId ?? null;
  const names = new Map((input.experts ?? []).map((e) => [e.id, e.name]));
  // A double-reviewed case has two reviews by different experts (an expert's own view: one of them theirs).
  const cases = input.cases.filter((c) => {
    const experts = new Set(c.reviews.map((r) => r.expertId));
    return experts.size >= 2 && (focus === null || experts.has(focus));
  });
  const items = AGREEMENT_ITEMS.map((item): ItemAgreement => {
    const units = unitsOf(cases, item);
    const { pairs, cases: caseOf } = pairsOf(units, focus);
    return {
      item,
      pairs: pairs.length,
      kappa: weightedKappa(pairs, scale, caseOf),
      icc: icc21(pairs),
      blandAltman: blandAltman(pairs),
      experts: expertDifferences(units, names, focus),
    };
  });
  return {
    from: input.from,
    to: input.to,
    surgeryId: input.surgeryId ?? null,
    expertId: focus,
    scale,
    cases: cases.length,
    tripleReviewed: cases.filter((c) => new Set(c.reviews.map((r) => r.expertId)).size >= 3).length,
    items,
  };
}

// ---- Reading the numbers (docs/agreement.md, "Interpretation")

export const KAPPA_BANDS = ['poor', 'slight', 'fair', 'moderate', 'substantial', 'almostPerfect'] as const;
export type KappaBand = (typeof KAPPA_BANDS)[number];

/** Landis & Koch (1977): < 0 poor, 0–0.20 slight, 0.21–0.40 fair, 0.41–0.60 moderate, 0.61–0.80 substantial, 0.81–1 almost perfect. */
export function kappaBand(kappa: number): KappaBand {
  if (kappa < 0) return 'poor';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almostPerfect';
}

export const ICC_BANDS = ['poor', 'moderate', 'good', 'excellent'] as const;
export type IccBand = (typeof ICC_BANDS)[number];

/** Koo & Li (2016): < 0.5 poor, 0.5–0.75 moderate, 0.75–0.9 good, > 0.9 excellent. */
export function iccBand(icc: number): IccBand {
  if (icc < 0.5) return 'poor';
  if (icc < 0.75) return 'moderate';
  if (icc <= 0.9) return 'good';
  return 'excellent';
}

export type RaterTendency = 'higher' | 'lower' | 'similar' | 'unknown';

/** "Rates higher/lower than the others" only when the 95 % interval of the mean difference excludes 0. */
export function raterTendency(difference: Pick<ExpertDifference, 'mean' | 'ci'>): RaterTendency {
  if (difference.mean === null || difference.ci === null) return 'unknown';
  if (difference.ci.lower > 0) return 'higher';
  if (difference.ci.upper < 0) return 'lower';
  return 'similar';
}
