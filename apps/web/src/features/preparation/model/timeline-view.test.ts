import { describe, expect, it } from 'vitest';
import { fitView, followView, MIN_VISIBLE_FRAMES, snapTo, tickStep, ticks, zoomView } from './timeline-view';

describe('timeline view', () => {
  it('zooms around an anchor that stays in place, from the whole video down to a few frames', () => {
    const whole = fitView(100);
    const closer = zoomView(whole, 2, 50, 100, 25);
    expect(closer).toEqual({ start: 25, span: 50 });
    let view = whole;
    for (let i = 0; i < 20; i++) view = zoomView(view, 2, 80, 100, 25);
    expect(view.span).toBeCloseTo(MIN_VISIBLE_FRAMES / 25);
    expect(view.start).toBeLessThanOrEqual(80);
    expect(view.start + view.span).toBeGreaterThanOrEqual(80);
    expect(zoomView(view, 0.001, 80, 100, 25)).toEqual(whole);
  });

  it('scrolls to keep the playhead in sight', () => {
    const view = { start: 0, span: 10 };
    expect(followView(view, 5, 100)).toBe(view);
    expect(followView(view, 30, 100).start).toBeCloseTo(20.5);
    expect(followView({ start: 50, span: 10 }, 20, 100).start).toBeCloseTo(19.5);
  });

  it('marks seconds, or frames when zoomed in', () => {
    expect(tickStep({ start: 0, span: 3600 }, 1000, 25)).toBe(300);
    expect(tickStep({ start: 0, span: 0.5 }, 1000, 25)).toBe(1 / 25);
    expect(ticks({ start: 0.5, span: 3 }, 1)).toEqual([1, 2, 3]);
  });

  it('snaps to the nearest suggestion within reach only', () => {
    expect(snapTo(10.2, [5, 10, 10.3], 0.5)).toBe(10.3);
    expect(snapTo(12, [5, 10], 0.5)).toBe(12);
  });
});
