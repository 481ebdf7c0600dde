import { describe, expect, it } from 'vitest';
import {
  AGREEMENT_ITEMS,
  blandAltman,
  buildAgreementReport,
  expandedTail,
  fQuantile,
  icc21,
  iccBand,
  kappaBand,
  KAPPA_BOOTSTRAP,
  kappaBootstrapInterval,
  kappaFromTable,
  kappaJackknifeInterval,
  meanWithInterval,
  normalCdf,
  quadraticWeights,
  raterTendency,
  tQuantile,
  twoWayAnova,
  weightedKappa,
  Z_975,
  type ReviewedCase,
} from './agreement.ts';
import { KPIS } from './analysis.ts';

const identity = (k: number) => Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 1 : 0)));

/** A seeded generator (mulberry32): the same "random" ratings on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('distribution quantiles', () => {
  it('match the printed tables of F and t', () => {
    // F tables (e.g. Snedecor & Cochran): F.975(5, 15) = 3.58, F.95(5, 15) = 2.90, F.975(15, 5) = 6.43.
    expect(fQuantile(0.975, 5, 15)).toBeCloseTo(3.5764, 4);
    expect(fQuantile(0.95, 5, 15)).toBeCloseTo(2.9013, 4);
    expect(fQuantile(0.975, 15, 5)).toBeCloseTo(6.4277, 4);
    // Student's t: 12.706 (1 df), 4.303 (2), 3.182 (3), 2.228 (10), 2.042 (30).
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062, 4);
    expect(tQuantile(0.975, 2)).toBeCloseTo(4.3027, 4);
    expect(tQuantile(0.975, 3)).toBeCloseTo(3.1824, 4);
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.2281, 4);
    expect(tQuantile(0.975, 30)).toBeCloseTo(2.0423, 4);
    // t² with ν df is F(1, ν): the two inversions agree, also for a fractional df.
    expect(tQuantile(0.975, 7.5) ** 2).toBeCloseTo(fQuantile(0.95, 1, 7.5), 8);
  });
});

describe('quadratic-weighted kappa', () => {
  it('is computed by hand on a small table', () => {
    // Scale 1..3, weights 1 − d²/4: d = 0 → 1, d = 1 → 0.75, d = 2 → 0.
    // Pairs (A, B): (1,1) (2,2) (3,3) (2,3), n = 4.
    // p_o = (1 + 1 + 1 + 0.75) / 4 = 0.9375.
    // A's margins 1/4, 2/4, 1/4; B's 1/4, 1/4, 2/4.
    // p_e = ¼(¼·1 + ¼·.75 + ½·0) + ½(¼·.75 + ¼·1 + ½·.75) + ¼(¼·0 + ¼·.75 + ½·1)
    //     = ¼·.4375 + ½·.8125 + ¼·.6875 = .109375 + .40625 + .171875 = 0.6875.
    // κ = (0.9375 − 0.6875) / (1 − 0.6875) = 0.25 / 0.3125 = 0.8.
    const pairs: [number, number][] = [
      [1, 1],
      [2, 2],
      [3, 3],
      [2, 3],
    ];
    const k = weightedKappa(pairs, { min: 1, max: 3 });
    expect(k.value).toBeCloseTo(0.8, 12);
    expect(k.gap).toBeNull();
    expect(k.ci!.lower).toBeLessThan(0.8);
    expect(k.ci!.upper).toBeLessThanOrEqual(1);
    // The same by the identity κ_q = 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²) (variances over n):
    // A = 1,2,3,2 (mean 2, s² = .5); B = 1,2,3,3 (mean 2.25, s² = .6875); s_xy = .5;
    // κ = 1 / (.5 + .6875 + .0625) = 0.8.
  });

  it('equals the product-moment form 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²) on any table (Cohen 1968; Fleiss & Cohen 1973)', () => {
    const random = seeded(17);
    for (let trial = 0; trial < 20; trial++) {
      const n = 10 + Math.floor(random() * 60);
      const pairs: [number, number][] = Array.from({ length: n }, () => {
        const a = 1 + Math.floor(random() * 5);
        const b = Math.min(5, Math.max(1, a + Math.floor(random() * 3) - 1 + (random() < 0.2 ? 2 : 0)));
        return [a, b];
      });
      const x = pairs.map((p) => p[0]);
      const y = pairs.map((p) => p[1]);
      const mx = x.reduce((s, v) => s + v, 0) / n;
      const my = y.reduce((s, v) => s + v, 0) / n;
      const sxx = x.reduce((s, v) => s + (v - mx) ** 2, 0) / n;
      const syy = y.reduce((s, v) => s + (v - my) ** 2, 0) / n;
      const sxy = x.reduce((s, v, i) => s + (v - mx) * (y[i]! - my), 0) / n;
      const expected = (2 * sxy) / (sxx + syy + (mx - my) ** 2);
      expect(weightedKappa(pairs).value).toBeCloseTo(expected, 10);
    }
  });

  it("reproduces Cohen's (1968) worked example, Table 1", () => {
    // Cohen J. Weighted kappa: nominal scale agreement with provision for scaled disagreement or
    // partial credit. Psychol Bull 1968;70:213–20, Table 1: N = 200, proportions (rows judge B,
    // columns judge A) .44 .07 .09 / .05 .20 .05 / .01 .03 .06, disagreement weights v = 0 1 3 /
    // 1 0 6 / 3 6 0. Cohen reports κ = .492 and κ_w = .348.
    // By hand: observed disagreement Σ v·p_o = .07 + .27 + .05 + .30 + .03 + .18 = .90; expected
    // Σ v·p_i.·p_.j (margins .6 .3 .1 and .5 .3 .2) = .18 + .36 + .15 + .36 + .15 + .18 = 1.38;
    // κ_w = 1 − .90/1.38 = .3478. Agreement weights w = 1 − v / 6 give the same κ_w.
    const table = [
      [88, 14, 18],
      [10, 40, 10],
      [2, 6, 12],
    ];
    const v = [
      [0, 1, 3],
      [1, 0, 6],
      [3, 6, 0],
    ];
    expect(kappaFromTable(table, identity(3))!.kappa).toBeCloseTo(0.492, 3);
    expect(kappaFromTable(table, identity(3))!.kappa).toBeCloseTo(0.29 / 0.59, 12);
    expect(
      kappaFromTable(
        table,
        v.map((row) => row.map((x) => 1 - x / 6)),
      )!.kappa,
    ).toBeCloseTo(0.348, 3);
    expect(
      kappaFromTable(
        table,
        v.map((row) => row.map((x) => 1 - x / 6)),
      )!.kappa,
    ).toBeCloseTo(1 - 0.9 / 1.38, 12);
  });

  it('reproduces the example of Fleiss, Cohen & Everitt (1969): κ = .429 and κ_w = .507', () => {
    // Fleiss JL, Cohen J, Everitt BS. Large sample standard errors of kappa and weighted kappa.
    // Psychol Bull 1969;72:323–7: 200 patients, three diagnoses, counts 106 10 4 / 22 28 10 /
    // 2 12 6, agreement weights 1 0 .4444 / 0 1 .6667 / .4444 .6667 1. Unweighted by hand:
    // p_o = (106 + 28 + 6)/200 = .70, margins .60 .30 .10 and .65 .25 .10, p_e = .39 + .075 + .01
    // = .475, κ = .225/.525 = .4286.
    const table = [
      [106, 10, 4],
      [22, 28, 10],
      [2, 12, 6],
    ];
    const weights = [
      [1, 0, 0.4444],
      [0, 1, 0.6667],
      [0.4444, 0.6667, 1],
    ];
    expect(kappaFromTable(table, identity(3))!.kappa).toBeCloseTo(0.225 / 0.525, 12);
    expect(kappaFromTable(table, weights)!.kappa).toBeCloseTo(0.507, 3);
  });

  it('has the standard error of the delta method (what Fleiss, Cohen & Everitt derive), checked numerically', () => {
    // Var(κ̂) ≈ (1/n)[Σ p_ij g_ij² − (Σ p_ij g_ij)²], g_ij = ∂κ/∂p_ij, by central differences.
    const kappaOf = (p: number[][], w: number[][]) => {
      const k = p.length;
      const rows = p.map((r) => r.reduce((s, x) => s + x, 0));
      const cols = Array.from({ length: k }, (_, j) => p.reduce((s, r) => s + r[j]!, 0));
      let po = 0;
      let pe = 0;
      for (let i = 0; i < k; i++)
        for (let j = 0; j < k; j++) {
          po += w[i]![j]! * p[i]![j]!;
          pe += w[i]![j]! * rows[i]! * cols[j]!;
        }
      return (po - pe) / (1 - pe);
    };
    const tables = [
      [
        [106, 10, 4],
        [22, 28, 10],
        [2, 12, 6],
      ],
      [
        [5, 3, 1, 0, 0],
        [2, 9, 4, 1, 0],
        [0, 3, 12, 5, 1],
        [0, 1, 4, 8, 2],
        [0, 0, 1, 2, 4],
      ],
    ];
    for (const table of tables) {
      const w = quadraticWeights(table.length);
      const n = table.flat().reduce((s, x) => s + x, 0);
      const p = table.map((r) => r.map((x) => x / n));
      const h = 1e-6;
      let m1 = 0;
      let m2 = 0;
      for (let i = 0; i < p.length; i++)
        for (let j = 0; j < p.length; j++) {
          const up = p.map((r) => [...r]);
          const down = p.map((r) => [...r]);
          up[i]![j]! += h;
          down[i]![j]! -= h;
          const g = (kappaOf(up, w) - kappaOf(down, w)) / (2 * h);
          m1 += p[i]![j]! * g;
          m2 += p[i]![j]! * g * g;
        }
      const deltaSe = Math.sqrt((m2 - m1 ** 2) / n);
      const result = kappaFromTable(table, w)!;
      expect(result.kappa).toBeCloseTo(kappaOf(p, w), 12);
      expect(result.se).toBeCloseTo(deltaSe, 7);
      expect(result.se).toBeGreaterThan(0.01);
    }
  });

  it('is null with a reason, never NaN, when undefined', () => {
    expect(weightedKappa([])).toEqual({ value: null, ci: null, gap: 'tooFewPairs' });
    expect(weightedKappa([[3, 4]])).toEqual({ value: null, ci: null, gap: 'tooFewPairs' });
    // Everyone rated 3: p_o = p_e = 1, κ = 0/0.
    expect(
      weightedKappa([
        [3, 3],
        [3, 3],
        [3, 3],
      ]),
    ).toEqual({ value: null, ci: null, gap: 'noVariance' });
    // Perfect agreement with spread: κ = 1 and no interval (its large-sample SE is 0).
    expect(
      weightedKappa([
        [2, 2],
        [4, 4],
        [5, 5],
      ]),
    ).toEqual({ value: 1, ci: null, gap: 'perfectAgreement' });
    // Two pairs one level apart each: κ = 1/3 by the product-moment form (s_xy = .25,
    // s_x² = s_y² = .25, (x̄ − ȳ)² = 1: .5 / 1.5), but two cases bound nothing: no interval.
    expect(
      weightedKappa([
        [3, 4],
        [4, 5],
      ]),
    ).toEqual({ value: expect.closeTo(1 / 3, 12) as number, ci: null, gap: 'noInterval' });
    expect(() =>
      weightedKappa([
        [0, 3],
        [2, 2],
      ]),
    ).toThrow(RangeError);
  });
});

describe('the 95 % interval of the weighted kappa: an expanded percentile bootstrap over the cases', () => {
  /** Each count of a table as that many cases of one pair each (cell i·k + j). */
  const casesOf = (table: number[][]) =>
    table.flatMap((row, i) => row.flatMap((count, j) => Array.from({ length: count }, () => [i * row.length + j])));
  const largeSample = (table: number[][], weights: number[][]) => {
    const { kappa, se } = kappaFromTable(table, weights)!;
    return { lower: kappa - Z_975 * se, upper: kappa + Z_975 * se };
  };

  it('has the normal and expanded tails it is built on', () => {
    expect(normalCdf(-Z_975)).toBeCloseTo(0.025, 7);
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.841345, 6);
    // α' = Φ(−√(8/7) · t.975(7)) = Φ(−1.0690 · 2.3646) = Φ(−2.5278) = .0057; → .025 as m grows.
    expect(expandedTail(8)).toBeCloseTo(0.00574, 5);
    expect(expandedTail(30)).toBeCloseTo(0.01875, 5);
    expect(expandedTail(10_000)).toBeCloseTo(0.025, 3);
  });

  it('meets the large-sample interval where that one holds: the published examples of N = 200', () => {
    // Fleiss, Cohen & Everitt (1969), κ_w = .507 (checked above): at N = 200 the large-sample SE
    // holds, and the bootstrap lands on the same interval (.395 to .619) within ±.01.
    const fce = [
      [106, 10, 4],
      [22, 28, 10],
      [2, 12, 6],
    ];
    const fceWeights = [
      [1, 0, 0.4444],
      [0, 1, 0.6667],
      [0.4444, 0.6667, 1],
    ];
    const expected = largeSample(fce, fceWeights);
    expect(expected.lower).toBeCloseTo(0.395, 3);
    expect(expected.upper).toBeCloseTo(0.619, 3);
    const boot = kappaBootstrapInterval(casesOf(fce), fceWeights)!;
    expect(Math.abs(boot.lower - expected.lower)).toBeLessThan(0.01);
    expect(Math.abs(boot.upper - expected.upper)).toBeLessThan(0.01);
    // Cohen (1968), Table 1, κ_w = .348 with the weights 1 − v/6: .200 to .496.
    const cohen = [
      [88, 14, 18],
      [10, 40, 10],
      [2, 6, 12],
    ];
    const cohenWeights = [
      [0, 1, 3],
      [1, 0, 6],
      [3, 6, 0],
    ].map((row) => row.map((v) => 1 - v / 6));
    const cohenBoot = kappaBootstrapInterval(casesOf(cohen), cohenWeights)!;
    const cohenLarge = largeSample(cohen, cohenWeights);
    expect(Math.abs(cohenBoot.lower - cohenLarge.lower)).toBeLessThan(0.01);
    expect(Math.abs(cohenBoot.upper - cohenLarge.upper)).toBeLessThan(0.01);
  });

  it('keeps the large-sample standard error right, as SAS prints it for a table of 19 cases', () => {
    // SAS PROC FREQ (AGREE) on the 3 × 3 table 0 4 1 / 0 8 0 / 0 1 5, as reproduced in
    // statsmodels' tests (stats/tests/test_inter_rater.py, "comparison to printout of a SAS
    // example"): simple kappa .4842, ASE .1380; weighted kappa (Cicchetti–Allison, i.e. linear
    // weights 1 − |i − j|/2) .4701, ASE .1457, 95 % limits .1845 to .7558.
    const table = [
      [0, 4, 1],
      [0, 8, 0],
      [0, 1, 5],
    ];
    const simple = kappaFromTable(table, identity(3))!;
    expect(simple.kappa).toBeCloseTo(0.4842, 4);
    expect(simple.se).toBeCloseTo(0.138, 4);
    const linear = [
      [1, 0.5, 0],
      [0.5, 1, 0.5],
      [0, 0.5, 1],
    ];
    const weighted = kappaFromTable(table, linear)!;
    expect(weighted.kappa).toBeCloseTo(0.4701, 4);
    expect(weighted.se).toBeCloseTo(0.1457, 4);
    expect(largeSample(table, linear).lower).toBeCloseTo(0.1845, 4);
    expect(largeSample(table, linear).upper).toBeCloseTo(0.7558, 4);
  });

  it('is wide on 8 pairs where the large-sample interval was far too narrow', () => {
    // Eight cases, the second expert one level above the first on all but one: κ_w = .30 with a
    // large-sample interval of .23 to .37, while the ICC of the same pairs is .33 (−.07 to .79).
    const pairs: [number, number][] = [
      [3, 4],
      [3, 4],
      [2, 3],
      [3, 4],
      [2, 3],
      [3, 4],
      [2, 3],
      [3, 3],
    ];
    const table = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
    for (const [a, b] of pairs) table[a - 1]![b - 1]! += 1;
    const old = largeSample(table, quadraticWeights(5));
    expect(old.lower).toBeCloseTo(0.23, 2);
    expect(old.upper).toBeCloseTo(0.37, 2);
    expect(icc21(pairs).ci!.lower).toBeCloseTo(-0.068, 3);
    const kappa = weightedKappa(pairs);
    expect(kappa.value).toBeCloseTo(0.3, 12);
    // The cases resampled reach from no agreement beyond chance (every pair one level apart: κ = 0)
    // to the best mix of them (1/3): the same data cannot say more.
    expect(kappa.ci!.lower).toBeCloseTo(0, 12);
    expect(kappa.ci!.upper).toBeCloseTo(1 / 3, 12);
    expect(kappa.ci!.upper - kappa.ci!.lower).toBeGreaterThan(2 * (old.upper - old.lower));
    // Deterministic: the same pairs give the same interval.
    expect(weightedKappa(pairs)).toEqual(kappa);
  });

  it('covers the true kappa about 95 % of the time on 8 cases, where the large-sample interval did not', () => {
    // Samples of 8 cases from known joint distributions (a true level T, each expert T plus or minus
    // a level at random, the second expert one level higher in the second), 300 each, seeded. The
    // true κ_w is that of the joint distribution itself.
    const joint = (truth: number[], noise: [number, number, number], offset: number) => {
      const p = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
      const clip = (x: number) => Math.min(4, Math.max(0, x));
      truth.forEach((pt, t) => {
        for (let a = -1; a <= 1; a++)
          for (let b = -1; b <= 1; b++) p[clip(t + a)]![clip(t + b + offset)]! += pt * noise[a + 1]! * noise[b + 1]!;
      });
      return p;
    };
    const random = seeded(42);
    for (const [p, truth] of [
      [joint([0.1, 0.2, 0.4, 0.2, 0.1], [0.2, 0.6, 0.2], 0), 0.749],
      [joint([0.05, 0.25, 0.4, 0.25, 0.05], [0.25, 0.5, 0.25], 1), 0.453],
    ] as const) {
      const trueKappa = kappaFromTable(p, quadraticWeights(5))!.kappa;
      expect(trueKappa).toBeCloseTo(truth, 3);
      const cells = p.flat();
      const draw = () => {
        let u = random();
        let cell = 0;
        while (cell < cells.length - 1 && u >= cells[cell]!) u -= cells[cell++]!;
        return [Math.floor(cell / 5) + 1, (cell % 5) + 1] as [number, number];
      };
      let samples = 0;
      let covered = 0;
      let coveredBefore = 0;
      for (let s = 0; s < 300; s++) {
        const pairs = Array.from({ length: 8 }, draw);
        const kappa = weightedKappa(pairs);
        if (kappa.ci === null) continue;
        const table = Array.from({ length: 5 }, () => new Array<number>(5).fill(0));
        for (const [a, b] of pairs) table[a - 1]![b - 1]! += 1;
        const old = largeSample(table, quadraticWeights(5));
        samples += 1;
        if (kappa.ci.lower <= trueKappa && trueKappa <= kappa.ci.upper) covered += 1;
        if (old.lower <= trueKappa && trueKappa <= old.upper) coveredBefore += 1;
      }
      expect(samples).toBeGreaterThan(290);
      expect(covered / samples).toBeGreaterThanOrEqual(0.9);
      expect(coveredBefore / samples).toBeLessThan(0.85);
    }
  });

  it("resamples a case's step ratings together", () => {
    // Eight cases of four steps rated alike: the four pairs of a case are one observation, not four.
    const perCase: [number, number][] = [
      [2, 3],
      [3, 3],
      [4, 4],
      [1, 2],
      [5, 4],
      [3, 4],
      [2, 2],
      [4, 5],
    ];
    const steps = perCase.flatMap((pair) => [pair, pair, pair, pair]);
    const caseOf = perCase.flatMap((_, i) => [`c${i}`, `c${i}`, `c${i}`, `c${i}`]);
    const clustered = weightedKappa(steps, undefined, caseOf);
    // Kappa reads proportions: every table of the clustered bootstrap is four times one of the
    // eight cases' bootstrap, drawn by the same numbers: the same interval.
    expect(clustered).toEqual(weightedKappa(perCase));
    const asIfIndependent = weightedKappa(steps);
    expect(asIfIndependent.value).toBeCloseTo(clustered.value!, 12);
    expect(asIfIndependent.ci!.upper - asIfIndependent.ci!.lower).toBeLessThan(clustered.ci!.upper - clustered.ci!.lower);
  });

  it('turns to the large-sample interval from 500 cases, its SE by the jackknife over the cases', () => {
    // On Fleiss, Cohen & Everitt's 200 patients the jackknife's SE is theirs within 1 % (.0574, .0570).
    const fce = [
      [106, 10, 4],
      [22, 28, 10],
      [2, 12, 6],
    ];
    const fceWeights = [
      [1, 0, 0.4444],
      [0, 1, 0.6667],
      [0.4444, 0.6667, 1],
    ];
    const { kappa, se } = kappaFromTable(fce, fceWeights)!;
    const jackknife = kappaJackknifeInterval(casesOf(fce), fceWeights)!;
    expect(Math.abs((jackknife.upper - jackknife.lower) / (2 * Z_975) / se - 1)).toBeLessThan(0.01);
    expect((jackknife.upper + jackknife.lower) / 2).toBeCloseTo(kappa, 12);
    // 500 cases on the 1–5 scale: the jackknife, within .01 of the bootstrap; 499: the bootstrap.
    const random = seeded(5);
    const pairs = Array.from({ length: 500 }, () => {
      const a = 1 + Math.floor(random() * 5);
      return [a, Math.min(5, Math.max(1, a + Math.floor(random() * 3) - 1))] as [number, number];
    });
    const cells = (ps: [number, number][]) => ps.map(([a, b]) => [(a - 1) * 5 + b - 1]);
    expect(KAPPA_BOOTSTRAP.largeSample).toBe(500);
    const large = weightedKappa(pairs);
    expect(large.ci).toEqual(kappaJackknifeInterval(cells(pairs), quadraticWeights(5)));
    const boot = kappaBootstrapInterval(cells(pairs), quadraticWeights(5))!;
    expect(Math.abs(large.ci!.lower - boot.lower)).toBeLessThan(0.01);
    expect(Math.abs(large.ci!.upper - boot.upper)).toBeLessThan(0.01);
    expect(weightedKappa(pairs.slice(1)).ci).toEqual(kappaBootstrapInterval(cells(pairs.slice(1)), quadraticWeights(5)));
  });

  it('gives no interval below 3 cases, nor when every resample gives the same kappa', () => {
    expect(
      weightedKappa([
        [2, 3],
        [4, 4],
      ]),
    ).toMatchObject({ ci: null, gap: 'noInterval' });
    // Three cases one level apart on one level each: κ = 0 on every resample.
    expect(
      weightedKappa([
        [2, 3],
        [2, 3],
        [2, 3],
      ]),
    ).toEqual({ value: 0, ci: null, gap: 'noInterval' });
    expect(KAPPA_BOOTSTRAP).toMatchObject({ resamples: 2000, minCases: 3 });
  });
});

describe('ICC(A,1) — two-way random effects, absolute agreement, single rater', () => {
  // Shrout PE, Fleiss JL. Intraclass correlations: uses in assessing rater reliability. Psychol
  // Bull 1979;86:420–8, Table 2: 6 targets rated by 4 judges.
  const shroutFleiss = [
    [9, 2, 5, 8],
    [6, 1, 3, 2],
    [8, 4, 6, 8],
    [7, 1, 2, 6],
    [10, 5, 6, 9],
    [6, 2, 4, 7],
  ];

  it('reproduces Shrout & Fleiss (1979), Tables 2–4', () => {
    // Their Table 3: BMS = 11.24, WMS = 6.26, JMS = 32.49, EMS = 1.02.
    const anova = twoWayAnova(shroutFleiss);
    expect(anova.msr).toBeCloseTo(11.24, 2);
    expect(anova.msw).toBeCloseTo(6.26, 2);
    expect(anova.msc).toBeCloseTo(32.49, 2);
    expect(anova.mse).toBeCloseTo(1.02, 2);
    // Their Table 4: ICC(1,1) = .17, ICC(2,1) = .29, ICC(3,1) = .71.
    const { msr, msw, msc, mse, n, k } = anova;
    expect((msr - msw) / (msr + (k - 1) * msw)).toBeCloseTo(0.17, 2);
    expect((msr - mse) / (msr + (k - 1) * mse)).toBeCloseTo(0.71, 2);
    const icc = icc21(shroutFleiss);
    expect(icc.value).toBeCloseTo(0.29, 2);
    expect(icc.value).toBeCloseTo((msr - mse) / (msr + (k - 1) * mse + (k * (msc - mse)) / n), 12);
    // The 95 % interval by their formula for ICC(2,1) (the same as McGraw & Wong's for ICC(A,1)):
    // .019 to .761, as R's psych::ICC prints for this table (0.019, 0.76).
    expect(icc.ci!.lower).toBeCloseTo(0.019, 3);
    expect(icc.ci!.upper).toBeCloseTo(0.761, 3);
  });

  it('is computed by hand on a 3 × 2 matrix', () => {
    // Rows (1,2) (3,3) (5,4): grand mean 3; row means 1.5, 3, 4.5; column means 3 and 3.
    // SST = 4+1+0+0+4+1 = 10; SSR = 2·(2.25+0+2.25) = 9; SSC = 0; SSE = 1.
    // MSR = 9/2 = 4.5; MSC = 0; MSE = 1/2 = .5.
    // ICC = (4.5 − .5) / (4.5 + .5 + 2·(0 − .5)/3) = 4 / (14/3) = 6/7.
    const icc = icc21([
      [1, 2],
      [3, 3],
      [5, 4],
    ]);
    expect(icc.value).toBeCloseTo(6 / 7, 12);
    expect(icc.ci!.lower).toBeLessThan(6 / 7);
    expect(icc.ci!.upper).toBeGreaterThan(6 / 7);
  });

  it('agrees with an independent ANOVA and the Shrout–Fleiss form of the interval on other data', () => {
    const random = seeded(2026);
    for (const [n, k] of [
      [20, 2],
      [15, 3],
      [40, 2],
    ] as const) {
      const matrix = Array.from({ length: n }, () => {
        const skill = 1 + Math.floor(random() * 5);
        return Array.from({ length: k }, (_, j) =>
          Math.min(5, Math.max(1, skill + (random() < 0.3 ? 1 : 0) - (j === 1 && random() < 0.2 ? 1 : 0))),
        );
      });
      // The residual sum of squares from the residuals themselves: e_ij = x_ij − x̄_i. − x̄_.j + x̄.
      const grand = matrix.flat().reduce((s, x) => s + x, 0) / (n * k);
      const rowMean = matrix.map((r) => r.reduce((s, x) => s + x, 0) / k);
      const colMean = Array.from({ length: k }, (_, j) => matrix.reduce((s, r) => s + r[j]!, 0) / n);
      let sse = 0;
      let ssr = 0;
      let ssc = 0;
      matrix.forEach((r, i) =>
        r.forEach((x, j) => {
          sse += (x - rowMean[i]! - colMean[j]! + grand) ** 2;
          ssr += (rowMean[i]! - grand) ** 2;
          ssc += (colMean[j]! - grand) ** 2;
        }),
      );
      const bms = ssr / (n - 1);
      const jms = ssc / (k - 1);
      const ems = sse / ((n - 1) * (k - 1));
      // Variance components: σ²_case = (BMS − EMS)/k, σ²_rater = (JMS − EMS)/n, σ²_error = EMS.
      const sCase = (bms - ems) / k;
      const sRater = (jms - ems) / n;
      const rho = sCase / (sCase + sRater + ems);
      const icc = icc21(matrix);
      expect(icc.value).toBeCloseTo(rho, 12);
      // Shrout & Fleiss's degrees of freedom, written with F_J = JMS/EMS.
      const fj = jms / ems;
      const v =
        ((k - 1) * (n - 1) * (k * rho * fj + n * (1 + (k - 1) * rho) - k * rho) ** 2) /
        ((n - 1) * k ** 2 * rho ** 2 * fj ** 2 + (n * (1 + (k - 1) * rho) - k * rho) ** 2);
      const fStar = fQuantile(0.975, n - 1, v);
      const fLow = fQuantile(0.975, v, n - 1);
      const lower = (n * (bms - fStar * ems)) / (fStar * (k * jms + (k * n - k - n) * ems) + n * bms);
      const upper = (n * (fLow * bms - ems)) / (k * jms + (k * n - k - n) * ems + n * fLow * bms);
      expect(icc.ci!.lower).toBeCloseTo(lower, 8);
      expect(icc.ci!.upper).toBeCloseTo(upper, 8);
    }
  });

  it('is null with a reason when undefined', () => {
    expect(icc21([[3, 4]])).toEqual({ value: null, ci: null, gap: 'tooFewPairs' });
    expect(
      icc21([
        [3, 3],
        [3, 3],
      ]),
    ).toEqual({ value: null, ci: null, gap: 'noVariance' });
    expect(
      icc21([
        [1, 1],
        [4, 4],
      ]),
    ).toEqual({ value: 1, ci: null, gap: 'perfectAgreement' });
    // Far below chance on two cases: Satterthwaite's v is 0, no interval rather than NaN.
    // Rows (5,1) (4,4): grand mean 3.5, MSR = 1, MSC = 4, MSE = 4; ICC = (1 − 4)/(1 + 4 + 0) = −0.6;
    // a = −.375, b = .625, v = (a·4 + b·4)² / ((a·4)² + (b·4)²) = 1 / 8.5 < 1.
    expect(
      icc21([
        [5, 1],
        [4, 4],
      ]),
    ).toEqual({ value: expect.closeTo(-0.6, 12) as number, ci: null, gap: 'noInterval' });
    // The ANOVA estimate can fall below −1 on three cases (here −1.75): shown as −1.
    expect(
      icc21([
        [5, 2],
        [1, 4],
        [2, 4],
      ]).value,
    ).toBe(-1);
    // A constant offset is not agreement: the second rater is always one level higher.
    const offset = icc21([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
    expect(offset.value).toBeGreaterThan(0);
    expect(offset.value).toBeLessThan(1);
  });
});

describe('on any small table', () => {
  it('gives numbers within [−1, 1], never NaN, the interval around the value', () => {
    const random = seeded(99);
    // 2000 tables: each kappa is a bootstrap of 2000 resamples.
    for (let trial = 0; trial < 2000; trial++) {
      const n = 2 + Math.floor(random() * 8);
      const pairs = Array.from({ length: n }, () => [1 + Math.floor(random() * 5), 1 + Math.floor(random() * 5)] as [number, number]);
      for (const e of [icc21(pairs), weightedKappa(pairs)]) {
        if (e.value === null) {
          expect(e.gap).not.toBeNull();
          continue;
        }
        expect(e.value).toBeGreaterThanOrEqual(-1);
        expect(e.value).toBeLessThanOrEqual(1);
        if (e.ci === null) expect(e.gap).not.toBeNull();
        else {
          expect(Number.isFinite(e.ci.lower) && Number.isFinite(e.ci.upper)).toBe(true);
          expect(e.ci.lower).toBeLessThanOrEqual(e.value + 1e-9);
          expect(e.ci.upper).toBeGreaterThanOrEqual(e.value - 1e-9);
        }
      }
    }
  });
});

describe('Bland–Altman', () => {
  it('is computed by hand', () => {
    // Pairs (3,2) (4,4) (2,3) (5,3): differences 1, 0, −1, 2; bias = 2/4 = .5.
    // Squared deviations .25 .25 2.25 2.25 = 5; SD = √(5/3) = 1.2910.
    // Limits .5 ± 1.96·1.2910 = −2.0303 and 3.0303.
    // Bias CI: .5 ± t(.975, 3)·SD/2 = .5 ± 3.1824·.6455 = .5 ± 2.0543.
    const ba = blandAltman([
      [3, 2],
      [4, 4],
      [2, 3],
      [5, 3],
    ]);
    const sd = Math.sqrt(5 / 3);
    expect(ba.bias).toBeCloseTo(0.5, 12);
    expect(ba.sd).toBeCloseTo(sd, 12);
    expect(ba.lower).toBeCloseTo(0.5 - 1.959964 * sd, 5);
    expect(ba.upper).toBeCloseTo(0.5 + 1.959964 * sd, 5);
    expect(ba.biasCi!.lower).toBeCloseTo(0.5 - 2.0543, 3);
    expect(ba.biasCi!.upper).toBeCloseTo(0.5 + 2.0543, 3);
    // Each limit's SE ≈ √(3·SD²/n) = √(3·(5/3)/4) = √1.25.
    expect(ba.upperCi!.upper - ba.upper!).toBeCloseTo(3.18245 * Math.sqrt(1.25), 3);
    expect(ba.points).toEqual([
      { mean: 2.5, difference: -1, cases: 1 },
      { mean: 2.5, difference: 1, cases: 1 },
      { mean: 4, difference: 0, cases: 1 },
      { mean: 4, difference: 2, cases: 1 },
    ]);
  });

  it('piles identical points up and needs two pairs for its numbers', () => {
    const ba = blandAltman([
      [3, 3],
      [3, 3],
      [4, 3],
    ]);
    expect(ba.points).toEqual([
      { mean: 3, difference: 0, cases: 2 },
      { mean: 3.5, difference: 1, cases: 1 },
    ]);
    const one = blandAltman([[3, 4]]);
    expect(one.bias).toBeNull();
    expect(one.lower).toBeNull();
    expect(one.points).toHaveLength(1);
  });
});

describe('mean difference of an expert against the others', () => {
  it('has a t interval, none below two cases', () => {
    // [1.5, 1, 0]: mean .8333; SD = √(((.6667)² + (.1667)² + (.8333)²)/2) = √.58333 = .76376;
    // half-width = t(.975, 2)·SD/√3 = 4.3027·.44096 = 1.8973.
    const m = meanWithInterval([1.5, 1, 0]);
    expect(m.mean).toBeCloseTo(5 / 6, 12);
    expect(m.ci!.lower).toBeCloseTo(5 / 6 - 1.8973, 3);
    expect(m.ci!.upper).toBeCloseTo(5 / 6 + 1.8973, 3);
    expect(meanWithInterval([2])).toEqual({ mean: 2, ci: null });
    expect(meanWithInterval([])).toEqual({ mean: null, ci: null });
  });
});

describe('the report', () => {
  const review = (expertId: string, rating: number | null, steps?: Record<string, number | null>): ReviewedCase['reviews'][number] => ({
    expertId,
    ratings: { depthPerception: rating, global: rating },
    ...(steps ? { stepRatings: steps } : {}),
  });
  // Case 1: A 4, B 3, C 2 (three reviews); case 2: A 5, B 4; case 3: A 3, C 3; case 4: A only.
  const cases: ReviewedCase[] = [
    { caseId: 'c1', reviews: [review('A', 4, { s1: 4, s2: 2 }), review('B', 3, { s1: 3, s2: 2 }), review('C', 2)] },
    { caseId: 'c2', reviews: [review('A', 5, { s1: 5 }), review('B', 4, { s1: null })] },
    { caseId: 'c3', reviews: [review('A', 3), review('C', 3)] },
    { caseId: 'c4', reviews: [review('A', 2)] },
  ];
  const experts = [
    { id: 'A', name: 'Dr A' },
    { id: 'B', name: 'Dr B' },
    { id: 'C', name: 'Dr C' },
  ];

  it('lists the five KPIs, the global rating and the steps', () => {
    expect(AGREEMENT_ITEMS.slice(0, 5)).toEqual([...KPIS]);
    const report = buildAgreementReport({ cases, experts, from: '2026-01-01', to: '2026-06-30' });
    expect(report.items.map((i) => i.item)).toEqual([...AGREEMENT_ITEMS]);
    expect(report.cases).toBe(3);
    expect(report.tripleReviewed).toBe(1);
  });

  it('pairs the first two reviews and compares every expert with the mean of the others', () => {
    const report = buildAgreementReport({ cases, experts, from: '2026-01-01', to: '2026-06-30' });
    const depth = report.items.find((i) => i.item === 'depthPerception')!;
    // Pairs (first, second): (4,3) (5,4) (3,3); the third review of case 1 is left out.
    expect(depth.pairs).toBe(3);
    expect(depth.blandAltman.bias).toBeCloseTo(2 / 3, 12);
    expect(depth.icc.value).toBeCloseTo(
      icc21([
        [4, 3],
        [5, 4],
        [3, 3],
      ]).value!,
      12,
    );
    // A: 4 − (3+2)/2 = 1.5, 5 − 4 = 1, 3 − 3 = 0 → mean 5/6. B: 3 − (4+2)/2 = 0, 4 − 5 = −1 → −1/2.
    // C: 2 − (4+3)/2 = −1.5, 3 − 3 = 0 → −3/4. Highest first.
    expect(depth.experts.map((e) => [e.name, e.cases])).toEqual([
      ['Dr A', 3],
      ['Dr B', 2],
      ['Dr C', 2],
    ]);
    expect(depth.experts[0]!.mean).toBeCloseTo(5 / 6, 12);
    expect(depth.experts[1]!.mean).toBeCloseTo(-1 / 2, 12);
    expect(depth.experts[2]!.mean).toBeCloseTo(-3 / 4, 12);
    // A KPI nobody rated: no pairs, every number null with its reason.
    const autonomy = report.items.find((i) => i.item === 'autonomy')!;
    expect(autonomy.pairs).toBe(0);
    expect(autonomy.kappa.gap).toBe('tooFewPairs');
    expect(autonomy.experts).toEqual([]);
  });

  it('skips unrated pairwise: the next review that rated the item makes the pair', () => {
    const report = buildAgreementReport({
      cases: [
        { caseId: 'x', reviews: [review('A', null), review('B', 2), review('C', 4)] },
        { caseId: 'y', reviews: [review('A', 1), review('B', 1)] },
      ],
      from: '2026-01-01',
      to: '2026-01-31',
    });
    const depth = report.items.find((i) => i.item === 'depthPerception')!;
    expect(depth.blandAltman.points).toEqual([
      { mean: 1, difference: 0, cases: 1 },
      { mean: 3, difference: -2, cases: 1 },
    ]);
    // Names fall back on the id.
    expect(depth.experts.map((e) => e.name).sort()).toEqual(['A', 'B', 'C']);
  });

  it('pools the steps of each case, one unit per step rated twice', () => {
    const report = buildAgreementReport({ cases, experts, from: '2026-01-01', to: '2026-06-30' });
    const steps = report.items.find((i) => i.item === 'steps')!;
    // c1: s1 (4,3), s2 (2,2); c2: s1 rated by A only.
    expect(steps.pairs).toBe(2);
    expect(steps.blandAltman.bias).toBeCloseTo(0.5, 12);
  });

  it("in an expert's own view, pairs them with the other review and lists only them", () => {
    const report = buildAgreementReport({ cases, experts, from: '2026-01-01', to: '2026-06-30', expertId: 'B' });
    expect(report.expertId).toBe('B');
    expect(report.cases).toBe(2);
    const depth = report.items.find((i) => i.item === 'depthPerception')!;
    // (B, first other): (3,4) (4,5): B rates one level lower.
    expect(depth.pairs).toBe(2);
    expect(depth.blandAltman.bias).toBe(-1);
    expect(depth.experts.map((e) => e.expertId)).toEqual(['B']);
  });

  it('does not pair an expert with themselves', () => {
    const report = buildAgreementReport({
      cases: [{ caseId: 'x', reviews: [review('A', 2), review('A', 5)] }],
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(report.cases).toBe(0);
    expect(report.items.every((i) => i.pairs === 0)).toBe(true);
  });
});

describe('reading the numbers', () => {
  it('uses the bands of Landis & Koch and of Koo & Li', () => {
    expect([-0.1, 0, 0.2, 0.21, 0.4, 0.5, 0.6, 0.7, 0.8, 0.81, 1].map(kappaBand)).toEqual([
      'poor',
      'slight',
      'slight',
      'fair',
      'fair',
      'moderate',
      'moderate',
      'substantial',
      'substantial',
      'almostPerfect',
      'almostPerfect',
    ]);
    expect([0.2, 0.49, 0.5, 0.74, 0.75, 0.9, 0.91].map(iccBand)).toEqual([
      'poor',
      'poor',
      'moderate',
      'moderate',
      'good',
      'good',
      'excellent',
    ]);
  });

  it('calls an expert higher or lower only when the interval excludes 0', () => {
    expect(raterTendency({ mean: 0.4, ci: { lower: 0.1, upper: 0.7 } })).toBe('higher');
    expect(raterTendency({ mean: -0.4, ci: { lower: -0.7, upper: -0.1 } })).toBe('lower');
    expect(raterTendency({ mean: 0.4, ci: { lower: -0.1, upper: 0.9 } })).toBe('similar');
    expect(raterTendency({ mean: 0.4, ci: null })).toBe('unknown');
  });
});
