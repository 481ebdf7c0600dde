import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('picks the largest unit that keeps the figure at 1 or more', () => {
    expect(formatBytes(512, 'en')).toBe('512 byte');
    expect(formatBytes(4_000_000_000, 'en')).toBe('4 GB');
    expect(formatBytes(480e12, 'en')).toBe('480 TB');
    // French puts a narrow no-break space between the figure and its unit.
    expect(formatBytes(1_500_000, 'fr')).toBe('1,5\u202fMo');
  });
});
