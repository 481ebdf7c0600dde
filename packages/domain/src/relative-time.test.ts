import { describe, expect, it } from 'vitest';
import { formatRelativeTime, relativeTimeParts } from './relative-time.ts';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('relative time (SPEC §9 thresholds)', () => {
  it.each([
    [59 * S, { value: 59, unit: 'second' }],
    [60 * S, { value: 1, unit: 'minute' }],
    [59 * M, { value: 59, unit: 'minute' }],
    [60 * M, { value: 1, unit: 'hour' }],
    [23 * H, { value: 23, unit: 'hour' }],
    [24 * H, { value: 1, unit: 'day' }],
    [30 * D, { value: 30, unit: 'day' }],
    [31 * D, { value: 1, unit: 'month' }],
    [364 * D, { value: 11, unit: 'month' }],
    [366 * D, { value: 1, unit: 'year' }],
    [800 * D, { value: 2, unit: 'year' }],
  ])('%i ms ago', (ms, expected) => {
    expect(relativeTimeParts(ago(ms), now)).toEqual(expected);
  });

  it('speaks French and English', () => {
    expect(formatRelativeTime(ago(3 * H), now, 'fr')).toBe('il y a 3 heures');
    expect(formatRelativeTime(ago(3 * H), now, 'en')).toBe('3 hours ago');
    expect(formatRelativeTime(ago(2 * S), now, 'fr')).toBe("à l'instant");
    expect(formatRelativeTime(ago(45 * S), now, 'en')).toBe('45 seconds ago');
    // A clock slightly ahead never gives a time in the future.
    expect(formatRelativeTime(new Date(now.getTime() + 5000), now, 'en')).toBe('just now');
  });
});
