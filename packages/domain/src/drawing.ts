import { z } from 'zod';

/**
 * A drawing over one frame of a video (issue 18): the expert's (or, on a best case, the
 * administrator's) shapes, as vectors in the coordinates of the video's picture — x and y from 0
 * to 1 across its width and height, whatever the size of the player, its letterboxing or the
 * screen — with the presentation time of the frame it was drawn on.
 */

/** Colours that read on surgical images (red and orange would vanish on tissue), each drawn with a dark outline. */
export const DRAWING_COLORS = ['yellow', 'cyan', 'white', 'green'] as const;
export type DrawingColor = (typeof DRAWING_COLORS)[number];
export const DRAWING_COLOR_HEX: Record<DrawingColor, string> = {
  yellow: '#FFEB3B',
  cyan: '#18FFFF',
  white: '#FFFFFF',
  green: '#76FF03',
};
/** The outline under every stroke and letter, so the colour reads on light and dark tissue alike. */
export const DRAWING_OUTLINE = '#000000';

export const DRAWING_TOOLS = ['freehand', 'arrow', 'ellipse', 'line', 'text'] as const;
export type DrawingTool = (typeof DRAWING_TOOLS)[number];

export const DRAWING_LIMITS = {
  shapesMax: 30,
  /** Points of one freehand stroke (the editor thins a stroke past this). */
  strokePointsMax: 400,
  /** Points of the whole drawing. */
  pointsMax: 3000,
  textMax: 80,
} as const;

/**
 * Sizes as fractions of the picture's height, so that a drawing looks the same on a phone, on a
 * desktop and in the PDF.
 */
export const DRAWING_STYLE = { stroke: 0.008, outline: 0.004, text: 0.05, arrowHead: 0.035 } as const;

const coordinate = z
  .number({ error: 'INVALID_VALUE' })
  .min(0, { error: 'INVALID_VALUE' })
  .max(1, { error: 'INVALID_VALUE' })
  .refine(Number.isFinite, { error: 'INVALID_VALUE' });
const point = z.tuple([coordinate, coordinate], { error: 'INVALID_VALUE' });
export type DrawingPoint = z.infer<typeof point>;
const color = z.enum(DRAWING_COLORS, { error: 'INVALID_VALUE' });

const segment = { color, from: point, to: point };
export const drawingShapeSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('freehand'),
        color,
        points: z.array(point).min(2, { error: 'INVALID_VALUE' }).max(DRAWING_LIMITS.strokePointsMax, { error: 'INVALID_VALUE' }),
      })
      .strict(),
    z.object({ kind: z.literal('line'), ...segment }).strict(),
    z.object({ kind: z.literal('arrow'), ...segment }).strict(),
    /** `rx` across the width, `ry` across the height: a circle on screen has rx ≠ ry unless the picture is square. */
    z.object({ kind: z.literal('ellipse'), color, center: point, rx: coordinate, ry: coordinate }).strict(),
    z
      .object({
        kind: z.literal('text'),
        color,
        at: point,
        text: z
          .string({ error: 'INVALID_VALUE' })
          .trim()
          .min(1, { error: 'FIELD_REQUIRED' })
          .max(DRAWING_LIMITS.textMax, { error: 'TEXT_TOO_LONG' }),
      })
      .strict(),
  ],
  { error: 'INVALID_VALUE' },
);
export type DrawingShape = z.infer<typeof drawingShapeSchema>;

export function shapePoints(shape: DrawingShape): number {
  switch (shape.kind) {
    case 'freehand':
      return shape.points.length;
    case 'line':
    case 'arrow':
      return 2;
    case 'ellipse':
    case 'text':
      return 1;
  }
}

export const drawingSchema = z
  .object({
    /** Seconds on the video: the presentation time of the frame drawn on. */
    time: z.number({ error: 'FIELD_REQUIRED' }).min(0, { error: 'INVALID_VALUE' }).max(86_400, { error: 'INVALID_VALUE' }),
    shapes: z.array(drawingShapeSchema).min(1, { error: 'FIELD_REQUIRED' }).max(DRAWING_LIMITS.shapesMax, { error: 'INVALID_VALUE' }),
  })
  .strict()
  .refine((d) => d.shapes.reduce((n, s) => n + shapePoints(s), 0) <= DRAWING_LIMITS.pointsMax, {
    error: 'INVALID_VALUE',
    path: ['shapes'],
  });
export type Drawing = z.infer<typeof drawingSchema>;

/** What a screen reader says of a drawing besides its comment: how many shapes, of which kinds. */
export function drawingKinds(drawing: Pick<Drawing, 'shapes'>): Partial<Record<DrawingShape['kind'], number>> {
  const out: Partial<Record<DrawingShape['kind'], number>> = {};
  for (const s of drawing.shapes) out[s.kind] = (out[s.kind] ?? 0) + 1;
  return out;
}

/**
 * The frame shown at `time` on a video of `frameRate` frames a second starting at 0: the last one
 * that starts at or before it (a millisecond of slack for times read back from a float).
 */
export function frameIndexAt(time: number, frameRate: number): number {
  return Math.max(0, Math.floor((time + 0.001) * frameRate));
}

/**
 * Best-case drawings (issue 18, point 3): an administrator's drawings over frames of a best
 * case's video, each with its note (the drawing's text alternative).
 */
export const bestCaseDrawingBody = z
  .object({
    drawing: drawingSchema,
    note: z.string({ error: 'FIELD_REQUIRED' }).trim().min(1, { error: 'FIELD_REQUIRED' }).max(1000, { error: 'TEXT_TOO_LONG' }),
  })
  .strict();
export type BestCaseDrawingBody = z.infer<typeof bestCaseDrawingBody>;

export const bestCaseDrawingSchema = z.object({
  id: z.string(),
  note: z.string(),
  drawing: drawingSchema,
  createdAt: z.string(),
});
export type BestCaseDrawing = z.infer<typeof bestCaseDrawingSchema>;
