import { clamp, snapToFrame } from './timecode';

/** A kept range of the source, in seconds on frame boundaries; `key` only names it on screen. */
export interface Trim {
  key: string;
  start: number;
  end: number;
}

export interface TrimLimits {
  duration: number;
  fps: number;
  /** Shortest range the editor may keep. */
  minSeconds: number;
  /** Length of a new range when there is room for it. */
  defaultSeconds: number;
  /** Most ranges a preparation keeps. */
  maxTrims: number;
}

/** The trims of the page, and whether the one added last has been touched since (SPEC §5). */
export interface TrimState {
  trims: Trim[];
  /** The trim added last, while it has not been moved or resized. */
  untouchedKey: string | null;
}

/** Why a new trim is refused; the page shows the catalogue message of each. */
export type TrimRefusal = 'TRIM_NOT_MODIFIED' | 'TRIM_POSITION';

export type TrimResult = { ok: true; state: TrimState; key: string } | { ok: false; reason: TrimRefusal };

const byStart = (a: Trim, b: Trim) => a.start - b.start;

export function trimState(trims: readonly Trim[]): TrimState {
  return { trims: [...trims].sort(byStart), untouchedKey: null };
}

/** The trim that holds a time (its end excluded), if any. */
export function trimAt(trims: readonly Trim[], time: number): Trim | undefined {
  return trims.find((t) => t.start <= time && time < t.end);
}

/** Where a trim may extend: from the end of the one before it to the start of the one after it. */
function room(trims: readonly Trim[], key: string, duration: number): { min: number; max: number } {
  const sorted = [...trims].sort(byStart);
  const index = sorted.findIndex((t) => t.key === key);
  return {
    min: index > 0 ? sorted[index - 1]!.end : 0,
    max: index >= 0 && index < sorted.length - 1 ? sorted[index + 1]!.start : duration,
  };
}

/**
 * "New trim" at the playhead (SPEC §5): refused while the last one added has not been modified,
 * inside another range, where not even the shortest range fits before the next one, and past
 * the most ranges a preparation keeps.
 */
export function addTrim(state: TrimState, at: number, limits: TrimLimits, key: string): TrimResult {
  if (state.untouchedKey !== null && state.trims.some((t) => t.key === state.untouchedKey)) {
    return { ok: false, reason: 'TRIM_NOT_MODIFIED' };
  }
  if (state.trims.length >= limits.maxTrims) return { ok: false, reason: 'TRIM_POSITION' };
  const start = snapToFrame(clamp(at, 0, limits.duration), limits.fps);
  if (trimAt(state.trims, start)) return { ok: false, reason: 'TRIM_POSITION' };
  const next = state.trims.filter((t) => t.start >= start).sort(byStart)[0];
  const limit = next ? next.start : limits.duration;
  if (limit - start < limits.minSeconds - 1e-9) return { ok: false, reason: 'TRIM_POSITION' };
  const end = snapToFrame(Math.min(start + limits.defaultSeconds, limit), limits.fps);
  const trims = [...state.trims, { key, start, end }].sort(byStart);
  return { ok: true, state: { trims, untouchedKey: key }, key };
}

function replace(state: TrimState, key: string, next: Trim): TrimState {
  const current = state.trims.find((t) => t.key === key);
  if (!current || (current.start === next.start && current.end === next.end)) return state;
  return {
    trims: state.trims.map((t) => (t.key === key ? next : t)).sort(byStart),
    untouchedKey: state.untouchedKey === key ? null : state.untouchedKey,
  };
}

/** Moves a whole range by `delta` seconds, stopped by its neighbours and the ends of the source. */
export function moveTrim(state: TrimState, key: string, delta: number, limits: TrimLimits): TrimState {
  const trim = state.trims.find((t) => t.key === key);
  if (!trim) return state;
  const { min, max } = room(state.trims, key, limits.duration);
  const length = trim.end - trim.start;
  const start = snapToFrame(clamp(trim.start + delta, min, max - length), limits.fps);
  return replace(state, key, { key, start, end: snapToFrame(start + length, limits.fps) });
}

/** Puts one edge of a range at `time`, keeping the shortest length and clear of its neighbours. */
export function resizeTrim(state: TrimState, key: string, edge: 'start' | 'end', time: number, limits: TrimLimits): TrimState {
  const trim = state.trims.find((t) => t.key === key);
  if (!trim) return state;
  const { min, max } = room(state.trims, key, limits.duration);
  if (edge === 'start') {
    const start = snapToFrame(clamp(time, min, trim.end - limits.minSeconds), limits.fps);
    return replace(state, key, { ...trim, start });
  }
  const end = snapToFrame(clamp(time, trim.start + limits.minSeconds, max), limits.fps);
  return replace(state, key, { ...trim, end });
}

export function deleteTrim(state: TrimState, key: string): TrimState {
  if (!state.trims.some((t) => t.key === key)) return state;
  return { trims: state.trims.filter((t) => t.key !== key), untouchedKey: state.untouchedKey === key ? null : state.untouchedKey };
}

/** Total kept length: what the rendered video will last. */
export function keptSeconds(trims: readonly Trim[]): number {
  return trims.reduce((total, t) => total + (t.end - t.start), 0);
}

/** The same ranges in the same places: nothing to save. */
export function sameTrims(a: readonly Trim[], b: readonly Trim[]): boolean {
  return a.length === b.length && a.every((t, i) => t.start === b[i]!.start && t.end === b[i]!.end);
}
