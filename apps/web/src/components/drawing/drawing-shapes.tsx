import type { KeyboardEvent, PointerEvent } from 'react';
import { DRAWING_COLOR_HEX, DRAWING_OUTLINE, DRAWING_STYLE, type DrawingShape } from '@sutura/domain/drawing';

interface DrawingShapesProps {
  shapes: readonly DrawingShape[];
  /** The picture's size in pixels (its aspect ratio is what matters): the shapes' coordinates scale to it. */
  width: number;
  height: number;
  selected?: number | null;
  /** When set, each shape is focusable and selectable (the editor). */
  onShapeKeyDown?(index: number, event: KeyboardEvent<SVGGElement>): void;
  onShapeFocus?(index: number): void;
  onShapePointerDown?(index: number, event: PointerEvent<SVGGElement>): void;
  shapeLabel?(shape: DrawingShape, index: number): string;
}

function ShapePath({ shape, w, h, stroke, color }: { shape: DrawingShape; w: number; h: number; stroke: number; color: string }) {
  const common = { fill: 'none', stroke: color, strokeWidth: stroke, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;
  switch (shape.kind) {
    case 'freehand':
      return <polyline points={shape.points.map(([x, y]) => `${x * w},${y * h}`).join(' ')} {...common} />;
    case 'line':
      return <line x1={shape.from[0] * w} y1={shape.from[1] * h} x2={shape.to[0] * w} y2={shape.to[1] * h} {...common} />;
    case 'arrow': {
      const [ax, ay, bx, by] = [shape.from[0] * w, shape.from[1] * h, shape.to[0] * w, shape.to[1] * h];
      const angle = Math.atan2(by - ay, bx - ax);
      const head = DRAWING_STYLE.arrowHead * h;
      const wing = (side: number) => `${bx - head * Math.cos(angle + side * 0.5)},${by - head * Math.sin(angle + side * 0.5)}`;
      return <path d={`M${ax},${ay} L${bx},${by} M${wing(-1)} L${bx},${by} L${wing(1)}`} {...common} />;
    }
    case 'ellipse':
      return <ellipse cx={shape.center[0] * w} cy={shape.center[1] * h} rx={shape.rx * w} ry={shape.ry * h} {...common} />;
    case 'text':
      return null;
  }
}

/**
 * The shapes of a drawing as SVG, in the picture's own pixels (viewBox), so that the same drawing
 * lands on the same spot of the picture at any size. Each stroke has a dark outline under it.
 */
export function DrawingShapes({
  shapes,
  width: w,
  height: h,
  selected = null,
  onShapeKeyDown,
  onShapeFocus,
  onShapePointerDown,
  shapeLabel,
}: DrawingShapesProps) {
  const stroke = DRAWING_STYLE.stroke * h;
  const outline = stroke + 2 * DRAWING_STYLE.outline * h;
  const interactive = Boolean(onShapeKeyDown);
  return (
    <>
      {shapes.map((shape, index) => {
        const color = DRAWING_COLOR_HEX[shape.color];
        const isSelected = index === selected;
        return (
          <g
            key={index}
            data-testid="drawing-shape"
            data-kind={shape.kind}
            tabIndex={interactive ? 0 : undefined}
            role={interactive ? 'button' : undefined}
            aria-label={interactive ? shapeLabel?.(shape, index) : undefined}
            aria-pressed={interactive ? isSelected : undefined}
            onKeyDown={interactive ? (e) => onShapeKeyDown?.(index, e) : undefined}
            onFocus={interactive ? () => onShapeFocus?.(index) : undefined}
            onPointerDown={onShapePointerDown ? (e) => onShapePointerDown(index, e) : undefined}
            style={{ outline: 'none', cursor: interactive ? 'move' : undefined }}
          >
            {shape.kind === 'text' ? (
              <text
                x={shape.at[0] * w}
                y={shape.at[1] * h}
                fontSize={DRAWING_STYLE.text * h}
                fontWeight={700}
                fontFamily="Inter, Roboto, Arial, sans-serif"
                fill={color}
                stroke={DRAWING_OUTLINE}
                strokeWidth={DRAWING_STYLE.outline * h * 2}
                paintOrder="stroke"
              >
                {shape.text}
              </text>
            ) : (
              <>
                {isSelected && <ShapePath shape={shape} w={w} h={h} stroke={outline + stroke * 2} color="rgba(24,255,255,0.45)" />}
                <ShapePath shape={shape} w={w} h={h} stroke={outline} color={DRAWING_OUTLINE} />
                <ShapePath shape={shape} w={w} h={h} stroke={stroke} color={color} />
              </>
            )}
            {isSelected && shape.kind === 'text' && (
              <ShapePath
                shape={{
                  kind: 'line',
                  color: shape.color,
                  from: [shape.at[0], shape.at[1] + 0.01],
                  to: [shape.at[0] + 0.1, shape.at[1] + 0.01],
                }}
                w={w}
                h={h}
                stroke={stroke}
                color="rgba(24,255,255,0.8)"
              />
            )}
          </g>
        );
      })}
    </>
  );
}
