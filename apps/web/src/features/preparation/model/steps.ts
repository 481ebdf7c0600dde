import { clamp, snapToFrame } from './timecode';
import { trimAt, type Trim } from './trims';

/**
 * A surgical step marked on the source, in seconds on frame boundaries. Named from the surgery's
 * vocabulary (`surgeryStepId`, the name then in the reader's language) or freely (`name` only).
 */
export interface Step {
  key: string;
  surgeryStepId: string | null;
  name: string;
  start: number;
  end: number;
}

export interface StepLimits {
  fps: number;
  maxSteps: number;
  minSteps: number;
  /** Length of a new step when its kept range leaves room for it. */
  defaultSeconds: number;
}

export type StepRefusal = 'STEPS_MAX' | 'STEP_OUTSIDE_TRIMS' | 'STEP_STARTS_HERE';
export type StepProblem = 'STEPS_MIN' | 'STEPS_UNNAMED';

/**
 * The step a new one at `at` splits: one that holds it at least a frame past its start and a frame
 * before its end. Where steps the editor made overlap, the innermost (latest start) is split.
 */
function stepToSplit(steps: readonly Step[], at: number, fps: number): Step | undefined {
  const half = 0.5 / fps;
  let found: Step | undefined;
  for (const s of steps) {
    if (s.start + half < at && at < s.end - half && (!found || s.start > found.start)) found = s;
  }
  return found;
}

/**
 * A new step at the playhead (SPEC §5): refused past the maximum, and outside the kept ranges
 * (what was cut out is not in the rendered video).
 *
 * Inside a step, the new step splits it: the step keeps its name and ends at the playhead (or at
 * the end of the kept part before it, when the playhead is on the first frame after a cut), the
 * new one — unnamed, placed right after it in the list — runs from the playhead to where the step
 * ended. On a step's first frame there is nothing to split, and a second step starting there would
 * only hide the first: refused. Elsewhere the new step ends at the end of its kept range, after
 * `defaultSeconds`, or where the next step starts, whichever comes first: steps never overlap
 * unless the editor drags them so.
 */
export function addStep(
  steps: readonly Step[],
  at: number,
  trims: readonly Trim[],
  limits: StepLimits,
  key: string,
): { ok: true; steps: Step[] } | { ok: false; reason: StepRefusal } {
  const { fps } = limits;
  const half = 0.5 / fps;
  if (steps.length >= limits.maxSteps) return { ok: false, reason: 'STEPS_MAX' };
  const start = snapToFrame(at, fps);
  const range = trimAt(trims, start);
  if (!range) return { ok: false, reason: 'STEP_OUTSIDE_TRIMS' };

  const split = stepToSplit(steps, start, fps);
  if (split) {
    // On the first frame of a kept range, the part before the cut ends where that range's predecessor ends.
    const before = Math.max(...trims.map((t) => t.end).filter((end) => end <= range.start + half));
    const firstEnd = start > range.start + half ? start : Number.isFinite(before) ? snapToFrame(before, fps) : start;
    if (firstEnd > split.start + half) {
      const added: Step = { key, surgeryStepId: null, name: '', start, end: split.end };
      return {
        ok: true,
        steps: steps.flatMap((s) => (s.key === split.key ? [{ ...s, end: firstEnd }, added] : [s])),
      };
    }
  }
  if (steps.some((s) => Math.abs(s.start - start) < half)) return { ok: false, reason: 'STEP_STARTS_HERE' };

  const nextStart = Math.min(...steps.map((s) => s.start).filter((t) => t > start + half));
  const end = snapToFrame(Math.min(start + limits.defaultSeconds, range.end, nextStart), fps);
  return { ok: true, steps: [...steps, { key, surgeryStepId: null, name: '', start, end }] };
}

/**
 * The kept time nearest to `time` for a step's edge: a start lies in [range start, range end),
 * an end in (range start, range end], as the server checks (what was cut out is not rendered).
 */
export function nearestKept(trims: readonly Trim[], time: number, edge: 'start' | 'end', fps: number): number {
  const frame = 1 / fps;
  let best = time;
  let distance = Infinity;
  for (const t of trims) {
    const at = edge === 'start' ? clamp(time, t.start, t.end - frame) : clamp(time, t.start + frame, t.end);
    if (Math.abs(at - time) < distance) {
      distance = Math.abs(at - time);
      best = at;
    }
  }
  return snapToFrame(best, fps);
}

/** Puts one edge of a step at `time`, inside the kept ranges and at least one frame long. */
export function moveStepEdge(
  steps: readonly Step[],
  key: string,
  edge: 'start' | 'end',
  time: number,
  trims: readonly Trim[],
  fps: number,
): Step[] {
  const frame = 1 / fps;
  return steps.map((step) => {
    if (step.key !== key) return step;
    const at = nearestKept(trims, snapToFrame(time, fps), edge, fps);
    if (edge === 'start') return { ...step, start: snapToFrame(clamp(at, 0, step.end - frame), fps) };
    return { ...step, end: snapToFrame(Math.max(at, step.start + frame), fps) };
  });
}

export function renameStep(steps: readonly Step[], key: string, name: { surgeryStepId: string | null; name: string }): Step[] {
  return steps.map((s) => (s.key === key ? { ...s, ...name } : s));
}

/** Moves a step one place up (-1) or down (+1) in the list. */
export function reorderStep(steps: readonly Step[], key: string, direction: -1 | 1): Step[] {
  const index = steps.findIndex((s) => s.key === key);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= steps.length) return [...steps];
  const next = [...steps];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

export function deleteStep(steps: readonly Step[], key: string): Step[] {
  return steps.filter((s) => s.key !== key);
}

/** What stops a submission (SPEC §5), in the order the editor should fix it. */
export function stepProblems(steps: readonly Step[], limits: Pick<StepLimits, 'minSteps'>): StepProblem[] {
  const problems: StepProblem[] = [];
  if (steps.length < limits.minSteps) problems.push('STEPS_MIN');
  if (steps.some((s) => s.name.trim() === '')) problems.push('STEPS_UNNAMED');
  return problems;
}
