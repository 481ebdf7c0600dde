import { describe, expect, it } from 'vitest';
import { blandAltman, buildAgreementReport, type ExpertDifference } from '@sutura/domain/agreement';
import { blandAltmanChart, expertRows, fewPairItems, formatNumber, summaryRows } from './agreement-view.ts';

describe('the agreement components: numbers as written', () => {
  it('writes two decimals in the reader’s language, signed for differences', () => {
    expect(formatNumber(0.2897, 'en')).toBe('0.29');
    expect(formatNumber(0.2897, 'fr')).toBe('0,29');
    expect(formatNumber(0.5, 'en', true)).toBe('+0.50');
    expect(formatNumber(-0.75, 'fr', true)).toMatch(/^[-−]0,75$/);
    expect(formatNumber(0, 'en', true)).toBe('0.00');
  });
});

describe('the summary table', () => {
  // Twelve cases, the second expert one level higher on efficiency for every other case.
  const report = buildAgreementReport({
    cases: Array.from({ length: 12 }, (_, i) => ({
      caseId: `c${i}`,
      reviews: [
        { expertId: 'A', ratings: { efficiency: 1 + (i % 4), global: 3 } },
        { expertId: 'B', ratings: { efficiency: 1 + (i % 4) + (i % 2), global: 3 } },
      ],
    })),
    from: '2026-01-01',
    to: '2026-03-31',
  });

  it('gives each rating its values, intervals, bands and gaps', () => {
    const rows = summaryRows(report, 'en');
    expect(rows.map((r) => r.item)).toEqual(report.items.map((i) => i.item));
    const efficiency = rows.find((r) => r.item === 'efficiency')!;
    const source = report.items.find((i) => i.item === 'efficiency')!;
    expect(efficiency.pairs).toBe(12);
    expect(efficiency.few).toBe(true);
    expect(efficiency.kappa.value).toBe(formatNumber(source.kappa.value!, 'en'));
    expect(efficiency.kappa.interval).toEqual({
      lower: formatNumber(source.kappa.ci!.lower, 'en'),
      upper: formatNumber(source.kappa.ci!.upper, 'en'),
    });
    expect(efficiency.kappa.band).not.toBeNull();
    expect(efficiency.icc.band).not.toBeNull();
    // Everyone gave a global 3: undefined, said so.
    const global = rows.find((r) => r.item === 'global')!;
    expect(global.kappa).toMatchObject({ value: null, interval: null, gap: 'noVariance', band: null });
    // Nobody rated autonomy: no pairs.
    expect(rows.find((r) => r.item === 'autonomy')!.kappa.gap).toBe('tooFewPairs');
  });

  it('warns about the ratings with some pairs but few', () => {
    expect(fewPairItems(report)).toEqual(['efficiency', 'global']);
  });
});

describe('the per-expert list', () => {
  const expert = (id: string, mean: number | null, lower?: number, upper?: number): ExpertDifference => ({
    expertId: id,
    name: id,
    cases: 5,
    mean,
    ci: lower === undefined || upper === undefined ? null : { lower, upper },
  });

  it('draws a range symmetric around 0 that holds every interval, in half-levels', () => {
    const { range, rows } = expertRows([expert('A', 0.6, 0.1, 1.1), expert('B', -0.2, -0.7, 0.3), expert('C', null)], 'en');
    expect(range).toBe(1.5);
    // 0 sits in the middle; A's mean 0.6 is at (0.6 + 1.5) / 3 = 70 %.
    expect(rows[0]!.at!.mean).toBeCloseTo(70, 10);
    expect(rows[0]!.at!.lower).toBeCloseTo((1.6 / 3) * 100, 10);
    expect(rows[0]!.tendency).toBe('higher');
    expect(rows[0]!.mean).toBe('+0.60');
    expect(rows[1]!.tendency).toBe('similar');
    expect(rows[2]).toMatchObject({ tendency: 'unknown', mean: null, at: null });
  });

  it('keeps at least half a level each side', () => {
    expect(expertRows([expert('A', 0.1, 0, 0.2)], 'en').range).toBe(0.5);
    expect(expertRows([], 'en').range).toBe(0.5);
  });
});

describe('the Bland–Altman chart', () => {
  it('spans the scale across and whole levels around 0, with the lines that exist', () => {
    const ba = blandAltman([
      [5, 2],
      [4, 4],
      [3, 3],
      [2, 3],
    ]);
    const chart = blandAltmanChart(ba, { min: 1, max: 5 });
    expect(chart.x).toEqual([0.5, 5.5]);
    expect(chart.xTicks).toEqual([1, 2, 3, 4, 5]);
    // Differences 3, 0, 0, −1: bias .5, SD √(((2.5)² + .25 + .25 + 2.25)/3) = √3 = 1.732; upper limit .5 + 3.395 = 3.89.
    expect(ba.upper).toBeCloseTo(0.5 + 1.959964 * Math.sqrt(3), 5);
    expect(chart.y).toEqual([-4.5, 4.5]);
    expect(chart.yTicks).toEqual([-4, -3, -2, -1, 0, 1, 2, 3, 4]);
    expect(chart.lines.map((l) => l.key)).toEqual(['bias', 'lower', 'upper']);
    const one = blandAltmanChart(blandAltman([[3, 3]]), { min: 1, max: 5 });
    expect(one.lines).toEqual([]);
    expect(one.y).toEqual([-1.5, 1.5]);
  });
});
