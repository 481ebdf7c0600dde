import { describe, expect, it } from 'vitest';
import { LABEL_GAP, lineEnds } from './line-ends.ts';

describe('the direct labels at the ends of the lines', () => {
  const data = [
    { month: 'Jan', global: 2, depth: 2, autonomy: 3 },
    { month: 'Feb', global: 3, depth: 3, autonomy: null },
    { month: 'Mar', global: 3, depth: 3.05, autonomy: null },
  ];

  it('puts each label at its line’s last value, a line that stops early included', () => {
    const ends = lineEnds(data, ['global', 'depth', 'autonomy'], 5, 250);
    expect(ends.find((e) => e.key === 'autonomy')?.index).toBe(0);
    expect(ends.find((e) => e.key === 'global')?.index).toBe(2);
  });

  it('pushes apart the labels of lines that end together, so that none overlaps another', () => {
    const ends = lineEnds(data, ['global', 'depth', 'autonomy'], 5, 250);
    const y = (key: string) => {
      const end = ends.find((e) => e.key === key)!;
      const row = data[end.index] as Record<string, number | string | null>;
      return (1 - Number(row[key]) / 5) * 250 + end.shift;
    };
    const ys = ['global', 'depth', 'autonomy'].map(y).sort((a, b) => a - b);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(LABEL_GAP - 1e-9);
    // A label far from the others stays where its line ends.
    const alone = lineEnds([{ a: 5, b: 0 }], ['a', 'b'], 5, 250);
    expect(alone.map((e) => e.shift)).toEqual([0, 0]);
  });

  it('keeps the labels inside the chart when the lowest ones would fall below it', () => {
    const low = lineEnds([{ a: 0, b: 0, c: 0 }], ['a', 'b', 'c'], 5, 250);
    for (const end of low) expect(250 + end.shift).toBeLessThanOrEqual(250);
  });

  it('has no label for a line without any value', () => {
    expect(lineEnds([{ a: null }], ['a'], 5, 250)).toEqual([]);
  });
});
