import { MAX_STEPS, MIN_TRIM_SECONDS, snapToFrame, type DraftStep, type Trim } from '@sutura/domain/preparation';
import type { VideoStatus } from '@sutura/domain/videos';
import type { videos } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/** The rules of an editor's draft: kept ranges and steps snapped to the source's frames. */

type VideoRow = typeof videos.$inferSelect;

/** Half a frame: what separates two times that snap to the same frame. */
const halfFrame = (frameRate: number) => 0.5 / frameRate;
/** The frame rate the editor works at: the processed source's (always known once processed). */
export const frameRateOf = (video: Pick<VideoRow, 'frameRate'>) => video.frameRate ?? 25;

/** Video statuses after a submit: the work is the editor's, read-only. */
export const SUBMITTED: readonly VideoStatus[] = ['processing', 'pending_analysis', 'in_analysis', 'analysed'];

/**
 * Checks and snaps kept ranges to the source's frames: inside the source, sorted, not
 * overlapping, each at least MIN_TRIM_SECONDS long.
 */
export function validateTrims(trims: readonly Trim[], duration: number, frameRate: number): Trim[] {
  const snapped = trims.map((t) => ({ start: snapToFrame(t.start, frameRate), end: snapToFrame(t.end, frameRate) }));
  let previousEnd = 0;
  for (const t of snapped) {
    if (t.end > duration + halfFrame(frameRate) || t.start < previousEnd - 1e-9) throw new AppError('TRIM_POSITION');
    if (t.end - t.start < MIN_TRIM_SECONDS - halfFrame(frameRate)) throw new AppError('TRIM_TOO_SHORT', { min: MIN_TRIM_SECONDS });
    previousEnd = t.end;
  }
  return snapped.map((t) => ({ start: t.start, end: Math.min(t.end, snapToFrame(duration, frameRate)) }));
}

/** A step's start and end must each fall inside a kept range, the end after the start. */
export function validateSteps(steps: readonly DraftStep[], trims: readonly Trim[], frameRate: number): DraftStep[] {
  if (steps.length > MAX_STEPS) throw new AppError('STEPS_MAX');
  const eps = 1e-6;
  const within = (time: number, edge: 'start' | 'end') =>
    trims.some((t) => (edge === 'start' ? time >= t.start - eps && time < t.end - eps : time > t.start + eps && time <= t.end + eps));
  return steps.map((step) => {
    const start = snapToFrame(step.start, frameRate);
    const end = snapToFrame(step.end, frameRate);
    if (end <= start) throw new AppError('STEP_ORDER');
    if (!within(start, 'start') || !within(end, 'end')) throw new AppError('STEP_OUTSIDE_TRIMS');
    return { ...step, start, end, name: step.surgeryStepId ? '' : step.name.trim() };
  });
}
