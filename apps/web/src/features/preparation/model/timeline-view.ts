import { clamp } from './timecode';

/** The stretch of the source the timeline shows: from the whole video down to a few frames. */
export interface TimelineView {
  start: number;
  span: number;
}

/** At the deepest zoom this many frames fill the timeline, each wide enough to grab. */
export const MIN_VISIBLE_FRAMES = 12;

export function fitView(duration: number): TimelineView {
  return { start: 0, span: Math.max(duration, 0) };
}

export function minSpan(duration: number, fps: number): number {
  return Math.min(duration, MIN_VISIBLE_FRAMES / fps);
}

/** Zooms by `factor` (above 1 closer) around `anchor`, which keeps its place on screen. */
export function zoomView(view: TimelineView, factor: number, anchor: number, duration: number, fps: number): TimelineView {
  const span = clamp(view.span / factor, minSpan(duration, fps), duration);
  const ratio = view.span > 0 ? (anchor - view.start) / view.span : 0;
  return { start: clamp(anchor - ratio * span, 0, duration - span), span };
}

/** Scrolls the least needed to show `time`, with a margin so the playhead never sits on the edge. */
export function followView(view: TimelineView, time: number, duration: number): TimelineView {
  const margin = view.span * 0.05;
  if (time >= view.start + margin && time <= view.start + view.span - margin) return view;
  const start = time < view.start + margin ? time - margin : time - view.span + margin;
  const next = clamp(start, 0, Math.max(0, duration - view.span));
  return next === view.start ? view : { start: next, span: view.span };
}

export function panView(view: TimelineView, delta: number, duration: number): TimelineView {
  return { start: clamp(view.start + delta, 0, Math.max(0, duration - view.span)), span: view.span };
}

const TICK_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
const TICK_FRAMES = [1, 2, 5, 10];

/** Spacing of the time marks so that labels stay about `minPx` apart; frames when zoomed far in. */
export function tickStep(view: TimelineView, widthPx: number, fps: number, minPx = 80): number {
  const pxPerSecond = view.span > 0 ? widthPx / view.span : 0;
  if (pxPerSecond <= 0) return 1;
  for (const frames of TICK_FRAMES) if ((frames / fps) * pxPerSecond >= minPx) return frames / fps;
  for (const seconds of TICK_SECONDS) if (seconds * pxPerSecond >= minPx) return seconds;
  return TICK_SECONDS.at(-1)!;
}

export function ticks(view: TimelineView, step: number): number[] {
  const first = Math.ceil(view.start / step - 1e-9);
  const out: number[] = [];
  for (let i = first; i * step <= view.start + view.span + 1e-9 && out.length < 500; i++) out.push(i * step);
  return out;
}

/** The nearest mark within `threshold` seconds, else the time itself (cut suggestions attract). */
export function snapTo(time: number, marks: readonly number[], threshold: number): number {
  let best = time;
  let distance = threshold;
  for (const mark of marks) {
    const d = Math.abs(mark - time);
    if (d <= distance) {
      distance = d;
      best = mark;
    }
  }
  return best;
}
