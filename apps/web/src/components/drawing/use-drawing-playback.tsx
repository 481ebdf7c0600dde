import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimecode } from '@sutura/domain/analysis';
import type { DrawingShape } from '@sutura/domain/drawing';
import { DrawingCaption, DrawingOverlay } from '@/components/drawing/drawing-overlay';
import { useDrawingStops } from '@/components/drawing/frame-time';
import { usePauseOnDrawings } from '@/components/drawing/pause-setting';

export interface PlayedDrawing {
  time: number;
  shapes: readonly DrawingShape[];
  /** Its comment or note: shown under the picture and read as its text alternative. */
  text: string;
}

/**
 * Drawings on a player that only shows them (a learner's result, a best case): with "pause on
 * drawings" on, playback stops on each drawing's frame; a player standing on one shows it.
 */
export function useDrawingPlayback(items: readonly PlayedDrawing[]): {
  video: HTMLVideoElement | null;
  player: { overlay: ReactNode; caption: ReactNode; onMediaElement(video: HTMLVideoElement | null): void };
} {
  const { t } = useTranslation('drawing');
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const pause = usePauseOnDrawings();
  const drawings = useMemo(() => [...items], [items]);
  const shown = useDrawingStops(video, drawings, pause);
  const overlay = shown ? (
    <DrawingOverlay video={video} shapes={shown.shapes} label={t('drawingOf', { time: formatTimecode(shown.time), text: shown.text })} />
  ) : null;
  const caption = shown ? <DrawingCaption text={shown.text} /> : null;
  return { video, player: { overlay, caption, onMediaElement: setVideo } };
}
