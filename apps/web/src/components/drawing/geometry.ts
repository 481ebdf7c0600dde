import type { DrawingPoint, DrawingShape } from '@sutura/domain/drawing';

/** Where the picture sits in a box (CSS pixels): the video element letterboxes it (object-fit: contain). */
export interface PictureRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The picture's rectangle inside a box of `boxWidth` × `boxHeight` for a video of `videoWidth` × `videoHeight`. */
export function containRect(boxWidth: number, boxHeight: number, videoWidth: number, videoHeight: number): PictureRect {
  if (!videoWidth || !videoHeight || !boxWidth || !boxHeight) return { left: 0, top: 0, width: boxWidth, height: boxHeight };
  const scale = Math.min(boxWidth / videoWidth, boxHeight / videoHeight);
  const width = videoWidth * scale;
  const height = videoHeight * scale;
  return { left: (boxWidth - width) / 2, top: (boxHeight - height) / 2, width, height };
}

/** The picture of a video element, relative to its offset parent. */
export function pictureRect(video: HTMLVideoElement): PictureRect {
  const inner = containRect(video.clientWidth, video.clientHeight, video.videoWidth, video.videoHeight);
  return { ...inner, left: video.offsetLeft + inner.left, top: video.offsetTop + inner.top };
}

const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

/** A pointer position (client pixels) in video coordinates, given the picture's client rectangle. */
export function toVideoPoint(clientX: number, clientY: number, rect: DOMRect | PictureRect): DrawingPoint {
  return [clamp01((clientX - rect.left) / rect.width), clamp01((clientY - rect.top) / rect.height)];
}

/** Rounded to 1/10 000 of the picture: sharper than any screen, and a lighter JSON. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;
export const roundPoint = ([x, y]: DrawingPoint): DrawingPoint => [round(x), round(y)];

/** Moves a shape by (dx, dy) in video coordinates, kept inside the picture. */
export function moveShape(shape: DrawingShape, dx: number, dy: number): DrawingShape {
  const move = ([x, y]: DrawingPoint): DrawingPoint => roundPoint([clamp01(x + dx), clamp01(y + dy)]);
  switch (shape.kind) {
    case 'freehand':
      return { ...shape, points: shape.points.map(move) };
    case 'line':
    case 'arrow':
      return { ...shape, from: move(shape.from), to: move(shape.to) };
    case 'ellipse':
      return { ...shape, center: move(shape.center) };
    case 'text':
      return { ...shape, at: move(shape.at) };
  }
}

/**
 * Thins a freehand stroke to at most `max` points, keeping its ends (a long stroke on a fast
 * pointer makes hundreds of points).
 */
export function thin(points: readonly DrawingPoint[], max: number): DrawingPoint[] {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]!);
}
