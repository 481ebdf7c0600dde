import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceToResult, type Trim } from '@sutura/domain/preparation';
import { longestKeyframeGap } from '../src/media-pipeline/encode.ts';
import { ffprobe } from '../src/media-pipeline/ffmpeg.ts';
import { planRange, renderRanges } from '../src/media-pipeline/render-ranges.ts';
import { frameRanges } from '../src/modules/preparation/preparation.jobs.ts';
import { makePatternClip, readFrameNumbers } from './frame-pattern.ts';

const RATE = 25;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sutura-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('planRange', () => {
  it('copies whole groups and encodes only the partial groups around the cuts', () => {
    const keys = [0, 50, 100, 150, 200];
    expect(planRange({ startFrame: 60, endFrame: 170 }, keys)).toEqual([
      { kind: 'encode', startFrame: 60, endFrame: 100 },
      { kind: 'copy', startFrame: 100, endFrame: 150 },
      { kind: 'encode', startFrame: 150, endFrame: 170 },
    ]);
    // Cuts on keyframes: nothing to encode.
    expect(planRange({ startFrame: 50, endFrame: 150 }, keys)).toEqual([{ kind: 'copy', startFrame: 50, endFrame: 150 }]);
    // No whole group inside: the range is encoded.
    expect(planRange({ startFrame: 55, endFrame: 120 }, keys)).toEqual([{ kind: 'encode', startFrame: 55, endFrame: 120 }]);
  });
});

// Three kept ranges, cut anywhere but on a keyframe; the middle one holds no whole 10 s group.
const TRIMS: Trim[] = [
  { start: 1.24, end: 13.52 },
  { start: 14.8, end: 17.96 },
  { start: 18.04, end: 41.6 },
];
const STEPS = [
  { start: 2, end: 13.52 },
  { start: 15, end: 25.4 },
  { start: 30.12, end: 41.6 },
];

describe.each([
  { gop: 2, label: '2 s' },
  { gop: 10, label: '10 s' },
])('rendering kept ranges of a source with a keyframe every $label', ({ gop }) => {
  it('keeps exactly the frames of the ranges, in order, and maps the steps onto them', async () => {
    const source = path.join(dir, `source-${gop}.mp4`);
    await makePatternClip({ seconds: 45, frameRate: RATE, gop }, source);
    const work = path.join(dir, `work-${gop}`);
    await mkdir(work);
    const output = path.join(dir, `out-${gop}.mp4`);
    const ranges = frameRanges(TRIMS, RATE);
    const result = await renderRanges(source, ranges, output, work);

    expect(result.plan).toBe('smart');
    expect(result.copiedFrames).toBeGreaterThan(0);
    const expected = ranges.flatMap((r) => Array.from({ length: r.endFrame - r.startFrame }, (_, i) => r.startFrame + i));
    const frames = await readFrameNumbers(output);
    expect(frames.length).toBe(expected.length);
    // First and last frame of every range, then every frame.
    let at = 0;
    for (const r of ranges) {
      expect(frames[at]).toBe(r.startFrame);
      at += r.endFrame - r.startFrame;
      expect(frames[at - 1]).toBe(r.endFrame - 1);
    }
    expect(frames).toEqual(expected);

    const probe = await ffprobe(output);
    const sum = TRIMS.reduce((s, t) => s + t.end - t.start, 0);
    expect(Math.abs(Number(probe.format.duration) - sum)).toBeLessThanOrEqual(1 / RATE + 0.03);
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    const video = probe.streams.find((s) => s.codec_type === 'video')!;
    expect(video.codec_name).toBe('h264');
    expect(audio.codec_name).toBe('aac');
    expect(Math.abs(Number(audio.duration) - sum)).toBeLessThanOrEqual(0.05);
    // The encoded pieces keep a keyframe every 2 s; copied groups keep the source's spacing.
    expect(await longestKeyframeGap(output, Number(probe.format.duration), {})).toBeLessThanOrEqual(gop + 0.05);

    // A step's mapped start shows the source frame it started on.
    for (const step of STEPS) {
      const start = sourceToResult(step.start, TRIMS)!;
      const end = sourceToResult(step.end, TRIMS)!;
      expect(frames[Math.round(start * RATE)]).toBe(Math.round(step.start * RATE));
      expect(frames[Math.round(end * RATE) - 1]).toBe(Math.round(step.end * RATE) - 1);
    }
  }, 120_000);
});

describe('a source whose pictures start after its container (two recordings joined)', () => {
  it('counts frames from the first picture, so every cut still lands on its frame', async () => {
    const chunk = path.join(dir, 'chunk.mp4');
    await makePatternClip({ seconds: 12, frameRate: RATE, gop: 2 }, chunk);
    const list = path.join(dir, 'chunks.txt');
    await writeFile(list, `file '${chunk}'\nfile '${chunk}'\n`);
    const joined = path.join(dir, 'joined.mp4');
    // The second copy starts where the longer audio ended: its pictures sit a little late.
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', joined]);
    const work = path.join(dir, 'work-joined');
    await mkdir(work);
    const output = path.join(dir, 'out-joined.mp4');
    const ranges = frameRanges(
      [
        { start: 3.04, end: 10.52 },
        { start: 13.28, end: 21.96 },
      ],
      RATE,
    );
    await renderRanges(joined, ranges, output, work);
    const expected = ranges.flatMap((r) => Array.from({ length: r.endFrame - r.startFrame }, (_, i) => (r.startFrame + i) % (12 * RATE)));
    expect(await readFrameNumbers(output)).toEqual(expected);
  }, 120_000);
});
