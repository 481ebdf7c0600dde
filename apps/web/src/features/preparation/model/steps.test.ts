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

  it('a new step inside a step splits it: the first part keeps its name, the new one follows it in the list', () => {
    const steps = [step('1', 10, 18, 'Dissection'), step('2', 30, 40, 'Suture')];
    const result = addStep(steps, 14, trims, limits, 'n');
    expect(result).toEqual({
      ok: true,
      steps: [
        { key: '1', surgeryStepId: null, name: 'Dissection', start: 10, end: 14 },
        { key: 'n', surgeryStepId: null, name: '', start: 14, end: 18 },
        { key: '2', surgeryStepId: null, name: 'Suture', start: 30, end: 40 },
      ],
    });
    // Split again one frame later: three parts that touch and never overlap.
    const again = addStep((result as { steps: Step[] }).steps, 14.04, trims, { ...limits, maxSteps: 30 }, 'm');
    expect(again.ok && again.steps.map((s) => [s.key, s.start, s.end])).toEqual([
      ['1', 10, 14],
      ['n', 14, 14.04],
      ['m', 14.04, 18],
      ['2', 30, 40],
    ]);
  });

  it('splits the innermost of steps the editor made overlap, and a step across a cut at the cut', () => {
    const nested = [step('outer', 10, 20), step('inner', 12, 16)];
    const inner = addStep(nested, 14, trims, limits, 'n');
    expect(inner.ok && inner.steps.map((s) => [s.key, s.start, s.end])).toEqual([
      ['outer', 10, 20],
      ['inner', 12, 14],
      ['n', 14, 16],
    ]);
    // From 15 s to 40 s, over the cut between 20 s and 30 s: split on the first kept frame after it.
    const across = addStep([step('1', 15, 40)], 30, trims, limits, 'n');
    expect(across.ok && across.steps.map((s) => [s.key, s.start, s.end])).toEqual([
      ['1', 15, 20],
      ['n', 30, 40],
    ]);
  });

  it('refuses a second step on the first frame of another, and otherwise stops a new step where the next begins', () => {
    const steps = [step('1', 10, 14), step('2', 14, 18)];
    expect(addStep(steps, 14, trims, limits, 'n')).toEqual({ ok: false, reason: 'STEP_STARTS_HERE' });
    expect(addStep(steps, 14.01, trims, limits, 'n')).toEqual({ ok: false, reason: 'STEP_STARTS_HERE' });
    const before = addStep([step('2', 35, 40)], 31, trims, limits, 'n');
    expect(before.ok && before.steps.at(-1)).toMatchObject({ start: 31, end: 35 });
    // At the end of a step (its last frame excluded) a new one starts right after it.
    const after = addStep([step('1', 10, 14)], 14, trims, limits, 'n');
    expect(after.ok && after.steps.at(-1)).toMatchObject({ start: 14, end: 20 });
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
