import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Where a step runs in one video, in seconds of that video; null when that video lacks the step. */
export interface Segment {
  start: number;
  end: number;
}
export interface RowSegments {
  subject: Segment | null;
  best: Segment | null;
}

export type StepByStepState =
  | { kind: 'idle' }
  /** `held`: a video stopped before the end of its step (on a drawing, or paused by hand) and waits to be played on. */
  | { kind: 'playing'; row: number; waiting: boolean; held: boolean }
  | { kind: 'done' }
  | { kind: 'nothing' };

/** How often the players are looked at while a step plays: a step ends within this of its mark. */
const TICK_MS = 50;

/**
 * "Play step by step": the same step plays on both videos from its start; each pauses at the
 * step's end, and the next step starts once the longer one is done. Only steps both videos have
 * are played. The videos are the players' own <video> elements, found in their holders when
 * needed (a player may replace its element): the player stays the product's one, driven from outside.
 */
export function useStepByStep(holders: Record<'subject' | 'best', RefObject<HTMLElement | null>>, rows: readonly RowSegments[]) {
  const [state, setState] = useState<StepByStepState>({ kind: 'idle' });
  const running = useRef<{ row: number; done: { subject: boolean; best: boolean } } | null>(null);
  const rowsRef = useRef(rows);
  useLayoutEffect(() => {
    rowsRef.current = rows;
  }, [rows]);
  const videosRef = useRef({
    subject: () => holders.subject.current?.querySelector('video') ?? null,
    best: () => holders.best.current?.querySelector('video') ?? null,
  });

  const matched = useCallback((from: number) => rowsRef.current.findIndex((r, i) => i >= from && r.subject && r.best), []);

  const pauseBoth = useCallback(() => {
    videosRef.current.subject()?.pause();
    videosRef.current.best()?.pause();
  }, []);

  const playRow = useCallback((row: number) => {
    const segments = rowsRef.current[row]!;
    running.current = { row, done: { subject: false, best: false } };
    setState({ kind: 'playing', row, waiting: false, held: false });
    for (const side of ['subject', 'best'] as const) {
      const video = videosRef.current[side]();
      const segment = segments[side];
      if (!video || !segment) {
        running.current.done[side] = true;
        continue;
      }
      video.currentTime = segment.start;
      void video.play().catch(() => undefined);
    }
  }, []);

  const stop = useCallback(() => {
    running.current = null;
    pauseBoth();
    setState({ kind: 'idle' });
  }, [pauseBoth]);

  const start = useCallback(
    (from = 0) => {
      const first = matched(from) >= 0 ? matched(from) : matched(0);
      if (first < 0) {
        running.current = null;
        setState({ kind: 'nothing' });
        return;
      }
      playRow(first);
    },
    [matched, playRow],
  );

  const isRunning = state.kind === 'playing';
  useEffect(() => {
    if (!isRunning) return;
    const timer = window.setInterval(() => {
      const now = running.current;
      if (!now) return;
      const segments = rowsRef.current[now.row];
      if (!segments) return;
      for (const side of ['subject', 'best'] as const) {
        const video = videosRef.current[side]();
        const segment = segments[side];
        if (now.done[side] || !video || !segment) continue;
        if (video.ended || video.currentTime >= segment.end - TICK_MS / 2000) {
          video.pause();
          // A late look (a busy device) has played past the end: back to the step's last moment.
          if (video.currentTime > segment.end) video.currentTime = segment.end;
          now.done[side] = true;
        }
      }
      const held = (['subject', 'best'] as const).some((side) => {
        const video = videosRef.current[side]();
        return !now.done[side] && !!video && video.paused && !video.ended;
      });
      setState((s) => (s.kind === 'playing' && s.held !== held ? { ...s, held } : s));
      if (now.done.subject && now.done.best) {
        const next = matched(now.row + 1);
        if (next < 0) {
          running.current = null;
          setState({ kind: 'done' });
        } else playRow(next);
      } else if (now.done.subject || now.done.best) {
        setState((s) => (s.kind === 'playing' && !s.waiting ? { ...s, waiting: true } : s));
      }
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [isRunning, matched, playRow]);

  // Leaving the page stops the playing.
  useEffect(() => () => void (running.current = null), []);

  /** Both videos to the start of a row's steps (the one lacking the step stays where it is). */
  const seek = useCallback(
    (row: number) => {
      if (running.current) stop();
      const segments = rowsRef.current[row];
      for (const side of ['subject', 'best'] as const) {
        const video = videosRef.current[side]();
        const segment = segments?.[side];
        if (video && segment) video.currentTime = segment.start;
      }
    },
    [stop],
  );

  return { state, start, stop, seek };
}
