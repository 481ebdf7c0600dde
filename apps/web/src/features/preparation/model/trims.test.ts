import { describe, expect, it } from 'vitest';
import { addTrim, deleteTrim, keptSeconds, moveTrim, resizeTrim, trimState, type TrimLimits, type TrimState } from './trims';

const limits: TrimLimits = { duration: 100, fps: 25, minSeconds: 1, defaultSeconds: 10, maxTrims: 3 };

function added(state: TrimState, at: number, key: string): TrimState {
  const result = addTrim(state, at, limits, key);
  if (!result.ok) throw new Error(result.reason);
  return result.state;
}

describe('new trim (SPEC §5)', () => {
  it('keeps a range of the default length at the playhead, on a frame', () => {
    const state = added(trimState([]), 12.013, 'a');
    expect(state.trims).toEqual([{ key: 'a', start: 12, end: 22 }]);
  });

  it('is refused until the last trim has been modified', () => {
    const first = added(trimState([]), 0, 'a');
    expect(addTrim(first, 50, limits, 'b')).toEqual({ ok: false, reason: 'TRIM_NOT_MODIFIED' });
    const moved = moveTrim(first, 'a', 1, limits);
    expect(addTrim(moved, 50, limits, 'b').ok).toBe(true);
    const resized = resizeTrim(first, 'a', 'end', 5, limits);
    expect(addTrim(resized, 50, limits, 'b').ok).toBe(true);
  });

  it('a move that changes nothing does not count as a modification', () => {
    const first = added(trimState([]), 0, 'a');
    const stuck = moveTrim(first, 'a', -5, limits);
    expect(stuck).toBe(first);
    expect(addTrim(stuck, 50, limits, 'b')).toEqual({ ok: false, reason: 'TRIM_NOT_MODIFIED' });
  });

  it('deleting the untouched trim lifts the rule; trims loaded from the server count as modified', () => {
    const first = added(trimState([]), 0, 'a');
    expect(addTrim(deleteTrim(first, 'a'), 50, limits, 'b').ok).toBe(true);
    expect(addTrim(trimState([{ key: 'x', start: 0, end: 10 }]), 50, limits, 'b').ok).toBe(true);
  });

  it('is refused inside another range', () => {
    const state = trimState([{ key: 'x', start: 10, end: 20 }]);
    expect(addTrim(state, 15, limits, 'b')).toEqual({ ok: false, reason: 'TRIM_POSITION' });
    expect(addTrim(state, 10, limits, 'b')).toEqual({ ok: false, reason: 'TRIM_POSITION' });
  });

  it('is shortened to fit before the next range, and refused where not even the shortest fits', () => {
    const state = trimState([{ key: 'x', start: 10, end: 20 }]);
    expect(added(state, 6, 'b').trims[0]).toEqual({ key: 'b', start: 6, end: 10 });
    expect(addTrim(state, 9.5, limits, 'c')).toEqual({ ok: false, reason: 'TRIM_POSITION' });
    expect(addTrim(state, 99.5, limits, 'c')).toEqual({ ok: false, reason: 'TRIM_POSITION' });
    expect(added(state, 99, 'd').trims.at(-1)).toEqual({ key: 'd', start: 99, end: 100 });
  });

  it('is refused past the most ranges a preparation keeps', () => {
    const full = trimState([
      { key: 'x', start: 0, end: 5 },
      { key: 'y', start: 10, end: 15 },
      { key: 'z', start: 20, end: 25 },
    ]);
    expect(addTrim(full, 50, limits, 'b')).toEqual({ ok: false, reason: 'TRIM_POSITION' });
  });
});

describe('moving and resizing', () => {
  const two = trimState([
    { key: 'a', start: 10, end: 20 },
    { key: 'b', start: 30, end: 40 },
  ]);

  it('a move stops at the neighbours and the ends of the source', () => {
    expect(moveTrim(two, 'a', 15, limits).trims[0]).toEqual({ key: 'a', start: 20, end: 30 });
    expect(moveTrim(two, 'a', -50, limits).trims[0]).toEqual({ key: 'a', start: 0, end: 10 });
    expect(moveTrim(two, 'b', 100, limits).trims[1]).toEqual({ key: 'b', start: 90, end: 100 });
  });

  it('moves frame by frame', () => {
    expect(moveTrim(two, 'a', 1 / 25, limits).trims[0]).toEqual({ key: 'a', start: 10.04, end: 20.04 });
  });

  it('a resize keeps the shortest length and never overlaps', () => {
    expect(resizeTrim(two, 'a', 'end', 35, limits).trims[0]!.end).toBe(30);
    expect(resizeTrim(two, 'a', 'end', 5, limits).trims[0]!.end).toBe(11);
    expect(resizeTrim(two, 'b', 'start', 12, limits).trims[1]!.start).toBe(20);
    expect(resizeTrim(two, 'b', 'start', 45, limits).trims[1]!.start).toBe(39);
  });

  it('counts the kept length', () => {
    expect(keptSeconds(two.trims)).toBe(20);
  });
});
