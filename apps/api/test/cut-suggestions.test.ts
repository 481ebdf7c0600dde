// @media: runs ffmpeg and ffprobe
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectCutSuggestions, parseMetadataPrint } from '../src/media-pipeline/cut-suggestions.ts';
import { makePatternClip } from './frame-pattern.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sutura-cuts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cut suggestions', () => {
  it('reads the per-frame values ffmpeg prints', () => {
    const text = 'frame:0    pts:0       pts_time:0\nlavfi.x=1.5\nframe:1    pts:512     pts_time:0.04\nlavfi.x=2\n';
    expect(parseMetadataPrint(text, 'lavfi.x')).toEqual([
      { time: 0, value: 1.5 },
      { time: 0.04, value: 2 },
    ]);
  });

  it('finds the camera leaving the patient (dark), a washed-out lens (bright) and the scene changes around them', async () => {
    // 6 s of surgery, 3 s black, 5 s of another scene, 2 s white, 4 s of a third scene.
    const file = path.join(dir, 'cuts.mp4');
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=6', '-f', 'lavfi', '-i', 'color=black:s=320x240:r=25:d=3'],
      ...['-f', 'lavfi', '-i', 'smptebars=s=320x240:r=25:d=5', '-f', 'lavfi', '-i', 'color=white:s=320x240:r=25:d=2'],
      ...['-f', 'lavfi', '-i', 'mandelbrot=s=320x240:r=25', '-filter_complex'],
      '[4:v]trim=duration=4[m];[0:v][1:v][2:v][3:v][m]concat=n=5:v=1:a=0,format=yuv420p[v]',
      ...['-map', '[v]', '-c:v', 'libx264', '-preset', 'veryfast', file],
    ]);
    const found = await detectCutSuggestions(file, { work: dir, frameRate: 25, duration: 20 });
    expect(found.filter((s) => s.kind === 'dark')).toEqual([{ kind: 'dark', start: 6, end: 9, score: 1 }]);
    expect(found.filter((s) => s.kind === 'bright')).toEqual([{ kind: 'bright', start: 14, end: 16, score: 1 }]);
    expect(found.filter((s) => s.kind === 'scene').map((s) => s.start)).toEqual([6, 9, 14, 16]);
    for (const s of found) expect(s.score).toBeGreaterThan(0);
  });

  it('finds no scene change in one continuous scene whose picture changes a little at every frame', async () => {
    // At 10.24 s the frame number's strip flips 9 of its 16 blocks at once: a small change, not a cut.
    const file = path.join(dir, 'continuous.mp4');
    await makePatternClip({ seconds: 20, frameRate: 25, gop: 2 }, file);
    expect(await detectCutSuggestions(file, { work: dir, frameRate: 25, duration: 20 })).toEqual([]);
  });
});
