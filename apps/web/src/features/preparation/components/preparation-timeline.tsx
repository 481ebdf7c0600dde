import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { cueAt, useStoryboardCues, type Storyboard } from '@/components/video/storyboard';
import { formatTimecode } from '@/features/preparation/model/timecode';
import { snapTo, tickStep, ticks, type TimelineView } from '@/features/preparation/model/timeline-view';

/** A range drawn on the timeline: a kept range (trim phase) or a step (steps phase). */
export interface TimelineRange {
  key: string;
  start: number;
  end: number;
  label: string;
}

export type RangeEdit = 'move' | 'start' | 'end';

/**
 * A change asked by a drag or a key on a range: `value` is the offset from where the drag began
 * (move) or the time the edge is brought to. `done` is false while a drag is under way, so the
 * page can show it and keep a single undo step for the whole gesture.
 */
export interface RangeChange {
  key: string;
  edit: RangeEdit;
  value: number;
  done: boolean;
}

interface PreparationTimelineProps {
  duration: number;
  fps: number;
  current: number;
  view: TimelineView;
  storyboard: Storyboard | null;
  /** The ranges the editor works on in this phase. */
  ranges: readonly TimelineRange[];
  /** In the steps phase, the kept ranges are drawn behind the steps. */
  kept?: readonly { start: number; end: number }[];
  /** Cut suggestions: the playhead and the range edges snap to them. */
  marks: readonly number[];
  selectedKey: string | null;
  variant: 'trims' | 'steps';
  onSeek(time: number): void;
  onSelect(key: string | null): void;
  onRangeChange(change: RangeChange): void;
  onZoom(factor: number, anchor: number): void;
  onPan(delta: number): void;
}

/** Pixels within which the pointer snaps to a cut suggestion. */
const SNAP_PX = 8;
const RULER = 22;
const STRIP = 52;
const LANE = 30;
/** The width of a range's edge handles: the 24 × 24 px target of WCAG 2.5.8. */
const HANDLE = 24;
/** A time as a slider value: seconds, to the hundredth. */
const seconds = (time: number) => Math.round(time * 100) / 100;

function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

interface Drag {
  key: string | null;
  edit: RangeEdit | 'seek';
  originTime: number;
  originX: number;
  pointerId: number;
}

/** A press on a range that moves less than this is a click: it places the playhead there. */
const CLICK_PX = 3;

/**
 * The timeline of the preparation page: storyboard thumbnails of the stretch in view, time marks
 * down to the frame, the ranges of the phase (drag a range to move it, an edge to resize it),
 * the cut suggestions and the playhead. Ctrl + wheel zooms, the wheel scrolls.
 */
export function PreparationTimeline(props: PreparationTimelineProps) {
  const { duration, fps, current, view, storyboard, ranges, kept, marks, selectedKey, variant } = props;
  const { t } = useTranslation('editor');
  const [ref, width] = useWidth<HTMLDivElement>();
  const drag = useRef<Drag | null>(null);
  const cues = useStoryboardCues(storyboard).data;
  const pxPerSecond = view.span > 0 && width > 0 ? width / view.span : 0;
  const x = (time: number) => (time - view.start) * pxPerSecond;
  const snapSeconds = pxPerSecond > 0 ? SNAP_PX / pxPerSecond : 0;
  const frame = 1 / fps;

  const timeAt = (clientX: number) => {
    const rect = ref.current!.getBoundingClientRect();
    const time = view.start + ((clientX - rect.left) / Math.max(1, rect.width)) * view.span;
    return Math.min(duration, Math.max(0, time));
  };

  // The wheel must not scroll the page while it zooms the timeline: a passive React listener cannot stop it.
  const wheelRef = useRef({ onZoom: props.onZoom, onPan: props.onPan, timeAt });
  useEffect(() => {
    wheelRef.current = { onZoom: props.onZoom, onPan: props.onPan, timeAt };
  });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      const { onZoom, onPan, timeAt: at } = wheelRef.current;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        onZoom(event.deltaY < 0 ? 1.25 : 0.8, at(event.clientX));
      } else if (Math.abs(event.deltaX) > Math.abs(event.deltaY) || event.shiftKey) {
        event.preventDefault();
        const delta = event.shiftKey ? event.deltaY : event.deltaX;
        const rect = el.getBoundingClientRect();
        onPan((delta / Math.max(1, rect.width)) * view.span);
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [ref, view.span]);

  const begin = (event: ReactPointerEvent, key: string | null, edit: Drag['edit']) => {
    if (event.button !== 0 || !duration) return;
    event.stopPropagation();
    event.preventDefault();
    ref.current!.setPointerCapture(event.pointerId);
    drag.current = { key, edit, originTime: timeAt(event.clientX), originX: event.clientX, pointerId: event.pointerId };
    if (edit === 'seek') {
      props.onSeek(snapTo(timeAt(event.clientX), marks, snapSeconds));
      props.onSelect(null);
    } else if (key) props.onSelect(key);
  };

  const follow = (event: ReactPointerEvent, done: boolean) => {
    const active = drag.current;
    if (!active || active.pointerId !== event.pointerId) return;
    const time = timeAt(event.clientX);
    if (active.edit === 'seek') props.onSeek(snapTo(time, marks, snapSeconds));
    else if (active.key && active.edit === 'move') {
      const click = Math.abs(event.clientX - active.originX) < CLICK_PX;
      props.onRangeChange({ key: active.key, edit: 'move', value: click ? 0 : time - active.originTime, done });
      if (done && click) props.onSeek(snapTo(time, marks, snapSeconds));
    } else if (active.key) {
      props.onRangeChange({ key: active.key, edit: active.edit, value: snapTo(time, marks, snapSeconds), done });
    }
    if (done) drag.current = null;
  };

  /** Keys on a focused range or edge: a frame, a second with Shift (up and down as right and left on an edge). */
  const onRangeKey = (event: ReactKeyboardEvent, range: TimelineRange, edit: RangeEdit) => {
    const keys = edit === 'move' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowLeft', 'ArrowRight', 'ArrowDown', 'ArrowUp'];
    if (!keys.includes(event.key)) return;
    event.preventDefault();
    event.stopPropagation();
    const step = (event.shiftKey ? 1 : frame) * (event.key === 'ArrowLeft' || event.key === 'ArrowDown' ? -1 : 1);
    const value = edit === 'move' ? step : (edit === 'start' ? range.start : range.end) + step;
    props.onRangeChange({ key: range.key, edit, value, done: true });
  };

  const tick = tickStep(view, width, fps);
  const tickTimes = width > 0 ? ticks(view, tick) : [];
  const thumbWidth = storyboard ? Math.round((STRIP * storyboard.thumbWidth) / Math.max(1, storyboard.thumbHeight)) : 0;
  const tiles = cues?.length && storyboard && thumbWidth > 0 && width > 0 ? Math.ceil(width / thumbWidth) : 0;
  const rangeTop = variant === 'trims' ? RULER : RULER + STRIP + 4;
  const rangeHeight = variant === 'trims' ? STRIP : LANE;
  const height = RULER + STRIP + (variant === 'steps' ? LANE + 8 : 4);
  const visible = (start: number, end: number) => end >= view.start && start <= view.start + view.span;
  const cutOut = variant === 'trims' ? ranges : (kept ?? []);
  const gaps: [number, number][] = [];
  let cursor = 0;
  for (const r of [...cutOut].sort((a, b) => a.start - b.start)) {
    if (r.start > cursor) gaps.push([cursor, r.start]);
    cursor = Math.max(cursor, r.end);
  }
  if (cursor < duration) gaps.push([cursor, duration]);

  return (
    <Box
      ref={ref}
      data-testid="preparation-timeline"
      onPointerDown={(e) => begin(e, null, 'seek')}
      onPointerMove={(e) => follow(e, false)}
      onPointerUp={(e) => follow(e, true)}
      onPointerCancel={(e) => follow(e, true)}
      sx={{
        position: 'relative',
        height,
        bgcolor: '#0b0f0e',
        borderRadius: 2,
        overflow: 'hidden',
        touchAction: 'none',
        userSelect: 'none',
        cursor: 'text',
      }}
    >
      <Box aria-hidden sx={{ position: 'absolute', inset: `0 0 auto 0`, height: RULER, borderBottom: '1px solid rgba(255,255,255,0.15)' }}>
        {tickTimes.map((time) => (
          <Box
            key={time}
            sx={{
              position: 'absolute',
              left: x(time),
              top: 0,
              height: RULER,
              borderLeft: '1px solid rgba(255,255,255,0.35)',
              pl: 0.5,
              color: 'rgba(255,255,255,0.8)',
              fontSize: 11,
              lineHeight: `${RULER}px`,
              whiteSpace: 'nowrap',
              fontVariantNumeric: 'tabular-nums',
            }}
          >
            {formatTimecode(time, fps)}
          </Box>
        ))}
      </Box>

      <Box aria-hidden sx={{ position: 'absolute', left: 0, right: 0, top: RULER, height: STRIP, overflow: 'hidden' }}>
        {Array.from({ length: tiles }, (_, i) => {
          const time = view.start + ((i + 0.5) * thumbWidth) / Math.max(pxPerSecond, 1e-9);
          const cue = cues && time <= duration ? cueAt(cues, time) : undefined;
          if (!cue || !storyboard) return null;
          const scale = STRIP / cue.h;
          return (
            <Box
              key={i}
              sx={{
                position: 'absolute',
                left: i * thumbWidth,
                top: 0,
                width: thumbWidth,
                height: STRIP,
                backgroundImage: `url("${storyboard.sheets[cue.sheet]}")`,
                backgroundRepeat: 'no-repeat',
                backgroundSize: `${storyboard.columns * cue.w * scale}px ${storyboard.rows * cue.h * scale}px`,
                backgroundPosition: `${-cue.x * scale}px ${-cue.y * scale}px`,
                borderRight: '1px solid rgba(0,0,0,0.6)',
              }}
            />
          );
        })}
      </Box>

      {/* What is cut out is dimmed over the thumbnails. */}
      {gaps
        .filter(([s, e]) => visible(s, e))
        .map(([s, e]) => (
          <Box
            key={`gap-${s}`}
            aria-hidden
            data-testid="timeline-cut"
            sx={{
              position: 'absolute',
              top: RULER,
              height: STRIP,
              left: x(s),
              width: Math.max(0, x(e) - x(s)),
              bgcolor: 'rgba(0,0,0,0.6)',
              backgroundImage: 'repeating-linear-gradient(135deg, transparent 0 6px, rgba(255,255,255,0.07) 6px 12px)',
              pointerEvents: 'none',
            }}
          />
        ))}

      {marks
        .filter((m) => visible(m, m))
        .map((m) => (
          <Box
            key={`mark-${m}`}
            aria-hidden
            data-testid="cut-suggestion"
            sx={{
              position: 'absolute',
              top: RULER - 6,
              bottom: 0,
              left: x(m) - 1,
              width: 2,
              bgcolor: 'quaternary.main',
              opacity: 0.9,
              pointerEvents: 'none',
              '&::before': {
                content: '""',
                position: 'absolute',
                top: 0,
                left: -4,
                borderLeft: '5px solid transparent',
                borderRight: '5px solid transparent',
                borderTop: '6px solid #FC9112',
              },
            }}
          />
        ))}

      {ranges
        .filter((r) => visible(r.start, r.end))
        .map((range, index) => {
          const selected = range.key === selectedKey;
          const left = x(range.start);
          const w = Math.max(2, x(range.end) - left);
          const color = variant === 'trims' ? '#17C7A4' : '#1D69EE';
          const edgeLabel = (edge: 'start' | 'end') =>
            t(variant === 'trims' ? `timeline.trimEdge.${edge}` : `timeline.stepEdge.${edge}`, { name: range.label });
          const name = t(variant === 'trims' ? 'timeline.trim' : 'timeline.step', {
            name: range.label,
            start: formatTimecode(range.start, fps),
            end: formatTimecode(range.end, fps),
          });
          // The range is a group of three controls side by side (never one inside another): its
          // body, a button that moves it, and its two edges, sliders of 24 px at least (WCAG 2.5.8).
          return (
            <Box
              key={range.key}
              data-testid={variant === 'trims' ? 'trim-range' : 'step-range'}
              data-selected={selected || undefined}
              role="group"
              aria-label={name}
              sx={{
                position: 'absolute',
                top: rangeTop,
                height: rangeHeight,
                left,
                width: w,
                zIndex: selected ? 2 : 1,
              }}
            >
              <Box
                role="button"
                tabIndex={0}
                aria-pressed={selected}
                aria-label={name}
                aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight"
                onPointerDown={(e) => begin(e, range.key, 'move')}
                onFocus={() => props.onSelect(range.key)}
                onKeyDown={(e) => onRangeKey(e, range, 'move')}
                sx={{
                  position: 'absolute',
                  inset: 0,
                  border: `2px solid ${color}`,
                  borderRadius: 1,
                  bgcolor: variant === 'trims' ? 'rgba(23,199,164,0.12)' : 'rgba(29,105,238,0.55)',
                  boxShadow: selected ? `0 0 0 2px #fff inset, 0 0 0 1px ${color}` : 'none',
                  cursor: 'grab',
                  outline: 'none',
                  '&:focus-visible': { boxShadow: `0 0 0 3px #fff` },
                  color: '#fff',
                  fontSize: 12,
                  fontWeight: 700,
                  overflow: 'hidden',
                  whiteSpace: 'nowrap',
                  textOverflow: 'ellipsis',
                  px: 3.5,
                  lineHeight: variant === 'trims' ? '20px' : `${rangeHeight - 4}px`,
                }}
              >
                <Box
                  component="span"
                  sx={{
                    bgcolor: variant === 'trims' ? color : 'transparent',
                    color: variant === 'trims' ? '#04251E' : '#fff',
                    px: variant === 'trims' ? 0.5 : 0,
                    borderRadius: 0.5,
                  }}
                >
                  {variant === 'trims' ? index + 1 : range.label}
                </Box>
              </Box>
              {(['start', 'end'] as const).map((edge) => (
                <Box
                  key={edge}
                  role="slider"
                  tabIndex={0}
                  data-testid={`${variant === 'trims' ? 'trim' : 'step'}-${edge}`}
                  aria-label={edgeLabel(edge)}
                  aria-orientation="horizontal"
                  aria-valuemin={edge === 'start' ? 0 : seconds(range.start)}
                  aria-valuemax={edge === 'start' ? seconds(range.end) : seconds(duration)}
                  aria-valuenow={seconds(range[edge])}
                  aria-valuetext={formatTimecode(range[edge], fps)}
                  onPointerDown={(e) => begin(e, range.key, edge)}
                  onFocus={() => props.onSelect(range.key)}
                  onKeyDown={(e) => onRangeKey(e, range, edge)}
                  sx={{
                    position: 'absolute',
                    top: 0,
                    bottom: 0,
                    [edge === 'start' ? 'left' : 'right']: 0,
                    width: HANDLE,
                    minHeight: HANDLE,
                    cursor: 'ew-resize',
                    bgcolor: color,
                    borderRadius: 1,
                    outline: 'none',
                    '&::after': {
                      content: '""',
                      position: 'absolute',
                      top: '30%',
                      bottom: '30%',
                      left: HANDLE / 2 - 1,
                      width: 2,
                      bgcolor: 'rgba(4,37,30,0.7)',
                      borderRadius: 1,
                    },
                    '&:focus-visible': { bgcolor: '#fff', boxShadow: `0 0 0 2px ${color}` },
                  }}
                />
              ))}
            </Box>
          );
        })}

      {visible(current, current) && (
        <Box
          aria-hidden
          data-testid="playhead"
          sx={{
            position: 'absolute',
            top: 0,
            bottom: 0,
            left: x(current) - 1,
            width: 2,
            bgcolor: 'tertiary.main',
            zIndex: 3,
            pointerEvents: 'none',
          }}
        >
          <Box
            sx={{ position: 'absolute', top: 0, left: -5, width: 12, height: 10, bgcolor: 'tertiary.main', borderRadius: '0 0 6px 6px' }}
          />
        </Box>
      )}
    </Box>
  );
}
