import { useEffect, useRef, useState } from 'react';

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?(callback: (now: number, metadata: { mediaTime: number }) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/**
 * The presentation time of the frame the player shows (requestVideoFrameCallback's mediaTime):
 * a paused player's currentTime may lie anywhere within a frame, the drawing belongs to the frame.
 * Browsers without the callback give currentTime, which the server snaps to the frame shown there.
 */
export function usePresentedFrame(video: HTMLVideoElement | null): () => number {
  const presented = useRef<number | null>(null);
  useEffect(() => {
    const v = video as FrameCallbackVideo | null;
    if (!v?.requestVideoFrameCallback) return;
    let handle = 0;
    const onFrame = (_now: number, metadata: { mediaTime: number }) => {
      presented.current = metadata.mediaTime;
      handle = v.requestVideoFrameCallback!(onFrame);
    };
    handle = v.requestVideoFrameCallback(onFrame);
    return () => v.cancelVideoFrameCallback?.(handle);
  }, [video]);
  return () => {
    if (!video) return 0;
    const shown = presented.current;
    // A frame lasts at most a few hundredths of a second: further off, the callback is stale.
    return shown !== null && Math.abs(shown - video.currentTime) < 0.1 && shown <= video.currentTime + 0.001 ? shown : video.currentTime;
  };
}

/** Within this of a drawing's time, a paused player shows its frame. */
const SHOWN_WITHIN = 0.08;

/**
 * Drawings on a playing video: with `pauseOnDrawings`, playing through a drawing's frame pauses
 * there (back on that very frame); a paused player on a drawing's frame shows that drawing.
 * Seeking past a drawing does not stop on it.
 */
export function useDrawingStops<T extends { time: number }>(
  video: HTMLVideoElement | null,
  drawings: readonly T[],
  pauseOnDrawings: boolean,
): T | null {
  // Where a paused player stands (null while it plays): the drawing shown follows from it.
  const [standing, setStanding] = useState<number | null>(null);
  const drawingsRef = useRef(drawings);
  const pauseRef = useRef(pauseOnDrawings);
  useEffect(() => {
    drawingsRef.current = drawings;
    pauseRef.current = pauseOnDrawings;
  });

  useEffect(() => {
    const v = video as FrameCallbackVideo | null;
    if (!v) return;
    let previous = v.currentTime;
    let handle = 0;
    const follow = () => setStanding(v.paused ? v.currentTime : null);
    const check = (now: number) => {
      if (!v.paused && pauseRef.current) {
        const crossed = drawingsRef.current.find((d) => previous < d.time && d.time <= now + 0.001);
        if (crossed) {
          v.pause();
          // Back on the drawing's frame: a little past its start, so float rounding lands on it.
          v.currentTime = crossed.time + 0.001;
          previous = v.currentTime;
          return;
        }
      }
      previous = now;
    };
    const onFrame = (_n: number, metadata: { mediaTime: number }) => {
      check(metadata.mediaTime);
      handle = v.requestVideoFrameCallback!(onFrame);
    };
    if (v.requestVideoFrameCallback) handle = v.requestVideoFrameCallback(onFrame);
    const onTimeUpdate = () => {
      if (!v.requestVideoFrameCallback) check(v.currentTime);
    };
    const onSeeking = () => {
      previous = v.currentTime;
    };
    v.addEventListener('timeupdate', onTimeUpdate);
    v.addEventListener('seeking', onSeeking);
    for (const event of ['seeked', 'pause', 'play', 'loadeddata'] as const) v.addEventListener(event, follow);
    const first = requestAnimationFrame(follow);
    return () => {
      cancelAnimationFrame(first);
      v.cancelVideoFrameCallback?.(handle);
      v.removeEventListener('timeupdate', onTimeUpdate);
      v.removeEventListener('seeking', onSeeking);
      for (const event of ['seeked', 'pause', 'play', 'loadeddata'] as const) v.removeEventListener(event, follow);
    };
  }, [video]);

  if (standing === null) return null;
  return drawings.find((d) => standing >= d.time - 0.001 && standing - d.time < SHOWN_WITHIN) ?? null;
}
