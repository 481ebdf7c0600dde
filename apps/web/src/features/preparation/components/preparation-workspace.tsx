import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Slider from '@mui/material/Slider';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import KeyboardOutlined from '@mui/icons-material/KeyboardOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import SkipNext from '@mui/icons-material/SkipNext';
import SkipPrevious from '@mui/icons-material/SkipPrevious';
import UndoOutlined from '@mui/icons-material/UndoOutlined';
import ZoomIn from '@mui/icons-material/ZoomIn';
import ZoomOut from '@mui/icons-material/ZoomOut';
import ZoomOutMap from '@mui/icons-material/ZoomOutMap';
import { LAYOUT } from '@sutura/domain/limits';
import type { PreparationDetail } from '@sutura/domain/preparation';
import { useStableMediaUrl } from '@/components/video/use-stable-media-url';
import { PreparationTimeline, type TimelineRange } from '@/features/preparation/components/preparation-timeline';
import { ShortcutsDialog } from '@/features/preparation/components/shortcuts-dialog';
import { StepList } from '@/features/preparation/components/step-list';
import { TrimList } from '@/features/preparation/components/trim-list';
import type { PreparationEditor } from '@/features/preparation/hooks/use-preparation-editor';
import { clamp, formatTimecode, snapToFrame } from '@/features/preparation/model/timecode';
import { fitView, followView, panView, zoomView, type TimelineView } from '@/features/preparation/model/timeline-view';

/** On a phone the secondary actions of the bar show their icon only (their name stays, for screen readers and tooltips). */
const compactSx = {
  minWidth: { xs: 44, sm: 64 },
  px: { xs: 1, sm: 2 },
  '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 }, ml: { xs: 0, sm: -0.5 } },
} as const;
const labelSx = { display: { xs: 'none', sm: 'inline' } } as const;
/**
 * A button that cannot act now but keeps the keyboard's focus (aria-disabled), drawn as a disabled
 * one (`&&`: over the theme's colour of outlined buttons).
 */
const inactiveSx = { '&&': { color: 'action.disabled', borderColor: 'action.disabledBackground', cursor: 'default' } } as const;

/** A message of the page: a catalogue code (SPEC §5) or one of this page's own texts. */
export type WorkspaceMessage = { severity: 'error' | 'warning' | 'info'; text: string } | null;

interface PreparationWorkspaceProps {
  detail: PreparationDetail;
  editor: PreparationEditor;
  message: WorkspaceMessage;
  onMessage(message: WorkspaceMessage): void;
  /** Buttons of the phase (next phase, back, submit), drawn at the end of the toolbar. */
  actions: React.ReactNode;
  /** The signed URL of the source stopped working: the page fetches a fresh one. */
  onUrlsExpired(): void;
}

/** Cut suggestions as the instants they mark: a scene change, and both ends of a dark or washed-out stretch. */
function suggestionMarks(detail: PreparationDetail): number[] {
  const marks = new Set<number>();
  for (const s of detail.suggestions ?? []) {
    marks.add(s.start);
    if (s.end !== null) marks.add(s.end);
  }
  return [...marks].sort((a, b) => a - b);
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

function ActionButton({
  label,
  keys,
  icon,
  onClick,
  disabled = false,
  testId,
  keyboardOnly = false,
}: {
  label: string;
  keys: string;
  icon: React.ReactNode;
  onClick(): void;
  disabled?: boolean;
  testId?: string;
  /** Only where a keyboard is likely (the shortcuts list): hidden on phones. */
  keyboardOnly?: boolean;
}) {
  return (
    <Tooltip title={`${label} (${keys})`}>
      <Box component="span" sx={keyboardOnly ? { display: { xs: 'none', sm: 'inline-flex' } } : undefined}>
        {/* Not disabled: zooming out to the whole video, say, would drop the keyboard's focus to the page's body. */}
        <IconButton
          aria-label={label}
          onClick={() => {
            if (!disabled) onClick();
          }}
          aria-disabled={disabled || undefined}
          data-testid={testId}
          sx={disabled ? inactiveSx : undefined}
        >
          {icon}
        </IconButton>
      </Box>
    </Tooltip>
  );
}

/**
 * The working area of the preparation page, the same for both phases: the source with a
 * frame-accurate transport, the timeline, the list of the phase (trims or steps), and every
 * keyboard shortcut of the `?` dialog.
 */
export function PreparationWorkspace({ detail, editor, message, onMessage, actions, onUrlsExpired }: PreparationWorkspaceProps) {
  const { t } = useTranslation('editor');
  const { fps, duration } = editor;
  const phase = detail.phase;
  const videoRef = useRef<HTMLVideoElement>(null);
  const source = useStableMediaUrl(detail.sourceUrl);
  const [current, setCurrent] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [view, setView] = useState<TimelineView>(() => fitView(duration));
  const [selected, setSelected] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const marks = suggestionMarks(detail);
  const nothingToSave = editor.saveStatus === 'saved' || editor.saveStatus === 'saving' || editor.saveStatus === 'lost';

  const seek = (time: number) => {
    const at = snapToFrame(clamp(time, 0, duration), fps);
    setCurrent(at);
    setView((v) => followView(v, at, duration));
    const video = videoRef.current;
    // A hair past the frame's start, so the browser shows that frame and not the one before.
    if (video) video.currentTime = Math.min(at + 0.25 / fps, Math.max(0, (video.duration || duration) - 0.001));
  };

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused || video.ended) void video.play().catch(() => undefined);
    else video.pause();
  };

  // While playing, the playhead follows every painted frame rather than the coarse timeupdate.
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const video = videoRef.current;
      if (video) {
        const at = snapToFrame(video.currentTime, fps);
        setCurrent(at);
        setView((v) => followView(v, at, duration));
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, fps, duration]);

  const zoom = (factor: number, anchor = current) => setView((v) => zoomView(v, factor, anchor, duration, fps));

  const ranges: TimelineRange[] =
    phase === 'trim'
      ? editor.trims.map((r, i) => ({ key: r.key, start: r.start, end: r.end, label: String(i + 1) }))
      : editor.steps.map((s, i) => ({ key: s.key, start: s.start, end: s.end, label: s.name || t('steps.unnamed', { number: i + 1 }) }));
  const selectedRange = ranges.find((r) => r.key === selected) ?? null;

  const refusal = (code: string) => onMessage({ severity: 'error', text: t(`errors:${code}`, { min: 1 }) });

  const addAtPlayhead = () => {
    const result = phase === 'trim' ? editor.newTrim(current, view.span) : editor.newStep(current);
    if (!result.ok) return refusal(result.reason);
    onMessage(null);
    setSelected(result.key);
  };

  const removeSelected = () => {
    if (!selected) return;
    if (phase === 'trim') editor.removeTrim(selected);
    else editor.removeStep(selected);
    setSelected(null);
  };

  const jumpSuggestion = (direction: -1 | 1) => {
    const frame = 0.5 / fps;
    const next = direction > 0 ? marks.find((m) => m > current + frame) : [...marks].reverse().find((m) => m < current - frame);
    if (next !== undefined) seek(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || isTyping(event.target) || event.altKey) return;
    // A dialog or a menu answers its own keys.
    if (event.target instanceof Element && event.target.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return;
    const mod = event.ctrlKey || event.metaKey;
    const done = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    if (mod) {
      if (event.key === 'z' || event.key === 'Z') {
        done();
        editor.undo();
      } else if (event.key === 's' || event.key === 'S') {
        done();
        void editor.save();
      }
      return;
    }
    const onButton = event.target instanceof HTMLElement && event.target.closest('button, [role="button"], a') !== null;
    switch (event.key) {
      case ' ':
        if (onButton) return;
        done();
        togglePlay();
        break;
      case 'k':
      case 'K':
        done();
        togglePlay();
        break;
      case 'ArrowLeft':
      case 'ArrowRight': {
        if (event.target instanceof HTMLElement && event.target.closest('[role="slider"], [role="tab"]')) return;
        done();
        const step = (event.shiftKey ? 1 : 1 / fps) * (event.key === 'ArrowLeft' ? -1 : 1);
        seek(current + step);
        break;
      }
      case 'Home':
        done();
        seek(0);
        break;
      case 'End':
        done();
        seek(duration);
        break;
      case ',':
        done();
        jumpSuggestion(-1);
        break;
      case '.':
        done();
        jumpSuggestion(1);
        break;
      case 'n':
      case 'N':
        done();
        addAtPlayhead();
        break;
      case 'i':
      case 'I':
      case 'o':
      case 'O':
        if (!selected) return;
        done();
        editor.setEdgeAt(selected, event.key.toLowerCase() === 'i' ? 'start' : 'end', current);
        break;
      case 'Delete':
      case 'Backspace':
        if (!selected) return;
        done();
        removeSelected();
        break;
      case '+':
      case '=':
        done();
        zoom(2);
        break;
      case '-':
      case '_':
        done();
        zoom(0.5);
        break;
      case '0':
        done();
        setView(fitView(duration));
        break;
      case '?':
        done();
        setHelp(true);
        break;
      default:
        break;
    }
  };

  // The shortcuts work wherever the focus is on the page, not only inside the workspace.
  const keyHandler = useRef(onKeyDown);
  useEffect(() => {
    keyHandler.current = onKeyDown;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keyHandler.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  return (
    // The bar of actions is held at the bottom of the window within the whole workspace, under both columns.
    <Box data-testid="preparation-workspace" data-phase={phase} sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box
        sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 360px' }, alignItems: 'start' }}
      >
        <Box sx={{ display: 'grid', gap: 1.5, minWidth: 0 }}>
          <Box
            sx={{ position: 'relative', bgcolor: '#000', borderRadius: 2, overflow: 'hidden', display: 'grid', placeItems: 'center' }}
            tabIndex={-1}
          >
            <Box
              component="video"
              ref={videoRef}
              data-testid="source-video"
              src={source.src ?? undefined}
              preload="auto"
              playsInline
              muted
              onClick={togglePlay}
              onPlay={() => setPlaying(true)}
              onPause={(e: SyntheticEvent<HTMLVideoElement>) => {
                setPlaying(false);
                setCurrent(snapToFrame(e.currentTarget.currentTime, fps));
              }}
              onEnded={() => setPlaying(false)}
              onError={() => {
                if (!source.renew()) onUrlsExpired();
              }}
              sx={{
                display: 'block',
                width: '100%',
                aspectRatio: '16 / 9',
                maxHeight: { xs: '30vh', lg: '34vh' },
                objectFit: 'contain',
                cursor: 'pointer',
              }}
            />
          </Box>

          <Box
            role="toolbar"
            aria-label={t('transport.label')}
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, rowGap: 0.5 }}
          >
            <ActionButton
              label={t(playing ? 'transport.pause' : 'transport.play')}
              keys="K"
              icon={playing ? <Pause /> : <PlayArrow />}
              onClick={togglePlay}
              testId="transport-play"
            />
            <ActionButton
              label={t('transport.previousFrame')}
              keys="←"
              icon={<ChevronLeft />}
              onClick={() => seek(current - 1 / fps)}
              testId="previous-frame"
            />
            <ActionButton
              label={t('transport.nextFrame')}
              keys="→"
              icon={<ChevronRight />}
              onClick={() => seek(current + 1 / fps)}
              testId="next-frame"
            />
            <ActionButton
              label={t('transport.previousSuggestion')}
              keys=","
              icon={<SkipPrevious />}
              onClick={() => jumpSuggestion(-1)}
              disabled={marks.length === 0}
            />
            <ActionButton
              label={t('transport.nextSuggestion')}
              keys="."
              icon={<SkipNext />}
              onClick={() => jumpSuggestion(1)}
              disabled={marks.length === 0}
              testId="next-suggestion"
            />
            <Typography
              component="output"
              aria-label={t('transport.position')}
              data-testid="playhead-time"
              sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700, px: 1, whiteSpace: 'nowrap' }}
            >
              {formatTimecode(current, fps)}
              <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                {' / '}
                {formatTimecode(duration, fps)}
              </Box>
            </Typography>
            <Box sx={{ flex: 1 }} />
            <ActionButton
              label={t('transport.zoomOut')}
              keys="−"
              icon={<ZoomOut />}
              onClick={() => zoom(0.5)}
              disabled={view.span >= duration}
            />
            <ActionButton label={t('transport.zoomIn')} keys="+" icon={<ZoomIn />} onClick={() => zoom(2)} testId="zoom-in" />
            <ActionButton
              label={t('transport.zoomFit')}
              keys="0"
              icon={<ZoomOutMap />}
              onClick={() => setView(fitView(duration))}
              disabled={view.span >= duration}
            />
            <ActionButton
              label={t('shortcuts.title')}
              keys="?"
              icon={<KeyboardOutlined />}
              onClick={() => setHelp(true)}
              testId="shortcuts-open"
              keyboardOnly
            />
          </Box>

          <PreparationTimeline
            duration={duration}
            fps={fps}
            current={current}
            view={view}
            storyboard={detail.storyboard}
            ranges={ranges}
            kept={phase === 'steps' ? editor.trims : undefined}
            marks={marks}
            selectedKey={selected}
            variant={phase === 'trim' ? 'trims' : 'steps'}
            onSeek={seek}
            onSelect={setSelected}
            onRangeChange={editor.changeRange}
            onZoom={zoom}
            onPan={(delta) => setView((v) => panView(v, delta, duration))}
          />
          {view.span < duration && (
            <Slider
              size="small"
              min={0}
              max={Math.max(0, duration - view.span)}
              step={1 / fps}
              value={view.start}
              onChange={(_, value) => setView((v) => ({ ...v, start: value }))}
              aria-label={t('transport.scroll')}
              getAriaValueText={(value) => formatTimecode(value, fps)}
              sx={{ py: 1 }}
            />
          )}
          {detail.suggestions === null && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('suggestions.pending')}
            </Typography>
          )}
          {detail.suggestions !== null && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="suggestion-count">
              {t('suggestions.count', { count: marks.length })}
            </Typography>
          )}
        </Box>

        <Box component="aside" aria-label={t(phase === 'trim' ? 'trims.title' : 'steps.title')} sx={{ minWidth: 0 }}>
          {phase === 'trim' ? (
            <TrimList
              trims={editor.trims}
              fps={fps}

              selected={selected}
              onSelect={(key) => {
                setSelected(key);
                const trim = editor.trims.find((r) => r.key === key);
                if (trim) seek(trim.start);
              }}
            />
          ) : (
            <StepList
              editor={editor}
              vocabulary={detail.vocabulary}

              selected={selected}
              onSelect={(key) => {
                setSelected(key);
                const step = editor.steps.find((s) => s.key === key);
                if (step) seek(step.start);
              }}
            />
          )}
        </Box>
      </Box>
      {/*
          The actions and what they answer stay on screen while the editor works further up or
          down the page: a bar held at the bottom of the window (above the phone's tab bar).
        */}
      <Box
        data-testid="preparation-actions"
        sx={{
          position: 'sticky',
          bottom: 0,
          [`@media (max-width: ${LAYOUT.tabBarMaxWindowWidth}px)`]: { bottom: LAYOUT.tabBarHeight },
          zIndex: 2,
          mx: -1,
          px: 1,
          py: 1,
          display: 'grid',
          gap: 1,
          bgcolor: 'background.default',
          borderTop: 1,
          borderColor: 'divider',
        }}
      >
        {message && (
          <Alert severity={message.severity} role="alert" data-testid="preparation-message" onClose={() => onMessage(null)}>
            {message.text}
          </Alert>
        )}
        <Box role="toolbar" aria-label={t('toolbar.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Button
            variant="contained"
            startIcon={<AddOutlined aria-hidden />}
            onClick={addAtPlayhead}
            data-testid={phase === 'trim' ? 'new-trim' : 'new-step'}
          >
            {t(phase === 'trim' ? 'toolbar.newTrim' : 'toolbar.newStep')}
          </Button>
          {/* Delete and Undo, like Save, stay focusable when they cannot act: disabled under the keyboard, the focus would drop to the page's body. */}
          <Button
            variant="outlined"
            startIcon={<DeleteOutlined aria-hidden />}
            onClick={() => {
              if (selectedRange) removeSelected();
            }}
            aria-disabled={!selectedRange || undefined}
            data-testid="delete-selected"
            aria-label={t('toolbar.delete')}
            sx={[compactSx, !selectedRange && inactiveSx]}
          >
            <Box component="span" sx={labelSx}>
              {t('toolbar.delete')}
            </Box>
          </Button>
          <Button
            variant="outlined"
            startIcon={<UndoOutlined aria-hidden />}
            onClick={() => {
              if (editor.canUndo) editor.undo();
            }}
            aria-disabled={!editor.canUndo || undefined}
            data-testid="undo"
            aria-label={t('toolbar.undo')}
            sx={[compactSx, !editor.canUndo && inactiveSx]}
          >
            <Box component="span" sx={labelSx}>
              {t('toolbar.undo')}
            </Box>
          </Button>
          <Button
            variant="outlined"
            startIcon={<SaveOutlined aria-hidden />}
            onClick={() => {
              if (!nothingToSave) void editor.save();
            }}
            // Not disabled: the autosave starting while the keyboard is on it would drop the focus to the page's body.
            aria-disabled={nothingToSave || undefined}
            data-testid="save"
            aria-label={t('toolbar.save')}
            sx={[compactSx, nothingToSave && inactiveSx]}
          >
            <Box component="span" sx={labelSx}>
              {t('toolbar.save')}
            </Box>
          </Button>
          <Box sx={{ flex: 1 }} />
          {actions}
        </Box>
      </Box>
      <ShortcutsDialog open={help} phase={phase} onClose={() => setHelp(false)} />
    </Box>
  );
}
