import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type SyntheticEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Tooltip, { type TooltipProps } from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Forward10 from '@mui/icons-material/Forward10';
import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import KeyboardOutlined from '@mui/icons-material/KeyboardOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Replay10 from '@mui/icons-material/Replay10';
import VolumeOff from '@mui/icons-material/VolumeOff';
import VolumeUp from '@mui/icons-material/VolumeUp';
import { currentStepIndex } from '@sutura/domain/current-step';
import { SKIP_SECONDS, type VideoStep } from '@sutura/domain/videos';
import { useUiState } from '@/lib/ui-state';
import type { Storyboard } from '@/components/video/storyboard';
import { PlayerTimeline, type TimelineMarker } from '@/components/video/player-timeline';
import { formatClock } from '@/components/video/format';
import { useStableMediaUrl } from '@/components/video/use-stable-media-url';
import { useAdaptiveSource } from '@/components/video/use-adaptive-source';
import { visuallyHidden } from '@/components/video/visually-hidden';
import { Kbd } from '@/components/kbd';

export interface VideoPlayerProps {
  /** Signed URL of the video; the server answers range requests, so seeking fetches only what it needs. */
  videoUrl: string;
  posterUrl: string | null;
  storyboard: Storyboard | null;
  /** What the video shows, for the player's accessible name. */
  title: string;
  /** The signed URLs stopped working (they expire): the caller fetches the video again. */
  onUrlsExpired(): void;
  /** Each time the position changes, for pages that follow the steps of the video. */
  onTimeUpdate?(seconds: number): void;
  /** Steps of a prepared video, in seconds of this video: on the timeline and as a list that seeks. */
  steps?: readonly VideoStep[];
  /** Time-coded comments: marks on the timeline (a range when `end` is set). */
  markers?: readonly TimelineMarker[];
  /** Seeks when it changes (a new object each time, so the same moment can be asked twice). */
  seekRequest?: { time: number } | null;
  /** Where playback starts once the video has loaded (a link to a moment). */
  startAt?: number;
  /** Drawn over the picture, in fullscreen too (drawings on the frame, components/drawing). */
  overlay?: ReactNode;
  /** Shown under the picture, above the controls, in fullscreen too (the comment of the drawing shown). */
  caption?: ReactNode;
  /** The video element, for what follows its frames (drawings). */
  onMediaElement?(video: HTMLVideoElement | null): void;
}

export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** SPEC §4: a skip never leaves 0..duration. */
export function clampTime(time: number, duration: number): number {
  return Math.min(Math.max(0, time), Number.isFinite(duration) && duration > 0 ? duration : 0);
}

function bufferedRanges(video: HTMLVideoElement): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < video.buffered.length; i++) ranges.push([video.buffered.start(i), video.buffered.end(i)]);
  return ranges;
}

/** Drawn inside the player, so that they show in fullscreen too. */
function ControlTip(props: TooltipProps) {
  return <Tooltip {...props} slotProps={{ popper: { disablePortal: true } }} />;
}

/** Two failures in this long mean the fresh URL did not help: the error is shown. */
const RENEWAL_WINDOW_MS = 10_000;

/**
 * The HTML video player of the product with its own controls (reused by the editor and expert
 * pages): timeline with buffered range and storyboard preview, skips of SKIP_SECONDS, volume,
 * speed, fullscreen (the shell hides its header meanwhile) and keyboard shortcuts while focused.
 */
export function VideoPlayer({
  videoUrl,
  posterUrl,
  storyboard,
  title,
  onUrlsExpired,
  onTimeUpdate,
  steps = [],
  markers = [],
  seekRequest = null,
  startAt,
  overlay,
  caption,
  onMediaElement,
}: VideoPlayerProps) {
  const { t } = useTranslation('videos');
  const { setFullscreen } = useUiState();
  const containerRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  // Two players on one page (the comparison) must not share the ids their descriptions use.
  const hintId = useId();
  const titleId = useId();
  const video = useStableMediaUrl(videoUrl);
  const poster = useStableMediaUrl(posterUrl);

  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(0);
  const [buffered, setBuffered] = useState<[number, number][]>([]);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [rate, setRate] = useState(1);
  const [waiting, setWaiting] = useState(false);
  const [isFullscreen, setIsFullscreen] = useState(false);
  const [failed, setFailed] = useState(false);
  const [speedAnchor, setSpeedAnchor] = useState<HTMLElement | null>(null);
  const [qualityAnchor, setQualityAnchor] = useState<HTMLElement | null>(null);
  const [helpAnchor, setHelpAnchor] = useState<HTMLElement | null>(null);
  // Where to go back to once a fresh URL has loaded, and when the last renewal was asked for.
  const resumeRef = useRef<{ time: number; play: boolean } | null>(null);
  const lastRenewalRef = useRef(-Infinity);

  const el = () => videoRef.current;
  const setVideoRef = useCallback(
    (node: HTMLVideoElement | null) => {
      videoRef.current = node;
      onMediaElement?.(node);
    },
    [onMediaElement],
  );
  const startAtRef = useRef(startAt);

  const togglePlay = () => {
    const v = el();
    if (!v) return;
    if (v.paused || v.ended) void v.play().catch(() => undefined);
    else v.pause();
  };

  const seek = (time: number) => {
    const v = el();
    if (!v || Number.isNaN(time)) return;
    // A step or a key pressed before the metadata: the time waits for them, as a seek request does.
    if (Number.isNaN(v.duration)) {
      startAtRef.current = Math.max(0, time);
      setCurrent(startAtRef.current);
      return;
    }
    v.currentTime = clampTime(time, v.duration);
    setCurrent(v.currentTime);
  };

  useEffect(() => {
    const v = videoRef.current;
    if (!seekRequest || !v) return;
    // Before the metadata the duration is unknown: the time waits for onLoadedMetadata.
    if (Number.isNaN(v.duration)) startAtRef.current = seekRequest.time;
    else {
      v.currentTime = clampTime(seekRequest.time, v.duration);
      setCurrent(v.currentTime);
    }
  }, [seekRequest]);

  const skip = (delta: number) => {
    const v = el();
    if (v) seek(v.currentTime + delta);
  };

  const toggleMute = () => {
    const v = el();
    if (!v) return;
    v.muted = !v.muted;
    if (!v.muted && v.volume === 0) v.volume = 0.5;
  };

  const changeVolume = (value: number) => {
    const v = el();
    if (!v) return;
    v.volume = value;
    v.muted = value === 0;
  };

  const changeRate = (value: number) => {
    const v = el();
    if (v) v.playbackRate = value;
    setSpeedAnchor(null);
  };

  const toggleFullscreen = () => {
    const container = containerRef.current;
    if (!container) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else if (typeof container.requestFullscreen === 'function') void container.requestFullscreen().catch(() => undefined);
    // iPhone Safari has no Fullscreen API on elements: its own video fullscreen, without our controls.
    else (el() as (HTMLVideoElement & { webkitEnterFullscreen?: () => void }) | null)?.webkitEnterFullscreen?.();
  };

  // The shell hides its header while this player is fullscreen, and shows it again on leaving.
  useEffect(() => {
    const container = containerRef.current;
    const onChange = () => {
      const active = document.fullscreenElement !== null && document.fullscreenElement === container;
      setIsFullscreen(active);
      setFullscreen(active);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      if (document.fullscreenElement && document.fullscreenElement === container) {
        void document.exitFullscreen().catch(() => undefined);
        setFullscreen(false);
      }
    };
  }, [setFullscreen]);

  /** At `at` (an event's timeStamp): a failure right after a renewal means a fresh URL did not help. */
  const renewSource = (at: number) => {
    const v = el();
    if (at - lastRenewalRef.current < RENEWAL_WINDOW_MS) {
      setFailed(true);
      return;
    }
    lastRenewalRef.current = at;
    resumeRef.current = { time: v?.currentTime ?? current, play: v ? !v.paused : playing };
    setWaiting(true);
    // The signed URLs expire: take a fresh one (fetching the video again if none is there yet).
    if (!video.renew()) onUrlsExpired();
    poster.renew();
  };

  // The HLS ladder when the video has one (chosen by the bandwidth measured), else the MP4.
  const adaptive = useAdaptiveSource(videoRef, video.src, (at) => renewSource(at));

  // The element starts loading as soon as it is created, before its page is on screen, and React
  // drops the media events of an element not yet mounted: metadata already there are read here.
  useEffect(() => {
    const v = videoRef.current;
    if (!v || v.readyState < 1) return;
    setDuration(v.duration);
    setBuffered(bufferedRanges(v));
    if (startAtRef.current !== undefined) {
      v.currentTime = clampTime(startAtRef.current, v.duration);
      startAtRef.current = undefined;
    }
    setCurrent(v.currentTime);
  }, []);

  const onLoadedMetadata = (event: SyntheticEvent<HTMLVideoElement>) => {
    const v = event.currentTarget;
    setDuration(v.duration);
    setFailed(false);
    const resume = resumeRef.current;
    resumeRef.current = null;
    if (startAtRef.current !== undefined && !resume) {
      v.currentTime = clampTime(startAtRef.current, v.duration);
      setCurrent(v.currentTime);
      startAtRef.current = undefined;
    }
    if (resume) {
      v.currentTime = clampTime(resume.time, v.duration);
      if (resume.play) void v.play().catch(() => undefined);
    }
  };

  const retryLoad = (event: SyntheticEvent) => {
    lastRenewalRef.current = -Infinity;
    setFailed(false);
    renewSource(event.timeStamp);
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    // A focused button or menu answers Space and Enter itself; the volume slider its arrows.
    if (target.closest('[role="menu"]')) return;
    const onButton = target.closest('button') !== null;
    const onRange = target.closest('input[type="range"]') !== null;
    const v = el();
    if (!v) return;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case ' ':
      case 'Spacebar':
        if (onButton) return;
        handled();
        togglePlay();
        break;
      case 'k':
      case 'K':
        handled();
        togglePlay();
        break;
      case 'ArrowLeft':
      case 'j':
      case 'J':
        if (onRange && event.key === 'ArrowLeft') return;
        handled();
        skip(-SKIP_SECONDS);
        break;
      case 'ArrowRight':
      case 'l':
      case 'L':
        if (onRange && event.key === 'ArrowRight') return;
        handled();
        skip(SKIP_SECONDS);
        break;
      case 'f':
      case 'F':
        handled();
        toggleFullscreen();
        break;
      case 'm':
      case 'M':
        handled();
        toggleMute();
        break;
      case 'Home':
        if (onRange) return;
        handled();
        seek(0);
        break;
      case 'End':
        if (onRange) return;
        handled();
        seek(v.duration);
        break;
      default:
        break;
    }
  };

  const withHours = duration >= 3600;
  const seconds = SKIP_SECONDS;
  const currentStep = currentStepIndex(steps, current);
  const shortcuts = [
    { keys: [t('player.keys.space'), 'K'], label: t('player.shortcuts.playPause') },
    { keys: ['←', 'J'], label: t('player.shortcuts.back', { seconds }) },
    { keys: ['→', 'L'], label: t('player.shortcuts.forward', { seconds }) },
    { keys: ['F'], label: t('player.shortcuts.fullscreen') },
    { keys: ['M'], label: t('player.shortcuts.mute') },
    { keys: [t('player.keys.home')], label: t('player.shortcuts.start') },
    { keys: [t('player.keys.end')], label: t('player.shortcuts.end') },
  ];
  const playingLabel = adaptive.playing === null ? '' : `${adaptive.playing}p`;
  const qualityLabel =
    adaptive.pinned !== null
      ? `${adaptive.pinned}p`
      : playingLabel
        ? t('player.qualityAutoCurrent', { value: playingLabel })
        : t('player.qualityAuto');
  const shortQualityLabel = adaptive.pinned !== null ? `${adaptive.pinned}p` : playingLabel || t('player.qualityAuto');
  const pinQuality = (height: number | null) => {
    adaptive.pin(height);
    setQualityAnchor(null);
  };
  const controlSx = { color: '#fff', '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 0 } } as const;

  return (
    <Box
      ref={containerRef}
      data-testid="video-player"
      data-playback={adaptive.mode}
      data-quality={adaptive.playing ?? undefined}
      role="region"
      aria-label={t('player.label', { title })}
      aria-describedby={hintId}
      tabIndex={0}
      onKeyDown={onKeyDown}
      sx={{
        position: 'relative',
        bgcolor: '#000',
        color: '#fff',
        borderRadius: isFullscreen ? 0 : 2,
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        width: '100%',
        height: isFullscreen ? '100%' : 'auto',
        '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 2 },
      }}
    >
      <Typography id={hintId} sx={visuallyHidden}>
        {t('player.shortcutsHint')}
      </Typography>
      <Box sx={{ position: 'relative', flex: 1, minHeight: 0, display: 'grid', placeItems: 'center' }}>
        <Box
          component="video"
          ref={setVideoRef}
          src={adaptive.elementSrc}
          poster={poster.src ?? undefined}
          preload="metadata"
          playsInline
          onClick={togglePlay}
          onDoubleClick={toggleFullscreen}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onTimeUpdate={(e: SyntheticEvent<HTMLVideoElement>) => {
            setCurrent(e.currentTarget.currentTime);
            onTimeUpdate?.(e.currentTarget.currentTime);
          }}
          onDurationChange={(e: SyntheticEvent<HTMLVideoElement>) => setDuration(e.currentTarget.duration)}
          onLoadedMetadata={onLoadedMetadata}
          onProgress={(e: SyntheticEvent<HTMLVideoElement>) => setBuffered(bufferedRanges(e.currentTarget))}
          onVolumeChange={(e: SyntheticEvent<HTMLVideoElement>) => {
            setVolume(e.currentTarget.volume);
            setMuted(e.currentTarget.muted);
          }}
          onRateChange={(e: SyntheticEvent<HTMLVideoElement>) => setRate(e.currentTarget.playbackRate)}
          onWaiting={() => setWaiting(true)}
          onPlaying={() => setWaiting(false)}
          onCanPlay={() => setWaiting(false)}
          onSeeked={(e: SyntheticEvent<HTMLVideoElement>) => setBuffered(bufferedRanges(e.currentTarget))}
          onError={(e: SyntheticEvent<HTMLVideoElement>) => renewSource(e.timeStamp)}
          sx={{
            display: 'block',
            width: '100%',
            height: isFullscreen ? '100%' : 'auto',
            maxHeight: isFullscreen ? 'none' : '70vh',
            aspectRatio: isFullscreen ? 'auto' : '16 / 9',
            objectFit: 'contain',
            bgcolor: '#000',
            cursor: 'pointer',
          }}
        />
        {overlay}
        {waiting && !failed && (
          <CircularProgress aria-label={t('player.loading')} sx={{ position: 'absolute', color: '#fff', pointerEvents: 'none' }} />
        )}
        {failed && (
          <Alert
            severity="error"
            sx={{ position: 'absolute', mx: 2 }}
            action={
              <Button color="inherit" size="small" onClick={retryLoad}>
                {t('player.reload')}
              </Button>
            }
          >
            {t('player.error')}
          </Alert>
        )}
      </Box>
      {caption}
      <Box sx={{ px: { xs: 1, sm: 1.5 }, pt: 0.5, pb: 0.5, bgcolor: '#000' }}>
        <PlayerTimeline
          current={current}
          duration={duration}
          buffered={buffered}
          storyboard={storyboard}
          steps={steps}
          currentStep={currentStep}
          markers={markers}
          onSeek={seek}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0, sm: 0.5 }, minHeight: 48 }}>
          <ControlTip title={`${t(playing ? 'player.pause' : 'player.play')} (K)`}>
            <IconButton
              data-testid="player-play"
              aria-label={t(playing ? 'player.pause' : 'player.play')}
              onClick={togglePlay}
              sx={controlSx}
            >
              {playing ? <Pause /> : <PlayArrow />}
            </IconButton>
          </ControlTip>
          <ControlTip title={`${t('player.skipBack', { seconds })} (J, ←)`}>
            <IconButton
              data-testid="player-skip-back"
              aria-label={t('player.skipBack', { seconds })}
              onClick={() => skip(-seconds)}
              sx={controlSx}
            >
              <Replay10 />
            </IconButton>
          </ControlTip>
          <ControlTip title={`${t('player.skipForward', { seconds })} (L, →)`}>
            <IconButton
              data-testid="player-skip-forward"
              aria-label={t('player.skipForward', { seconds })}
              onClick={() => skip(seconds)}
              sx={controlSx}
            >
              <Forward10 />
            </IconButton>
          </ControlTip>
          <ControlTip title={`${t(muted ? 'player.unmute' : 'player.mute')} (M)`}>
            {/* A phone has its volume buttons: on one, with a quality to choose, the bar keeps its room for that. */}
            <IconButton
              aria-label={t(muted ? 'player.unmute' : 'player.mute')}
              onClick={toggleMute}
              sx={{ ...controlSx, display: { xs: adaptive.qualities.length > 1 ? 'none' : 'inline-flex', sm: 'inline-flex' } }}
            >
              {muted || volume === 0 ? <VolumeOff /> : <VolumeUp />}
            </IconButton>
          </ControlTip>
          <Slider
            size="small"
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            onChange={(_, value) => changeVolume(value)}
            aria-label={t('player.volume')}
            getAriaValueText={(value) => t('common:percent', { value: Math.round(value * 100) })}
            sx={{ width: 80, mx: 1, color: '#fff', display: { xs: 'none', sm: 'inline-flex' } }}
          />
          <Typography
            component="span"
            sx={{ fontSize: 14, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ml: { xs: 0.5, sm: 1 } }}
          >
            <span aria-hidden>
              {formatClock(current, withHours)} / {formatClock(duration, withHours)}
            </span>
          </Typography>
          <Box sx={{ flex: 1 }} />
          <ControlTip title={t('player.speed')}>
            <Button
              color="inherit"
              aria-label={t('player.speedValue', { value: rate })}
              aria-haspopup="menu"
              aria-expanded={speedAnchor ? 'true' : undefined}
              onClick={(e) => setSpeedAnchor(e.currentTarget)}
              sx={{ ...controlSx, minWidth: 48, minHeight: 40, px: 1 }}
            >
              {`${rate}×`}
            </Button>
          </ControlTip>
          <Menu
            anchorEl={speedAnchor}
            open={Boolean(speedAnchor)}
            onClose={() => setSpeedAnchor(null)}
            container={() => containerRef.current}
            slotProps={{ list: { 'aria-label': t('player.speed') } }}
          >
            {PLAYBACK_RATES.map((value) => (
              <MenuItem key={value} selected={value === rate} onClick={() => changeRate(value)}>
                {value === 1 ? t('player.normalSpeed') : `${value}×`}
              </MenuItem>
            ))}
          </Menu>
          {adaptive.qualities.length > 1 && (
            <>
              <ControlTip title={t('player.quality')}>
                <Button
                  color="inherit"
                  data-testid="player-quality"
                  aria-label={t('player.qualityValue', { value: qualityLabel })}
                  aria-haspopup="menu"
                  aria-expanded={qualityAnchor ? 'true' : undefined}
                  onClick={(e) => setQualityAnchor(e.currentTarget)}
                  sx={{ ...controlSx, minWidth: 48, minHeight: 40, px: 1, whiteSpace: 'nowrap' }}
                >
                  <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                    {qualityLabel}
                  </Box>
                  {/* A phone's control bar has room for the rung alone. */}
                  <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }}>
                    {shortQualityLabel}
                  </Box>
                </Button>
              </ControlTip>
              <Menu
                anchorEl={qualityAnchor}
                open={Boolean(qualityAnchor)}
                onClose={() => setQualityAnchor(null)}
                container={() => containerRef.current}
                slotProps={{ list: { 'aria-label': t('player.quality') } }}
              >
                <MenuItem selected={adaptive.pinned === null} onClick={() => pinQuality(null)} data-testid="player-quality-auto">
                  {t('player.qualityAuto')}
                </MenuItem>
                {adaptive.qualities.map((q) => (
                  <MenuItem
                    key={q.index}
                    selected={adaptive.pinned === q.height}
                    onClick={() => pinQuality(q.height)}
                    data-testid="player-quality-option"
                  >
                    {`${q.height}p`}
                  </MenuItem>
                ))}
              </Menu>
            </>
          )}
          <ControlTip title={t('player.shortcutsTitle')}>
            <IconButton
              aria-label={t('player.shortcutsTitle')}
              aria-haspopup="dialog"
              onClick={(e) => setHelpAnchor(e.currentTarget)}
              sx={{ ...controlSx, display: { xs: 'none', sm: 'inline-flex' } }}
            >
              <KeyboardOutlined />
            </IconButton>
          </ControlTip>
          <Popover
            open={Boolean(helpAnchor)}
            anchorEl={helpAnchor}
            onClose={() => setHelpAnchor(null)}
            container={() => containerRef.current}
            anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
            transformOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, maxWidth: 320 } } as object }}
          >
            <Typography id={titleId} variant="h4" component="h2" sx={{ mb: 1 }}>
              {t('player.shortcutsTitle')}
            </Typography>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.75 }}>
              {shortcuts.map((s) => (
                <Box key={s.label} sx={{ display: 'contents' }}>
                  <Box component="dt" sx={{ display: 'flex', gap: 0.5 }}>
                    {s.keys.map((key) => (
                      <Kbd key={key}>{key}</Kbd>
                    ))}
                  </Box>
                  <Box component="dd" sx={{ m: 0, fontSize: 14 }}>
                    {s.label}
                  </Box>
                </Box>
              ))}
            </Box>
          </Popover>
          <ControlTip title={`${t(isFullscreen ? 'player.exitFullscreen' : 'player.fullscreen')} (F)`}>
            <IconButton
              data-testid="player-fullscreen"
              aria-label={t(isFullscreen ? 'player.exitFullscreen' : 'player.fullscreen')}
              onClick={toggleFullscreen}
              sx={controlSx}
            >
              {isFullscreen ? <FullscreenExit /> : <Fullscreen />}
            </IconButton>
          </ControlTip>
        </Box>
        {steps.length > 0 && (
          <Box
            component="ol"
            aria-label={t('player.steps')}
            data-testid="player-steps"
            sx={{ m: 0, p: 0, pb: 0.5, listStyle: 'none', display: 'flex', gap: 0.75, overflowX: 'auto' }}
          >
            {steps.map((step, index) => (
              <Box component="li" key={step.id} sx={{ flex: '0 0 auto' }}>
                <Button
                  size="small"
                  color="inherit"
                  onClick={() => seek(step.start)}
                  aria-current={index === currentStep ? 'step' : undefined}
                  data-testid="player-step"
                  data-current={index === currentStep || undefined}
                  sx={{
                    color: '#fff',
                    textTransform: 'none',
                    border: '1px solid',
                    borderColor: index === currentStep ? 'primary.main' : 'rgba(255,255,255,0.3)',
                    bgcolor: index === currentStep ? 'rgba(23,199,164,0.25)' : 'transparent',
                    maxWidth: 260,
                    '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 0 },
                  }}
                >
                  {/* Long names wrap rather than being cut: the whole name of the step is read. */}
                  <Box component="span" sx={{ whiteSpace: 'normal', textAlign: 'left', overflowWrap: 'anywhere' }}>
                    {t('player.step', { number: index + 1, name: step.name, time: formatClock(step.start, withHours) })}
                  </Box>
                </Button>
              </Box>
            ))}
          </Box>
        )}
      </Box>
    </Box>
  );
}
