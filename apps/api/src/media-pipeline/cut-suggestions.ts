import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SUGGESTION_MIN_GAP_SECONDS, type CutSuggestion } from '@sutura/domain/preparation';
import { ffmpegCapabilities, fileArg, run } from './ffmpeg.ts';

/**
 * Where an editor probably wants to cut: scene changes (the camera taken out of or put back into
 * the patient) and stretches that are nearly black (out of the body, lens covered) or washed out
 * (the lens near a light, being cleaned). One decoding pass over a small copy of the picture:
 * `scdet` scores each frame against the previous one, `signalstats` gives its mean luma.
 */

/** scdet's score (0..100) from which a frame starts a new scene. */
export const SCENE_THRESHOLD = 10;
/** Mean luma (limited range 16..235) at or under which a frame counts as dark, at or over as washed out. */
export const DARK_LUMA = 28;
export const BRIGHT_LUMA = 220;
/** Shortest dark or washed-out stretch worth a suggestion. */
export const MIN_STRETCH_SECONDS = 0.5;
/** At most this many scene marks (the strongest), so a shaky recording does not bury the timeline. */
export const MAX_SCENE_MARKS = 300;

/** Reads the file of ffmpeg's `metadata=mode=print:key=…:file=…`: time and value of each frame. */
export function parseMetadataPrint(text: string, key: string): { time: number; value: number }[] {
  const values: { time: number; value: number }[] = [];
  let time: number | null = null;
  for (const line of text.split('\n')) {
    const at = /pts_time:(-?[\d.]+)/.exec(line);
    if (at) {
      time = Number(at[1]);
      continue;
    }
    if (time !== null && line.startsWith(`${key}=`)) {
      const value = Number(line.slice(key.length + 1));
      if (Number.isFinite(value)) values.push({ time, value });
    }
  }
  return values;
}

function stretches(
  lumas: readonly { time: number; value: number }[],
  frameSeconds: number,
  inside: (luma: number) => boolean,
  score: (meanLuma: number) => number,
  kind: 'dark' | 'bright',
): CutSuggestion[] {
  const found: CutSuggestion[] = [];
  let start: number | null = null;
  let sum = 0;
  let count = 0;
  const close = (end: number) => {
    if (start !== null && end - start >= MIN_STRETCH_SECONDS) {
      found.push({ kind, start: round(start), end: round(end), score: round(score(sum / count)) });
    }
    start = null;
    sum = 0;
    count = 0;
  };
  for (const { time, value } of lumas) {
    if (inside(value)) {
      start ??= time;
      sum += value;
      count++;
    } else {
      close(time);
    }
  }
  const last = lumas[lumas.length - 1];
  if (last) close(last.time + frameSeconds);
  return found;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Suggestions from the per-frame scene scores and mean lumas, in time order. */
export function suggestionsFrom(
  scenes: readonly { time: number; value: number }[],
  lumas: readonly { time: number; value: number }[],
  frameRate: number,
): CutSuggestion[] {
  const frameSeconds = 1 / frameRate;
  const dark = stretches(
    lumas,
    frameSeconds,
    (l) => l <= DARK_LUMA,
    (l) => Math.min(1, Math.max(0, 1 - (l - 16) / (DARK_LUMA - 16 + 1))),
    'dark',
  );
  const bright = stretches(
    lumas,
    frameSeconds,
    (l) => l >= BRIGHT_LUMA,
    (l) => Math.min(1, Math.max(0, (l - BRIGHT_LUMA + 1) / (235 - BRIGHT_LUMA + 1))),
    'bright',
  );
  // The strongest change of each burst, then the strongest bursts.
  const marks: CutSuggestion[] = [];
  for (const { time, value } of scenes) {
    if (value < SCENE_THRESHOLD || time <= 0) continue;
    const previous = marks[marks.length - 1];
    const mark: CutSuggestion = { kind: 'scene', start: round(time), end: null, score: round(Math.min(1, value / 100)) };
    if (previous && time - previous.start < SUGGESTION_MIN_GAP_SECONDS) {
      if (mark.score > previous.score) marks[marks.length - 1] = mark;
    } else {
      marks.push(mark);
    }
  }
  const strongest = marks.sort((a, b) => b.score - a.score).slice(0, MAX_SCENE_MARKS);
  return [...strongest, ...dark, ...bright].sort((a, b) => a.start - b.start || a.kind.localeCompare(b.kind));
}

/** Runs the analysis over a video; `work` is a directory for ffmpeg's two metadata files. */
export async function detectCutSuggestions(
  file: string,
  opts: { work: string; frameRate: number; duration: number; ffmpegPath?: string | undefined; signal?: AbortSignal | undefined },
): Promise<CutSuggestion[]> {
  const lumaFile = path.join(opts.work, 'luma.txt');
  const sceneFile = path.join(opts.work, 'scenes.txt');
  // The metadata filter's file option is itself parsed by the filter graph: keep it plain.
  const filterPath = (f: string) => f.replaceAll('\\', '/').replaceAll(':', '\\:').replaceAll("'", '');
  // scdet scores 0..100; an ffmpeg without it (older builds) has select's scene score, 0..1: the
  // same measure (the lesser of the mean frame difference and its change) in 8-bit levels / 100.
  const scdet = (await ffmpegCapabilities({ ffmpegPath: opts.ffmpegPath })).filters.has('scdet');
  const sceneKey = scdet ? 'lavfi.scd.score' : 'lavfi.scene_score';
  const filters = [
    'scale=160:90:flags=fast_bilinear',
    'signalstats',
    `metadata=mode=print:key=lavfi.signalstats.YAVG:file='${filterPath(lumaFile)}'`,
    scdet ? `scdet=threshold=${SCENE_THRESHOLD}` : 'select=gte(scene\\,0)',
    `metadata=mode=print:key=${sceneKey}:file='${filterPath(sceneFile)}'`,
  ];
  await run(['-protocol_whitelist', 'file', '-i', fileArg(file), '-map', '0:v:0', '-an', '-vf', filters.join(','), '-f', 'null', '-'], {
    bin: opts.ffmpegPath,
    signal: opts.signal,
    timeoutMs: 30 * 60_000 + opts.duration * 2000,
  });
  const lumas = parseMetadataPrint(await readFile(lumaFile, 'utf8'), 'lavfi.signalstats.YAVG');
  const scores = parseMetadataPrint(await readFile(sceneFile, 'utf8'), sceneKey);
  const scenes = scdet ? scores : scores.map((s) => ({ time: s.time, value: (s.value * 100 * 100) / 256 }));
  return suggestionsFrom(scenes, lumas, opts.frameRate);
}
