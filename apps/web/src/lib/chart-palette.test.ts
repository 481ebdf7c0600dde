import { describe, expect, it } from 'vitest';
import { CHART_BACKGROUNDS, CHART_SERIES, CHART_TEXT, contrastRatio, deltaE, simulate, type ColourVision } from './chart-palette.ts';

const MODES = ['light', 'dark'] as const;
const VISIONS: ColourVision[] = ['normal', 'deuteranopia', 'protanopia'];
/** Two series lines told apart at a glance; under a colour-vision simulation, still apart. */
const MIN_DELTA_E: Record<ColourVision, number> = { normal: 20, deuteranopia: 10, protanopia: 10 };

const pairs = <T>(items: readonly T[]) => items.flatMap((a, i) => items.slice(i + 1).map((b) => [a, b] as const));

describe('the chart palette', () => {
  it('knows contrast and colour-vision arithmetic (reference values)', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
    // Red and green collapse for a deuteranope and a protanope; blue and orange do not.
    expect(deltaE('#FF0000', '#00A000', 'normal')).toBeGreaterThan(100);
    for (const vision of ['deuteranopia', 'protanopia'] as const) {
      expect(deltaE('#D55E00', '#6B8E23', vision)).toBeLessThan(deltaE('#D55E00', '#6B8E23') / 2);
    }
    expect(deltaE('#0072B2', '#E69F00', 'deuteranopia')).toBeGreaterThan(50);
    expect(simulate('#777777', 'protanopia')).toMatch(/^#7[67]7[67]7[67]$/i);
  });

  for (const mode of MODES) {
    describe(`in the ${mode} theme`, () => {
      it('draws every line at 3:1 or more against the chart’s backgrounds', () => {
        for (const colour of CHART_SERIES[mode]) {
          for (const background of CHART_BACKGROUNDS[mode]) {
            expect(contrastRatio(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(3);
          }
        }
      });

      it('writes the chart’s texts at 4.5:1 or more', () => {
        for (const text of Object.values(CHART_TEXT[mode])) {
          for (const background of CHART_BACKGROUNDS[mode]) {
            expect(contrastRatio(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
          }
        }
      });

      it('has enough colours for the busiest chart, each told apart from the others, also with deuteranopia and protanopia', () => {
        // NASA-TLX month by month: the raw score and six scales.
        expect(CHART_SERIES[mode].length).toBeGreaterThanOrEqual(7);
        expect(new Set(CHART_SERIES[mode].map((c) => c.toUpperCase())).size).toBe(CHART_SERIES[mode].length);
        for (const vision of VISIONS) {
          for (const [a, b] of pairs(CHART_SERIES[mode])) {
            expect(deltaE(a, b, vision), `${a} / ${b} (${vision})`).toBeGreaterThanOrEqual(MIN_DELTA_E[vision]);
          }
        }
      });

      it('keeps each line apart from the chart’s text colour, which draws the axes', () => {
        for (const colour of CHART_SERIES[mode]) {
          expect(deltaE(colour, CHART_TEXT[mode].primary), colour).toBeGreaterThanOrEqual(10);
        }
      });
    });
  }
});
