/**
 * The average surgeon of a window, kept between requests (docs/statistics.md, *Cost*).
 *
 * The average does not depend on who asks, only on the window, the peers (everyone or a
 * specialty) and the data. Each process keeps, for each peer group, every surgeon's sums over the
 * window it last computed; a request reads, in one statement, the version of the data
 * (`stats_version`, changed in the transaction of every write that matters) and the rows that
 * entered or left the window since (a window slides with the clock). With the same version, the
 * surgeons' sums are brought to the new window by adding and subtracting those rows; otherwise
 * they are computed again. The sums are exact: every value is a `real` (a float32, at most 100),
 * whose sums in float64 stay exact for far more rows than a window holds, in any order, adding or
 * subtracting; so every surgeon's mean is the one PostgreSQL's `avg` gives.
 */

/** One surgeon's cases of the window: how many, and the sum and the count of each value not null. */
export interface SurgeonSums {
  n: number;
  sums: number[];
  counts: number[];
}

/** A row of the per-surgeon query: `author_id`, `n`, then `s<i>` and `c<i>` for each value. */
export type SurgeonRow = Record<string, unknown>;

export interface PeerWindow {
  /** The value of the data's version the sums were read at (`stats_version`). */
  version: string;
  /** The window (start, end], in epoch milliseconds. */
  start: number;
  end: number;
  surgeons: ReadonlyMap<string, SurgeonSums>;
}

function surgeonOf(row: SurgeonRow, width: number): SurgeonSums {
  return {
    n: Number(row.n),
    sums: Array.from({ length: width }, (_, i) => Number(row[`s${i}`] ?? 0)),
    counts: Array.from({ length: width }, (_, i) => Number(row[`c${i}`] ?? 0)),
  };
}

/** The window read whole. */
export function windowOf(version: string, start: number, end: number, rows: SurgeonRow[], width: number): PeerWindow {
  return { version, start, end, surgeons: new Map(rows.map((r) => [String(r.author_id), surgeonOf(r, width)])) };
}

/**
 * `window` moved to (start, end]: the rows of `entered` added, those of `left` taken away. The
 * window given is left as it was (another request may be reading it).
 */
export function slide(
  window: PeerWindow,
  start: number,
  end: number,
  entered: SurgeonRow[],
  left: SurgeonRow[],
  width: number,
): PeerWindow {
  const surgeons = new Map(window.surgeons);
  const apply = (row: SurgeonRow, sign: 1 | -1) => {
    const id = String(row.author_id);
    const change = surgeonOf(row, width);
    const was = surgeons.get(id) ?? { n: 0, sums: Array<number>(width).fill(0), counts: Array<number>(width).fill(0) };
    const now: SurgeonSums = {
      n: was.n + sign * change.n,
      sums: was.sums.map((s, i) => s + sign * change.sums[i]!),
      counts: was.counts.map((c, i) => c + sign * change.counts[i]!),
    };
    // No case left: the surgeon is no longer in the window (their sums are exactly zero then).
    if (now.n > 0) surgeons.set(id, now);
    else surgeons.delete(id);
  };
  for (const row of left) apply(row, -1);
  for (const row of entered) apply(row, 1);
  return { version: window.version, start, end, surgeons };
}

/**
 * Whether to keep `candidate` instead of `current` for the same peers: of two with the same
 * version, the later window; otherwise the one answered last (versions are random and cannot be
 * ordered). Only a matter of work saved: a window is used again only at the version it was read at.
 */
export function keep(current: PeerWindow | undefined, candidate: PeerWindow): boolean {
  return !current || current.version !== candidate.version || candidate.end >= current.end;
}

/** A sum of many floating-point numbers without the rounding of each step piling up (Neumaier). */
function preciseSum(values: number[]): number {
  let sum = 0;
  let compensation = 0;
  for (const v of values) {
    const t = sum + v;
    compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + compensation;
}

/**
 * The average surgeon: the number of surgeons and of cases, and for each value the mean of the
 * surgeons' own means and how many surgeons have one (null with none).
 */
export function averageOf(
  window: PeerWindow,
  width: number,
): { surgeons: number; cases: number; means: (number | null)[]; rated: number[] } {
  let cases = 0;
  const perValue: number[][] = Array.from({ length: width }, () => []);
  for (const s of window.surgeons.values()) {
    cases += s.n;
    for (let i = 0; i < width; i++) if (s.counts[i]! > 0) perValue[i]!.push(s.sums[i]! / s.counts[i]!);
  }
  return {
    surgeons: window.surgeons.size,
    cases,
    means: perValue.map((m) => (m.length ? preciseSum(m) / m.length : null)),
    rated: perValue.map((m) => m.length),
  };
}
