import { describe, expect, it } from 'vitest';
import { formatTimecode, frameRateOf, snapToFrame, toFrame } from './timecode';

describe('timecode', () => {
  it('shows a time to the frame', () => {
    expect(formatTimecode(0, 25)).toBe('0:00:00:00');
    expect(formatTimecode(1 + 12 / 25, 25)).toBe('0:00:01:12');
    expect(formatTimecode(3725 + 24 / 25, 25)).toBe('1:02:05:24');
    expect(formatTimecode(61, 30)).toBe('0:01:01:00');
  });

  it('counts frames at non-integer rates without drifting to a frame that does not exist', () => {
    const fps = 30000 / 1001;
    expect(formatTimecode(snapToFrame(10, fps), fps)).toMatch(/^0:00:\d\d:\d\d$/);
    expect(toFrame(snapToFrame(123.456, fps), fps)).toBe(toFrame(123.456, fps));
  });

  it('falls back to 25 fps when the rate is unknown', () => {
    expect(frameRateOf(null)).toBe(25);
    expect(frameRateOf(0)).toBe(25);
    expect(frameRateOf(50)).toBe(50);
  });
});
