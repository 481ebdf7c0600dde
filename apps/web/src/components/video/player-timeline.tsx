import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { cueAt, useStoryboardCues, type Storyboard } from '@/components/video/storyboard';
import { formatClock } from '@/components/video/format';

export interface TimelineMarker {
  id: string;
  start: number;
  end: number | null;
  label: string;
}

interface PlayerTimelineProps {
  current: number;
  duration: number;
  /** Buffered ranges in seconds. */
  buffered: readonly (readonly [number, number])[];
  storyboard: Storyboard | null;
  /** Steps of a prepared video: drawn as bands over the track, the current one brighter. */
  steps?: readonly { start: number; end: number; name: string }[];
  currentStep?: number;
  /** Time-coded comments, drawn as ticks (or bands for a range) under the track. */
  markers?: readonly TimelineMarker[];
  onSeek(time: number): void;
}

/** Largest width of the hover preview; the thumbnail is scaled down to it. */
const PREVIEW_MAX_WIDTH = 192;

/**
 * The position in the video: played and buffered ranges, a click or a drag seeks, and hovering
 * shows the storyboard thumbnail of that moment. Arrow keys, Home and End are the player's
 * shortcuts, handled by the player around it.
 */
export function PlayerTimeline({
  current,
  duration,
  buffered,
  storyboard,
  steps = [],
  currentStep = -1,
  markers = [],
  onSeek,
}: PlayerTimelineProps) {
  const { t } = useTranslation('videos');
  const trackRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<{ time: number; x: number; width: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const cues = useStoryboardCues(storyboard).data;
  const withHours = duration >= 3600;
  const percent = (time: number) => (duration > 0 ? Math.min(100, Math.max(0, (time / duration) * 100)) : 0);

  const pointerTime = (event: ReactPointerEvent) => {
    const rect = trackRef.current!.getBoundingClientRect();
    const x = Math.min(rect.width, Math.max(0, event.clientX - rect.left));
    return { time: rect.width > 0 ? (x / rect.width) * duration : 0, x, width: rect.width };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!duration || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDragging(true);
    const at = pointerTime(event);
    setHover(at);
    onSeek(at.time);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!duration) return;
    const at = pointerTime(event);
    setHover(at);
    if (dragging) onSeek(at.time);
  };

  const endDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    setDragging(false);
    if (event.pointerType !== 'mouse') setHover(null);
  };

  const cue = hover && cues?.length ? cueAt(cues, hover.time) : undefined;
  const hoverStep = hover ? steps.findLast((s) => s.start <= hover.time && hover.time < s.end) : undefined;
  // A comment within a second of the pointer (or whose range holds it) is named in the preview.
  const hoverMarker = hover
    ? markers.find((m) =>
        m.end !== null ? m.start <= hover.time && hover.time <= m.end : Math.abs(m.start - hover.time) <= Math.max(1, duration / 200),
      )
    : undefined;
  const sheetUrl = cue && storyboard ? storyboard.sheets[cue.sheet] : undefined;
  const scale = cue ? Math.min(1, PREVIEW_MAX_WIDTH / cue.w) : 1;
  const previewWidth = cue ? Math.round(cue.w * scale) : 0;
  const previewHeight = cue ? Math.round(cue.h * scale) : 0;
  // The preview follows the pointer but never leaves the timeline's width.
  const labelWidth = Math.max(previewWidth, hoverStep || hoverMarker ? 200 : 64);
  const previewLeft = hover ? Math.min(Math.max(hover.x - labelWidth / 2, 0), Math.max(0, hover.width - labelWidth)) : 0;

  return (
    <Box
      ref={trackRef}
      role="slider"
      tabIndex={0}
      aria-label={t('player.timeline')}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(current)}
      aria-valuetext={t('player.timeValue', { current: formatClock(current, withHours), duration: formatClock(duration, withHours) })}
      data-testid="player-timeline"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onPointerLeave={() => !dragging && setHover(null)}
      sx={{
        position: 'relative',
        height: 24,
        display: 'flex',
        alignItems: 'center',
        cursor: duration ? 'pointer' : 'default',
        touchAction: 'none',
        borderRadius: 1,
        '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 2 },
        '&:hover .timeline-track, &:focus-visible .timeline-track': { height: 8 },
      }}
    >
      <Box
        className="timeline-track"
        sx={{
          position: 'relative',
          width: '100%',
          height: 5,
          borderRadius: 4,
          bgcolor: 'rgba(255,255,255,0.25)',
          transition: 'height 120ms',
        }}
      >
        {buffered.map(([start, end]) => (
          <Box
            key={`${start}-${end}`}
            sx={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              left: `${percent(start)}%`,
              width: `${percent(end) - percent(start)}%`,
              borderRadius: 4,
              bgcolor: 'rgba(255,255,255,0.45)',
            }}
          />
        ))}
        <Box
          sx={{ position: 'absolute', top: 0, bottom: 0, left: 0, width: `${percent(current)}%`, borderRadius: 4, bgcolor: 'primary.main' }}
        />
        {steps.map((step, index) => (
          <Box
            key={`${step.start}-${index}`}
            aria-hidden
            data-testid="timeline-step"
            data-current={index === currentStep || undefined}
            sx={{
              position: 'absolute',
              top: -4,
              height: 3,
              left: `${percent(step.start)}%`,
              width: `calc(${percent(step.end) - percent(step.start)}% - 2px)`,
              borderRadius: 2,
              bgcolor: index === currentStep ? '#fff' : 'rgba(29,105,238,0.9)',
            }}
          />
        ))}
        {markers.map((marker) => (
          <Box
            key={marker.id}
            aria-hidden
            data-testid="timeline-marker"
            sx={{
              position: 'absolute',
              bottom: -6,
              height: 4,
              left: `${percent(marker.start)}%`,
              width: marker.end !== null ? `max(4px, ${percent(marker.end) - percent(marker.start)}%)` : 4,
              ml: marker.end !== null ? 0 : '-2px',
              borderRadius: 2,
              bgcolor: '#FFB300',
            }}
          />
        ))}
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            top: '50%',
            left: `${percent(current)}%`,
            width: 14,
            height: 14,
            borderRadius: '50%',
            bgcolor: 'primary.main',
            border: '2px solid #fff',
            transform: 'translate(-50%, -50%)',
          }}
        />
      </Box>
      {hover && (
        <Box
          data-testid="storyboard-preview"
          aria-hidden
          sx={{
            position: 'absolute',
            bottom: 'calc(100% + 8px)',
            left: previewLeft,
            width: labelWidth,
            pointerEvents: 'none',
            display: 'grid',
            justifyItems: 'center',
            gap: 0.5,
            zIndex: 2,
          }}
        >
          {cue && sheetUrl && storyboard && (
            <Box
              sx={{
                width: previewWidth,
                height: previewHeight,
                borderRadius: 1,
                border: '2px solid #fff',
                boxShadow: 3,
                bgcolor: '#000',
                backgroundImage: `url("${sheetUrl}")`,
                backgroundRepeat: 'no-repeat',
                backgroundSize: `${storyboard.columns * cue.w * scale}px ${storyboard.rows * cue.h * scale}px`,
                backgroundPosition: `${-cue.x * scale}px ${-cue.y * scale}px`,
              }}
            />
          )}
          <Box
            component="span"
            sx={{
              px: 0.75,
              borderRadius: 1,
              bgcolor: 'rgba(0,0,0,0.85)',
              color: '#fff',
              fontSize: 13,
              fontWeight: 700,
              lineHeight: '20px',
              maxWidth: '100%',
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {formatClock(hover.time, withHours)}
            {hoverStep ? ` · ${hoverStep.name}` : ''}
            {hoverMarker ? ` · ${hoverMarker.label}` : ''}
          </Box>
        </Box>
      )}
    </Box>
  );
}
