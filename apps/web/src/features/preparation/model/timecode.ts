/**
 * Times in the preparation are seconds on the source, always on a frame boundary: the render is
 * frame-accurate, so what the editor sees is what the cut will be.
 */

/** Used when the source's frame rate is unknown (it is probed on upload; this is the common case). */
export const FALLBACK_FRAME_RATE = 25;

export function frameRateOf(rate: number | null | undefined): number {
  return rate && Number.isFinite(rate) && rate > 0 ? rate : FALLBACK_FRAME_RATE;
}

export function toFrame(seconds: number, fps: number): number {
  return Math.round(seconds * fps);
}

/** The start of the frame nearest to a time. */
export function snapToFrame(seconds: number, fps: number): number {
  return toFrame(seconds, fps) / fps;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

const pad = (n: number, size = 2) => String(n).padStart(size, '0');

/**
 * A time to the frame, `h:mm:ss:ff` (the frame number after the last colon, as editors are used
 * to): always with the hours, so that a minute is never read as an hour.
 */
export function formatTimecode(seconds: number, fps: number): string {
  const rate = Math.round(fps);
  const frames = Math.max(0, toFrame(Number.isFinite(seconds) ? seconds : 0, fps));
  const whole = Math.floor(frames / fps + 1e-9);
  const frame = Math.min(rate - 1, frames - Math.round(whole * fps));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${pad(m)}:${pad(s)}:${pad(Math.max(0, frame), String(rate - 1).length)}`;
}
