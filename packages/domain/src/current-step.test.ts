import { describe, expect, it } from 'vitest';
import { currentStepIndex } from './current-step.ts';

const steps = [
  { start: 0, end: 5 },
  { start: 5, end: 10 },
];

describe('current step (SPEC §4)', () => {
  it('is the last step started at the time plus 50 ms', () => {
    expect(currentStepIndex(steps, 4.94)).toBe(0);
    expect(currentStepIndex(steps, 4.95)).toBe(1);
    expect(currentStepIndex(steps, 100)).toBe(1);
  });

  it('is none before the first step, whatever the order of the list', () => {
    expect(currentStepIndex([{ start: 1 }], 0.5)).toBe(-1);
    expect(currentStepIndex([{ start: 8 }, { start: 2 }], 3)).toBe(1);
  });
});
