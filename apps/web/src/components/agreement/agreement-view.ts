import {
  AGREEMENT_FEW_PAIRS,
  iccBand,
  kappaBand,
  raterTendency,
  type AgreementEstimate,
  type AgreementReport,
  type BlandAltman,
  type ExpertDifference,
  type IccBand,
  type Interval,
  type ItemAgreement,
  type KappaBand,
  type RaterTendency,
} from '@sutura/domain/agreement';

/**
 * What the agreement components show, shaped from the report without React: the numbers as the
 * page writes them, the words of the interpretation bands, and the ranges of the two charts.
 */

/** A coefficient or a difference on the page: two decimals in the reader's language ("0,29"). */
export function formatNumber(value: number, lang: string, signed = false): string {
  return new Intl.NumberFormat(lang, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(value);
}

export function formatBounds(ci: Interval, lang: string, signed = false): { lower: string; upper: string } {
  return { lower: formatNumber(ci.lower, lang, signed), upper: formatNumber(ci.upper, lang, signed) };
}

export interface EstimateView {
  /** The value as written, or null with the gap saying why. */
  value: string | null;
  interval: { lower: string; upper: string } | null;
  gap: AgreementEstimate['gap'];
}

export function estimateView(estimate: AgreementEstimate, lang: string): EstimateView {
  return {
    value: estimate.value === null ? null : formatNumber(estimate.value, lang),
    interval: estimate.ci ? formatBounds(estimate.ci, lang) : null,
    gap: estimate.gap,
  };
}

export interface SummaryRow {
  item: ItemAgreement['item'];
  pairs: number;
  few: boolean;
  kappa: EstimateView & { band: KappaBand | null };
  icc: EstimateView & { band: IccBand | null };
}

/** One row per item of the report, in its order (the five KPIs, the global rating, the steps). */
export function summaryRows(report: AgreementReport, lang: string): SummaryRow[] {
  return report.items.map((item) => ({
    item: item.item,
    pairs: item.pairs,
    few: item.pairs < AGREEMENT_FEW_PAIRS,
    kappa: { ...estimateView(item.kappa, lang), band: item.kappa.value === null ? null : kappaBand(item.kappa.value) },
    icc: { ...estimateView(item.icc, lang), band: item.icc.value === null ? null : iccBand(item.icc.value) },
  }));
}

/** The items with some pairs but fewer than AGREEMENT_FEW_PAIRS: the page warns about them. */
export function fewPairItems(report: AgreementReport): ItemAgreement['item'][] {
  return report.items.filter((i) => i.pairs > 0 && i.pairs < AGREEMENT_FEW_PAIRS).map((i) => i.item);
}

export interface ExpertRow {
  expert: ExpertDifference;
  tendency: RaterTendency;
  mean: string | null;
  interval: { lower: string; upper: string } | null;
  /** Positions on the forest plot, in % of its width (0 in the middle). */
  at: { mean: number; lower: number; upper: number } | null;
}

/**
 * The per-expert list and its forest plot: a range symmetric around 0, in half-levels, wide
 * enough for every interval (at least ± 0.5 level).
 */
export function expertRows(experts: readonly ExpertDifference[], lang: string): { range: number; rows: ExpertRow[] } {
  const reach = Math.max(0.5, ...experts.flatMap((e) => [e.mean, e.ci?.lower, e.ci?.upper]).map((x) => Math.abs(x ?? 0)));
  const range = Math.ceil(reach * 2) / 2;
  const pct = (x: number) => ((x + range) / (2 * range)) * 100;
  return {
    range,
    rows: experts.map((expert) => ({
      expert,
      tendency: raterTendency(expert),
      mean: expert.mean === null ? null : formatNumber(expert.mean, lang, true),
      interval: expert.ci ? formatBounds(expert.ci, lang, true) : null,
      at:
        expert.mean === null
          ? null
          : {
              mean: pct(expert.mean),
              lower: pct(expert.ci?.lower ?? expert.mean),
              upper: pct(expert.ci?.upper ?? expert.mean),
            },
    })),
  };
}

export interface BlandAltmanLine {
  key: 'bias' | 'lower' | 'upper';
  value: number;
}

/**
 * The Bland–Altman chart: x over the scale, y symmetric around 0 and wide enough for every point
 * and both limits (ticks on whole levels, at least ± 1), the horizontal lines that exist.
 */
export function blandAltmanChart(ba: BlandAltman, scale: { min: number; max: number }) {
  const lines: BlandAltmanLine[] = [];
  if (ba.bias !== null) lines.push({ key: 'bias', value: ba.bias });
  if (ba.lower !== null) lines.push({ key: 'lower', value: ba.lower });
  if (ba.upper !== null) lines.push({ key: 'upper', value: ba.upper });
  const reach = Math.max(1, ...ba.points.map((p) => Math.abs(p.difference)), ...lines.map((l) => Math.abs(l.value)));
  const y = Math.ceil(reach);
  const yTicks = Array.from({ length: 2 * y + 1 }, (_, i) => i - y);
  const xTicks = Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
  // Half a level of margin on every side, so that the points on the edges are drawn whole.
  return {
    x: [scale.min - 0.5, scale.max + 0.5] as [number, number],
    y: [-y - 0.5, y + 0.5] as [number, number],
    xTicks,
    yTicks,
    lines,
    points: ba.points,
  };
}
