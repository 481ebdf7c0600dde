/** Room between two direct labels, in pixels. */
export const LABEL_GAP = 15;

export interface LineEnd {
  key: string;
  index: number;
  /** Where the label is drawn, from where the line ends, in pixels (labels pushed apart). */
  shift: number;
}

/**
 * Where each line ends, and how far its label moves so that no two overlap: the ends sorted by
 * height, each label at least LABEL_GAP below the one above it.
 */
export function lineEnds(data: Record<string, string | number | null>[], keys: string[], max: number, plotHeight: number): LineEnd[] {
  const ends = keys
    .map((key) => {
      let index = data.length - 1;
      while (index >= 0 && (data[index]![key] === null || data[index]![key] === undefined)) index -= 1;
      const value = index >= 0 ? Number(data[index]![key]) : null;
      return { key, index, y: value === null ? 0 : (1 - value / max) * plotHeight };
    })
    .filter((end) => end.index >= 0)
    .sort((a, b) => a.y - b.y);
  const placed: number[] = [];
  for (const end of ends) placed.push(Math.max(end.y, (placed.at(-1) ?? -Infinity) + LABEL_GAP));
  // Pushed past the bottom: the whole column moves up.
  const overflow = Math.max(0, (placed.at(-1) ?? 0) - plotHeight);
  return ends.map((end, i) => ({ key: end.key, index: end.index, shift: placed[i]! - overflow - end.y }));
}
