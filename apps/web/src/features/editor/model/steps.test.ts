import { describe, expect, it } from 'vitest';
import { addStep, deleteStep, moveStepEdge, renameStep, reorderStep, stepProblems, type Step, type StepLimits } from './steps';
import type { Trim } from './trims';

const trims: Trim[] = [
  { key: 'a', start: 10, end: 20 },
  { key: 'b', start: 30, end: 60 },
];
const limits: StepLimits = { fps: 25, maxSteps: 3, minSteps: 2, defaultSeconds: 30 };

function step(key: string, start: number, end: number, name = key): Step {
  return { key, surgeryStepId: null, name, start, end };
}

describe('steps (SPEC §5)', () => {
  it('a new step starts at the playhead inside a kept range and ends at most with it', () => {
    const result = addStep([], 12, trims, limits, 's1');
    expect(result).toEqual({ ok: true, steps: [{ key: 's1', surgeryStepId: null, name: '', start: 12, end: 20 }] });
  });

  it('is refused outside the kept ranges and past the maximum', () => {
    expect(addStep([], 25, trims, limits, 's1')).toEqual({ ok: false, reason: 'STEP_OUTSIDE_TRIMS' });
    const full = [step('1', 10, 11), step('2', 11, 12), step('3', 12, 13)];
    expect(addStep(full, 40, trims, limits, 's4')).toEqual({ ok: false, reason: 'STEPS_MAX' });
  });

  it('asks for at least two steps, every one named', () => {
    expect(stepProblems([step('1', 10, 11)], limits)).toEqual(['STEPS_MIN']);
    expect(stepProblems([step('1', 10, 11), step('2', 30, 31, ' ')], limits)).toEqual(['STEPS_UNNAMED']);
    expect(stepProblems([step('1', 10, 11, '')], limits)).toEqual(['STEPS_MIN', 'STEPS_UNNAMED']);
    expect(stepProblems([step('1', 10, 11), step('2', 30, 31)], limits)).toEqual([]);
  });

  it('an edge dragged into a cut lands on the nearest kept time', () => {
    const steps = [step('1', 12, 18)];
    expect(moveStepEdge(steps, '1', 'end', 24, trims, 25)[0]!.end).toBe(20);
    expect(moveStepEdge(steps, '1', 'end', 27, trims, 25)[0]!.end).toBe(30.04);
    // A start never sits on the end of a range, an end never on the start of one.
    expect(moveStepEdge([step('2', 30, 40)], '2', 'start', 20, trims, 25)[0]!.start).toBe(19.96);
    expect(moveStepEdge([step('2', 12, 15)], '2', 'end', 30, trims, 25)[0]!.end).toBe(30.04);
    expect(moveStepEdge(steps, '1', 'start', 19.99, trims, 25)[0]!.start).toBe(17.96);
  });

  it('renames, reorders and deletes', () => {
    const steps = [step('1', 10, 11), step('2', 30, 31)];
    expect(renameStep(steps, '2', { surgeryStepId: 'v', name: 'Dissection' })[1]).toMatchObject({ surgeryStepId: 'v', name: 'Dissection' });
    expect(reorderStep(steps, '2', -1).map((s) => s.key)).toEqual(['2', '1']);
    expect(reorderStep(steps, '2', 1).map((s) => s.key)).toEqual(['1', '2']);
    expect(deleteStep(steps, '1').map((s) => s.key)).toEqual(['2']);
  });
});
