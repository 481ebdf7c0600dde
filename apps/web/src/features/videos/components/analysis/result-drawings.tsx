import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimecode, type AnalysisComment } from '@sutura/domain/analysis';
import type { Drawing } from '@sutura/domain/drawing';
import { DrawingThumbnail } from '@/components/drawing/drawing-overlay';
import { useDrawingPlayback } from '@/components/drawing/use-drawing-playback';
import { cueAt, useStoryboardCues, type Storyboard } from '@/components/video/storyboard';

/** The expert's drawings on the learner's player (see useDrawingPlayback). */
export function useResultDrawings(comments: readonly AnalysisComment[] | undefined) {
  const items = useMemo(
    () => (comments ?? []).flatMap((c) => (c.drawing ? [{ time: c.drawing.time, shapes: c.drawing.shapes, text: c.text }] : [])),
    [comments],
  );
  return useDrawingPlayback(items).player;
}

/**
 * The annotated frame in the list of comments: the storyboard's thumbnail of that moment (one
 * every few seconds, already loaded for the timeline: no request per drawing) with the drawing
 * over it, or the poster when the video has no storyboard.
 */
export function CommentDrawingThumbnail({
  drawing,
  text,
  storyboard,
  posterUrl,
}: {
  drawing: Drawing;
  text: string;
  storyboard: Storyboard | null;
  posterUrl: string | null;
}) {
  const { t } = useTranslation('drawing');
  const cues = useStoryboardCues(storyboard).data;
  const cue = cues ? cueAt(cues, drawing.time) : undefined;
  const sheet = cue && storyboard ? storyboard.sheets[cue.sheet] : undefined;
  const WIDTH = 128;
  const image =
    cue && sheet && storyboard
      ? {
          url: sheet,
          width: cue.w,
          height: cue.h,
          position: `-${cue.x * (WIDTH / cue.w)}px -${cue.y * (WIDTH / cue.w)}px`,
          size: `${storyboard.columns * cue.w * (WIDTH / cue.w)}px ${storyboard.rows * cue.h * (WIDTH / cue.w)}px`,
        }
      : posterUrl
        ? { url: posterUrl, width: 16, height: 9 }
        : null;
  return <DrawingThumbnail shapes={drawing.shapes} image={image} label={t('drawingOf', { time: formatTimecode(drawing.time), text })} />;
}
