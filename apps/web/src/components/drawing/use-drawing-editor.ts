import { useCallback, useRef, useState } from 'react';
import { DRAWING_LIMITS, shapePoints, type DrawingColor, type DrawingShape, type DrawingTool } from '@sutura/domain/drawing';
import { moveShape } from '@/components/drawing/geometry';

export type EditorTool = DrawingTool | 'select';

/** Shapes with undo and redo: every change is a step back, a drag only once it ends. */
export function useDrawingEditor(initial: readonly DrawingShape[] = []) {
  const [history, setHistory] = useState<{ past: DrawingShape[][]; present: DrawingShape[]; future: DrawingShape[][] }>({
    past: [],
    present: [...initial],
    future: [],
  });
  const [tool, setTool] = useState<EditorTool>('freehand');
  const [color, setColor] = useState<DrawingColor>('yellow');
  const [label, setLabel] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  /** The label's text field: the text tool sends the focus there when it has no text yet. */
  const labelRef = useRef<HTMLInputElement>(null);

  const commit = useCallback((next: DrawingShape[]) => {
    setHistory((h) => ({ past: [...h.past, h.present], present: next, future: [] }));
  }, []);

  const points = history.present.reduce((n, s) => n + shapePoints(s), 0);
  const full = history.present.length >= DRAWING_LIMITS.shapesMax || points >= DRAWING_LIMITS.pointsMax;

  return {
    shapes: history.present,
    tool,
    setTool: (next: EditorTool) => {
      setTool(next);
      if (next !== 'select') setSelected(null);
    },
    color,
    setColor,
    label,
    setLabel,
    labelRef,
    selected,
    setSelected,
    /** No room for another shape (DRAWING_LIMITS). */
    full,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    add(shape: DrawingShape) {
      if (full) return;
      commit([...history.present, shape]);
    },
    replace(shapes: DrawingShape[]) {
      commit(shapes);
    },
    move(index: number, dx: number, dy: number) {
      const shape = history.present[index];
      if (!shape) return;
      commit(history.present.map((s, i) => (i === index ? moveShape(s, dx, dy) : s)));
    },
    remove(index: number) {
      if (!history.present[index]) return;
      commit(history.present.filter((_, i) => i !== index));
      setSelected(null);
    },
    /** A fresh drawing (a new one begins). */
    reset(shapes: readonly DrawingShape[] = []) {
      setHistory({ past: [], present: [...shapes], future: [] });
      setSelected(null);
    },
    clear() {
      if (history.present.length) commit([]);
      setSelected(null);
    },
    undo() {
      setHistory((h) => (h.past.length ? { past: h.past.slice(0, -1), present: h.past.at(-1)!, future: [h.present, ...h.future] } : h));
      setSelected(null);
    },
    redo() {
      setHistory((h) => (h.future.length ? { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) } : h));
      setSelected(null);
    },
  };
}
export type DrawingEditorState = ReturnType<typeof useDrawingEditor>;
