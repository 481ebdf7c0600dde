import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { storyboardSchema } from '@sutura/domain/videos';
import { mediaPath } from '@/components/video/signed-url';

export type Storyboard = z.infer<typeof storyboardSchema>;

/** One thumbnail of the storyboard: the time range it stands for and its cell in a sheet. */
export interface StoryboardCue {
  start: number;
  end: number;
  /** Index in `storyboard.sheets`. */
  sheet: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

function seconds(stamp: string): number {
  const parts = stamp.trim().split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

const CUE_TIMES = /^((?:\d+:)?\d{1,2}:\d{2}(?:\.\d+)?)\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}(?:\.\d+)?)/;
const CUE_TARGET = /^([^#\s]+)#xywh=(\d+),(\d+),(\d+),(\d+)$/;

/**
 * Reads the WebVTT of a storyboard: cues `sheet-NNN.jpg#xywh=x,y,w,h`. Sheets are numbered in the
 * order of `storyboard.sheets`, so the n-th distinct file name is the n-th signed URL.
 */
export function parseStoryboardVtt(text: string): StoryboardCue[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const sheets: string[] = [];
  const cues: StoryboardCue[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const times = CUE_TIMES.exec(lines[i]!.trim());
    if (!times) continue;
    const target = CUE_TARGET.exec(lines[i + 1]!.trim());
    if (!target) continue;
    const name = target[1]!.split('/').pop()!;
    if (!sheets.includes(name)) sheets.push(name);
    cues.push({
      start: seconds(times[1]!),
      end: seconds(times[2]!),
      sheet: sheets.indexOf(name),
      x: Number(target[2]),
      y: Number(target[3]),
      w: Number(target[4]),
      h: Number(target[5]),
    });
  }
  return cues;
}

/** The cue shown at a time: the last one that starts at or before it. */
export function cueAt(cues: readonly StoryboardCue[], time: number): StoryboardCue | undefined {
  let lo = 0;
  let hi = cues.length - 1;
  let found: StoryboardCue | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cues[mid]!.start <= time) {
      found = cues[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found ?? cues[0];
}

async function getStoryboardCues(url: string): Promise<StoryboardCue[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`storyboard: ${response.status}`);
  return parseStoryboardVtt(await response.text());
}

/** Keyed by the media, not by its signed URL, which changes at every fetch of the video. */
export const storyboardOptions = (vttUrl: string) =>
  queryOptions({
    queryKey: ['storyboard', mediaPath(vttUrl)],
    queryFn: () => getStoryboardCues(vttUrl),
    staleTime: Infinity,
  });

export function useStoryboardCues(storyboard: Storyboard | null) {
  return useQuery({ ...storyboardOptions(storyboard?.vtt ?? ''), enabled: Boolean(storyboard?.vtt) });
}
