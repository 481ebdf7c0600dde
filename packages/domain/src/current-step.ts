import { CURRENT_STEP_OFFSET_MS } from './limits.ts';

/**
 * SPEC §4: during playback the current step is the last one whose start is at or before the
 * current time plus 50 ms. Steps may come in any order; -1 before the first one starts.
 */
export function currentStepIndex(steps: readonly { start: number }[], time: number, offsetMs = CURRENT_STEP_OFFSET_MS): number {
  let current = -1;
  let latest = -Infinity;
  steps.forEach((step, index) => {
    if (step.start <= time + offsetMs / 1000 && step.start >= latest) {
      latest = step.start;
      current = index;
    }
  });
  return current;
}
