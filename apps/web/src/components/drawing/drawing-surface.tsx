import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { DRAWING_LIMITS, type DrawingPoint, type DrawingShape } from '@sutura/domain/drawing';
import { DrawingShapes } from '@/components/drawing/drawing-shapes';
import { moveShape, roundPoint, thin, toVideoPoint } from '@/components/drawing/geometry';
import type { DrawingEditorState } from '@/components/drawing/use-drawing-editor';
import { usePictureRect } from '@/components/drawing/use-picture-rect';

/** Shorter than this (in video coordinates) is a slip of the pointer, not a shape. */
const MIN_SIZE = 0.006;
/** Arrow keys move a selected shape this far, Shift+arrow five times as far. */
const KEY_STEP = 0.01;

function shapeFrom(editor: DrawingEditorState, start: DrawingPoint, end: DrawingPoint, trail: DrawingPoint[]): DrawingShape | null {
  const { color } = editor;
  const size = Math.hypot(end[0] - start[0], end[1] - start[1]);
  switch (editor.tool) {
    case 'freehand':
      return trail.length >= 2 ? { kind: 'freehand', color, points: thin(trail, DRAWING_LIMITS.strokePointsMax).map(roundPoint) } : null;
    case 'line':
    case 'arrow':
      return size >= MIN_SIZE ? { kind: editor.tool, color, from: roundPoint(start), to: roundPoint(end) } : null;
    case 'ellipse': {
      const rx = Math.min(1, Math.abs(end[0] - start[0]));
      const ry = Math.min(1, Math.abs(end[1] - start[1]));
      return rx + ry >= MIN_SIZE
        ? { kind: 'ellipse', color, center: roundPoint(start), rx: roundPoint([rx, ry])[0], ry: roundPoint([rx, ry])[1] }
        : null;
    }
    case 'text':
    case 'select':
      return null;
  }
}

/** A shape of the chosen tool in the middle of the picture: what Enter adds from the keyboard. */
function centredShape(editor: DrawingEditorState): DrawingShape | null {
  const { color } = editor;
  switch (editor.tool) {
    case 'freehand':
      return {
        kind: 'freehand',
        color,
        points: [
          [0.45, 0.5],
          [0.48, 0.46],
          [0.52, 0.54],
          [0.55, 0.5],
        ],
      };
    case 'line':
      return { kind: 'line', color, from: [0.4, 0.5], to: [0.6, 0.5] };
    case 'arrow':
      return { kind: 'arrow', color, from: [0.35, 0.65], to: [0.5, 0.5] };
    case 'ellipse':
      return { kind: 'ellipse', color, center: [0.5, 0.5], rx: 0.08, ry: 0.12 };
    case 'text': {
      const text = editor.label.trim();
      return text ? { kind: 'text', color, at: [0.4, 0.5], text: text.slice(0, DRAWING_LIMITS.textMax) } : null;
    }
    case 'select':
      return null;
  }
}

/**
 * Where the expert draws: a layer over the picture of the paused player taking pointer events
 * (mouse, touch and pen alike) in video coordinates. From the keyboard, Enter adds a shape of the
 * chosen tool in the middle; each shape takes the focus, arrow keys move it and Delete removes it.
 */
export function DrawingSurface({ video, editor }: { video: HTMLVideoElement | null; editor: DrawingEditorState }) {
  const { t } = useTranslation('drawing');
  const rect = usePictureRect(video);
  const onNeedLabel = () => editor.labelRef.current?.focus();
  const layer = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState<{ start: DrawingPoint; end: DrawingPoint; trail: DrawingPoint[] } | null>(null);
  const [drag, setDrag] = useState<{ index: number; from: DrawingPoint; dx: number; dy: number } | null>(null);
  if (!rect) return null;

  const point = (e: PointerEvent) => toVideoPoint(e.clientX, e.clientY, layer.current!.getBoundingClientRect());

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    const at = point(e);
    e.preventDefault();
    if (editor.tool === 'select') {
      editor.setSelected(null);
      return;
    }
    if (editor.tool === 'text') {
      const text = editor.label.trim();
      if (!text) return onNeedLabel();
      editor.add({ kind: 'text', color: editor.color, at: roundPoint(at), text: text.slice(0, DRAWING_LIMITS.textMax) });
      return;
    }
    if (editor.full) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDraft({ start: at, end: at, trail: [at] });
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag) {
      const at = point(e);
      setDrag({ ...drag, dx: at[0] - drag.from[0], dy: at[1] - drag.from[1] });
      return;
    }
    if (!draft) return;
    const at = point(e);
    setDraft({ ...draft, end: at, trail: editor.tool === 'freehand' ? [...draft.trail, at] : draft.trail });
  };

  const onPointerUp = () => {
    if (drag) {
      if (drag.dx || drag.dy) editor.move(drag.index, drag.dx, drag.dy);
      setDrag(null);
      return;
    }
    if (!draft) return;
    const shape = shapeFrom(editor, draft.start, draft.end, draft.trail);
    setDraft(null);
    if (shape) editor.add(shape);
  };

  const onShapePointerDown = (index: number, e: PointerEvent<SVGGElement>) => {
    if (editor.tool !== 'select') return;
    e.stopPropagation();
    e.preventDefault();
    editor.setSelected(index);
    layer.current?.setPointerCapture(e.pointerId);
    setDrag({ index, from: point(e), dx: 0, dy: 0 });
  };

  const onShapeKeyDown = (index: number, e: KeyboardEvent<SVGGElement>) => {
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move) {
      editor.move(index, move[0], move[1]);
      editor.setSelected(index);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      editor.remove(index);
      layer.current?.focus();
    } else if (e.key === 'Escape') {
      editor.setSelected(null);
      layer.current?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const onLayerKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    e.stopPropagation();
    if (editor.tool === 'text' && !editor.label.trim()) return onNeedLabel();
    const shape = centredShape(editor);
    if (shape && !editor.full) {
      editor.add(shape);
      editor.setSelected(editor.shapes.length);
    }
  };

  const live = draft ? shapeFrom(editor, draft.start, draft.end, draft.trail) : null;
  const shown = drag ? editor.shapes.map((s, i) => (i === drag.index ? moveShape(s, drag.dx, drag.dy) : s)) : editor.shapes;
  const kindName = (shape: DrawingShape) => t(`tools.${shape.kind}`);

  return (
    <Box
      ref={layer}
      tabIndex={0}
      role="group"
      aria-label={t('surface', { tool: t(`tools.${editor.tool}`) })}
      data-testid="drawing-surface"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        setDraft(null);
        setDrag(null);
      }}
      onKeyDown={onLayerKeyDown}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => e.stopPropagation()}
      sx={{
        position: 'absolute',
        left: rect.left,
        top: rect.top,
        width: rect.width,
        height: rect.height,
        // Touch and pen draw instead of scrolling the page.
        touchAction: 'none',
        cursor: editor.tool === 'select' ? 'default' : 'crosshair',
        outline: '2px dashed rgba(255,235,59,0.9)',
        outlineOffset: -2,
        '&:focus-visible': { outline: '3px solid #17C7A4' },
        '& g:focus-visible': { filter: 'drop-shadow(0 0 4px #18FFFF)' },
      }}
    >
      <svg
        viewBox={`0 0 ${rect.videoWidth} ${rect.videoHeight}`}
        width="100%"
        height="100%"
        preserveAspectRatio="none"
        style={{ display: 'block', overflow: 'hidden' }}
      >
        <DrawingShapes
          shapes={shown}
          width={rect.videoWidth}
          height={rect.videoHeight}
          selected={editor.selected}
          onShapeKeyDown={onShapeKeyDown}
          onShapeFocus={(i) => editor.setSelected(i)}
          onShapePointerDown={onShapePointerDown}
          shapeLabel={(shape, i) =>
            shape.kind === 'text'
              ? t('textShapeLabel', { number: i + 1, kind: kindName(shape), text: shape.text })
              : t('shapeLabel', { number: i + 1, kind: kindName(shape) })
          }
        />
        {live && <DrawingShapes shapes={[live]} width={rect.videoWidth} height={rect.videoHeight} />}
      </svg>
    </Box>
  );
}
