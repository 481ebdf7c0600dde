import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type Hls from 'hls.js/light';
import type { Level } from 'hls.js/light';

/**
 * How a player plays a video: its HLS ladder through hls.js where Media Source Extensions exist,
 * through the browser's own HLS elsewhere (iPhone Safari), or the MP4 by range requests while no
 * ladder is ready (the server answers 404 for it until then) and where neither exists.
 */
export type PlaybackMode = 'pending' | 'hls' | 'native' | 'mp4';

/** A rung a person may pin: its index in hls.js's levels and the short side of its picture. */
export interface Quality {
  index: number;
  height: number;
}

/** The signed URL of a video's master playlist: the same signature as its MP4 (`/v1/media/{id}?…`). */
export function masterPlaylistUrl(videoUrl: string): string {
  const at = videoUrl.indexOf('?');
  return at === -1 ? `${videoUrl}/hls/master.m3u8` : `${videoUrl.slice(0, at)}/hls/master.m3u8${videoUrl.slice(at)}`;
}

const shortSide = (level: Pick<Level, 'width' | 'height'>) => Math.min(level.width || level.height, level.height || level.width);

/**
 * Attaches the best way of playing `src` to the element. hls.js is loaded only here, when a page
 * shows a player and a ladder exists, never with the first screens. `onFatal` is called when the
 * stream cannot go on (its signed URLs expired): the caller renews `src`, which attaches again.
 */
export function useAdaptiveSource(
  videoRef: RefObject<HTMLVideoElement | null>,
  src: string | null,
  onFatal: (at: number) => void,
): {
  mode: PlaybackMode;
  /** The element's src when it plays a file or the browser's own HLS; undefined otherwise. */
  elementSrc: string | undefined;
  qualities: Quality[];
  /** The rung playing now (its height), and the one pinned (null: automatic). */
  playing: number | null;
  pinned: number | null;
  pin(height: number | null): void;
} {
  // What was found for one `src`: another src reads as pending until its own answer.
  const [found, setFound] = useState<{ src: string | null; mode: PlaybackMode; qualities: Quality[]; playing: number | null }>({
    src: null,
    mode: 'pending',
    qualities: [],
    playing: null,
  });
  const [pinned, setPinned] = useState<number | null>(null);
  const hlsRef = useRef<Hls | null>(null);
  const pinnedRef = useRef<number | null>(null);
  const onFatalRef = useRef(onFatal);
  useEffect(() => {
    onFatalRef.current = onFatal;
  });

  useEffect(() => {
    if (!src) return;
    let cancelled = false;
    const video = videoRef.current;
    const master = masterPlaylistUrl(src);
    const settle = (mode: PlaybackMode) => setFound({ src, mode, qualities: [], playing: null });
    // Loaded while the playlist is asked for: both are needed before the first picture.
    const library = typeof window.MediaSource !== 'undefined' || 'ManagedMediaSource' in window ? import('hls.js/light') : null;
    void (async () => {
      const ladder = await fetch(master, { credentials: 'same-origin' }).then(
        // 204: no ladder yet, the MP4 plays.
        (response) => response.status === 200,
        () => false,
      );
      if (cancelled) return;
      const { default: HlsClass } = library ? await library.catch(() => ({ default: null })) : { default: null };
      if (cancelled) return;
      if (!ladder || !video) {
        settle('mp4');
        return;
      }
      if (HlsClass?.isSupported()) {
        const hls = new HlsClass({
          // The lowest rung first (its first segment arrives in a fraction of a second on 4G), then
          // the rung the bandwidth measured on every segment carries.
          startLevel: 0,
          capLevelToPlayerSize: false,
          maxBufferLength: 30,
          backBufferLength: 60,
        });
        hlsRef.current = hls;
        hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
          const rungs = data.levels.map((level, index) => ({ index, height: shortSide(level) })).sort((a, b) => b.height - a.height);
          setFound((f) => ({ ...f, qualities: rungs }));
          const wanted = pinnedRef.current;
          const match = wanted === null ? undefined : rungs.find((q) => q.height === wanted);
          if (match) hls.currentLevel = match.index;
        });
        hls.on(HlsClass.Events.LEVEL_SWITCHED, (_event, data) => {
          const level = hls.levels[data.level];
          setFound((f) => ({ ...f, playing: level ? shortSide(level) : null }));
        });
        hls.on(HlsClass.Events.ERROR, (_event, data) => {
          if (!data.fatal) return;
          if (data.type === HlsClass.ErrorTypes.MEDIA_ERROR) {
            hls.recoverMediaError();
            return;
          }
          onFatalRef.current(performance.now());
        });
        hls.attachMedia(video);
        hls.loadSource(master);
        settle('hls');
        return;
      }
      settle(video.canPlayType('application/vnd.apple.mpegurl') ? 'native' : 'mp4');
    })();
    return () => {
      cancelled = true;
      hlsRef.current?.destroy();
      hlsRef.current = null;
    };
  }, [src, videoRef]);

  const pin = useCallback((height: number | null) => {
    pinnedRef.current = height;
    setPinned(height);
    const hls = hlsRef.current;
    if (!hls) return;
    if (height === null) {
      hls.currentLevel = -1;
      return;
    }
    const index = hls.levels.findIndex((level) => shortSide(level) === height);
    // Switched at once: the buffer ahead is dropped and the pinned rung plays from here.
    if (index >= 0) hls.currentLevel = index;
  }, []);

  const current = found.src === src ? found : { mode: 'pending' as const, qualities: [], playing: null };
  const { mode } = current;
  const elementSrc = !src ? undefined : mode === 'mp4' ? src : mode === 'native' ? masterPlaylistUrl(src) : undefined;
  return { mode, elementSrc, qualities: current.qualities, playing: current.playing, pinned, pin };
}
