import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Draw from '@mui/icons-material/DrawOutlined';
import { formatTimecode, type AnalysisComment } from '@sutura/domain/analysis';
import { DrawingCaption, DrawingOverlay } from '@/components/drawing/drawing-overlay';
import { DrawingSurface } from '@/components/drawing/drawing-surface';
import { useDrawingStops, usePresentedFrame } from '@/components/drawing/frame-time';
import { useDrawingEditor } from '@/components/drawing/use-drawing-editor';
import { DrawingComposer } from '@/features/analysis/components/drawing-composer';

/**
 * Drawing on the frame on the analysis page: "Draw on this frame" pauses the player and opens the
 * tools over the picture; saved with its comment, the drawing shows whenever the player stands on
 * its frame. Returns what the player takes (overlay, element) and the panel under it.
 */
export function useFrameDrawing(opts: {
  videoId: string;
  comments: readonly AnalysisComment[];
  fencingToken: number | null;
  /** Sends the player to a moment (the page's seek). */
  seek(time: number): void;
}): {
  player: { overlay: ReactNode; caption: ReactNode; onMediaElement(video: HTMLVideoElement | null): void };
  panel: ReactNode;
  /** A drawing is open: the player holds its frame, the tools are shown. */
  composing: boolean;
  /** Opens a saved comment's drawing again, on its frame, to change it; null while a drawing is open. */
  editDrawing: ((comment: AnalysisComment) => void) | null;
} {
  const { t } = useTranslation('drawing');
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  // The frame drawn on, and the saved comment whose drawing is changed (null for a new one).
  const [composing, setComposing] = useState<{ time: number; comment: AnalysisComment | null } | null>(null);
  const editor = useDrawingEditor();
  const frameTime = usePresentedFrame(video);
  const drawings = useMemo(
    () => opts.comments.flatMap((c) => (c.drawing ? [{ time: c.drawing.time, shapes: c.drawing.shapes, text: c.text, id: c.id }] : [])),
    [opts.comments],
  );
  const shown = useDrawingStops(video, drawings, false);

  // The frame stays put while the expert draws.
  useEffect(() => {
    if (!video || composing === null) return;
    const hold = () => video.pause();
    video.addEventListener('play', hold);
    return () => video.removeEventListener('play', hold);
  }, [video, composing]);

  // The tools closed (saved or cancelled) while the keyboard was in them: it goes to "Draw on this frame", never to the page's body.
  const startButton = useRef<HTMLButtonElement>(null);
  const open = composing !== null;
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    if (wasOpen.current && !open && (document.activeElement === null || document.activeElement === document.body)) {
      startButton.current?.focus();
    }
    wasOpen.current = open;
  }, [open]);

  const start = () => {
    if (!video) return;
    video.pause();
    editor.reset();
    setComposing({ time: frameTime(), comment: null });
  };

  const editDrawing = (comment: AnalysisComment) => {
    if (!video || !comment.drawing) return;
    video.pause();
    // On the drawing's frame: a little past its start, so float rounding lands on it.
    opts.seek(comment.drawing.time + 0.001);
    editor.reset(comment.drawing.shapes);
    setComposing({ time: comment.drawing.time, comment });
  };

  const overlay =
    composing !== null ? (
      <DrawingSurface video={video} editor={editor} />
    ) : shown ? (
      <DrawingOverlay video={video} shapes={shown.shapes} label={t('drawingOf', { time: formatTimecode(shown.time), text: shown.text })} />
    ) : null;
  const caption = composing === null && shown ? <DrawingCaption text={shown.text} /> : null;

  const panel =
    opts.fencingToken === null ? null : composing !== null ? (
      <DrawingComposer
        videoId={opts.videoId}
        fencingToken={opts.fencingToken}
        time={composing.time}
        comment={composing.comment}
        editor={editor}
        onClose={() => setComposing(null)}
      />
    ) : (
      <Button
        variant="outlined"
        startIcon={<Draw aria-hidden />}
        onClick={start}
        disabled={!video}
        ref={startButton}
        data-testid="drawing-start"
        sx={{ justifySelf: 'start' }}
      >
        {t('drawHere')}
      </Button>
    );

  return {
    player: { overlay, caption, onMediaElement: setVideo },
    panel,
    composing: composing !== null,
    editDrawing: opts.fencingToken !== null && composing === null && video ? editDrawing : null,
  };
}
