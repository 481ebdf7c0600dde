import { COLORS } from '@sutura/domain/limits';
import type { ColorMode } from '@/lib/theme';

/**
 * The one palette of every chart (statistics, the results page's radar): colours after Okabe and
 * Ito's colour-blind-safe set, each brought to a lightness that stands out from the page, one
 * variant per theme. The first is the learner's own series (the brand teal); a chart takes them in
 * order. lib/chart-palette.test.ts checks, for both themes, that each line keeps ≥ 3:1 against the
 * chart's background, that the chart's text keeps ≥ 4.5:1, and that any two colours stay apart
 * (CIE ΔE) for normal vision and under deuteranopia and protanopia.
 */
export const CHART_SERIES: Record<ColorMode, readonly string[]> = {
  light: ['#0A6E5A', '#0072B2', '#B97F00', '#552600', '#A8457F', '#003959', '#787221'],
  dark: ['#17C7A4', '#56B4E9', '#E69F00', '#F7F097', '#C05500', '#B3DDF5', '#F0B3D6'],
};

/** What charts are drawn on: the page and the paper of each theme (lib/theme.tsx). */
export const CHART_BACKGROUNDS: Record<ColorMode, readonly string[]> = {
  light: [COLORS.backgroundLight],
  dark: [COLORS.backgroundDark, '#1C2120'],
};

/** Texts of a chart (axis names, ticks, legends, direct labels): opaque, so that their contrast is known. */
export const CHART_TEXT: Record<ColorMode, { primary: string; secondary: string }> = {
  light: { primary: COLORS.textLight, secondary: '#435B56' },
  dark: { primary: COLORS.textDark, secondary: '#C7C9C8' },
};

export interface ChartPalette {
  series: readonly string[];
  text: string;
  mutedText: string;
}

export function chartPalette(mode: ColorMode): ChartPalette {
  return { series: CHART_SERIES[mode], text: CHART_TEXT[mode].primary, mutedText: CHART_TEXT[mode].secondary };
}

// ---- Colour arithmetic (WCAG 2 contrast, CIE Lab, colour-vision simulation)

type Rgb = readonly [number, number, number];

function channels(hex: string): Rgb {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255) as unknown as Rgb;
}
const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const gamma = (c: number) => {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
};

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two opaque colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB. */
const SIMULATIONS = {
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
} as const;
export type ColourVision = 'normal' | keyof typeof SIMULATIONS;

/** The colour as someone with this colour vision sees it, as #RRGGBB. */
export function simulate(hex: string, vision: ColourVision): string {
  if (vision === 'normal') return hex;
  const l = channels(hex).map(linear);
  const m = SIMULATIONS[vision];
  const out = m.map((row) => gamma(row[0] * l[0]! + row[1] * l[1]! + row[2] * l[2]!));
  return `#${out
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function lab(hex: string): [number, number, number] {
  const [r, g, b] = channels(hex).map(linear) as unknown as Rgb;
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** CIE 1976 ΔE between two colours as seen with a colour vision. */
export function deltaE(a: string, b: string, vision: ColourVision = 'normal'): number {
  const [p, q] = [lab(simulate(a, vision)), lab(simulate(b, vision))];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}
