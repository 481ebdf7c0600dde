// @media: runs ffmpeg and ffprobe
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceToResult, type Trim } from '@sutura/domain/preparation';
import { longestKeyframeGap, remux, transcodeArgs } from '../src/media-pipeline/encode.ts';
import { ffmpegCapabilities, ffprobe, run } from '../src/media-pipeline/ffmpeg.ts';
import { probeSource } from '../src/media-pipeline/probe.ts';
import { describeSource, planRange, rangeKeyframes, renderRanges, sourceKeyframes } from '../src/media-pipeline/render-ranges.ts';
import { frameRanges } from '../src/modules/preparation/preparation.jobs.ts';
import { makePatternClip, psnr, readFrameNumbers, readFrames, type PatternClip } from './frame-pattern.ts';

const RATE = 25;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sutura-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('planRange', () => {
  // IDR keyframes that split the coding order cleanly: copies may start and end on any of them.
  const closed = [0, 50, 100, 150, 200].map((frame) => ({ frame, copyFrom: true, copyTo: true }));

  it('copies whole groups and encodes only the partial groups around the cuts', () => {
    expect(planRange({ startFrame: 60, endFrame: 170 }, closed)).toEqual([
      { kind: 'encode', startFrame: 60, endFrame: 100 },
      { kind: 'copy', startFrame: 100, endFrame: 150 },
      { kind: 'encode', startFrame: 150, endFrame: 170 },
    ]);
    // Cuts on keyframes: nothing to encode.
    expect(planRange({ startFrame: 50, endFrame: 150 }, closed)).toEqual([{ kind: 'copy', startFrame: 50, endFrame: 150 }]);
    // No whole group inside: the range is encoded.
    expect(planRange({ startFrame: 55, endFrame: 120 }, closed)).toEqual([{ kind: 'encode', startFrame: 55, endFrame: 120 }]);
  });

  it('starts a copy only on an IDR picture and ends it only where no leading picture is coded after', () => {
    // An open GOP: its keyframes after the first are not IDR and have leading pictures.
    const open = [0, 50, 100, 150, 200].map((frame) => ({ frame, copyFrom: frame === 0, copyTo: frame === 0 }));
    expect(planRange({ startFrame: 0, endFrame: 170 }, open)).toEqual([{ kind: 'encode', startFrame: 0, endFrame: 170 }]);
    // IDR at 50 and 150, an open keyframe at 100 and 200: the copy runs from 50 to 150.
    const mixed = [
      { frame: 50, copyFrom: true, copyTo: true },
      { frame: 100, copyFrom: false, copyTo: false },
      { frame: 150, copyFrom: true, copyTo: true },
      { frame: 200, copyFrom: false, copyTo: false },
    ];
    expect(planRange({ startFrame: 40, endFrame: 210 }, mixed)).toEqual([
      { kind: 'encode', startFrame: 40, endFrame: 50 },
      { kind: 'copy', startFrame: 50, endFrame: 150 },
      { kind: 'encode', startFrame: 150, endFrame: 210 },
    ]);
    // A clean but non-IDR keyframe can end a copy, not start one.
    const recovery = [
      { frame: 50, copyFrom: false, copyTo: true },
      { frame: 100, copyFrom: true, copyTo: true },
      { frame: 150, copyFrom: false, copyTo: true },
    ];
    expect(planRange({ startFrame: 40, endFrame: 160 }, recovery)).toEqual([
      { kind: 'encode', startFrame: 40, endFrame: 100 },
      { kind: 'copy', startFrame: 100, endFrame: 150 },
      { kind: 'encode', startFrame: 150, endFrame: 160 },
    ]);
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

  it('plans a long range from the keyframes near its ends as from all of its keyframes', async () => {
    const source = path.join(dir, `source-${gop}.mp4`);
    const described = await describeSource(source);
    // Longer than three windows of 12 s: each end is read alone.
    const range = { startFrame: 13, endFrame: 45 * RATE - 7 };
    const near = await rangeKeyframes(source, described, range);
    const all = await sourceKeyframes(source, described, range.startFrame, range.endFrame);
    expect(near.keyframes.length).toBeLessThan(all.keyframes.length);
    expect(planRange(range, near.keyframes)).toEqual(planRange(range, all.keyframes));
  }, 60_000);
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

const exec = promisify(execFile);

/**
 * Where each beep of a sound starts (seconds): the first sample over a quarter of full scale after
 * at least 0.1 s below it, in the audio of `file` decoded to mono 48 kHz.
 */
async function beepOnsets(file: string): Promise<number[]> {
  const { stdout } = (await exec(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-f', 's16le', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  )) as unknown as { stdout: Buffer };
  const onsets: number[] = [];
  let quiet = 4800;
  for (let i = 0; i + 1 < stdout.length; i += 2) {
    const loud = Math.abs(stdout.readInt16LE(i)) > 8192;
    if (loud && quiet >= 4800) onsets.push(i / 2 / 48000);
    quiet = loud ? 0 : quiet + 1;
  }
  return onsets;
}

describe('the sound of a render', () => {
  // Beeps of 30 ms every half second from 0.25 s, under pictures that carry their number.
  const BEEPS = Array.from({ length: 24 }, (_, k) => 0.25 + k / 2);
  const TRIMS_AV = [
    { start: 1.12, end: 4.56 },
    { start: 6.32, end: 9.76 },
  ];

  /** A 12 s source of numbered pictures and those beeps, its audio encoded by `audioArgs`. */
  async function beepSource(name: string, audioArgs: string[]): Promise<string> {
    const pictures = path.join(dir, `${name}-pictures.mp4`);
    await makePatternClip({ seconds: 12, frameRate: RATE, gop: 2 }, pictures);
    const source = path.join(dir, `${name}.mp4`);
    await exec('ffmpeg', [
      ...['-v', 'error', '-y', '-i', pictures],
      ...['-f', 'lavfi', '-i', "aevalsrc='if(lt(mod(t-0.25,0.5),0.03)*gte(t,0.25),0.8*sin(2*PI*1000*t),0)':s=48000:d=12"],
      ...['-map', '0:v:0', '-map', '1:a:0', '-c:v', 'copy', ...audioArgs, '-shortest', '-movflags', '+faststart', source],
    ]);
    return source;
  }

  it('stays with the pictures at every cut, its AAC frames copied, within one AAC frame (21 ms)', async () => {
    const source = await beepSource('av-aac', ['-c:a', 'aac', '-b:a', '128k']);
    const work = path.join(dir, 'work-av');
    await mkdir(work);
    const output = path.join(dir, 'out-av.mp4');
    const ranges = frameRanges(TRIMS_AV, RATE);
    const result = await renderRanges(source, ranges, output, work);
    expect(result.audio).toBe('copy');
    expect(await readFrameNumbers(output)).toEqual(
      ranges.flatMap((r) => Array.from({ length: r.endFrame - r.startFrame }, (_, i) => r.startFrame + i)),
    );

    // Each beep of a kept range is heard when the picture of its moment is shown.
    const expected: number[] = [];
    let before = 0;
    for (const r of ranges) {
      const from = r.startFrame / RATE;
      const to = r.endFrame / RATE;
      for (const beep of BEEPS) if (beep >= from + 0.05 && beep + 0.03 <= to) expected.push(before + beep - from);
      before += to - from;
    }
    const heard = await beepOnsets(output);
    const nearest = (t: number) => heard.reduce((best, h) => (Math.abs(h - t) < Math.abs(best - t) ? h : best), Infinity);
    expect(expected.length).toBeGreaterThan(10);
    for (const t of expected)
      expect(Math.abs(nearest(t) - t), `the beep due at ${t.toFixed(3)} s`).toBeLessThanOrEqual(1024 / 48000 + 0.002);
    const probe = await ffprobe(output);
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect(Math.abs(Number(audio.duration) - before)).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('is encoded again when it is not AAC-LC, still with the pictures', async () => {
    const source = await beepSource('av-mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']);
    const work = path.join(dir, 'work-av-mp3');
    await mkdir(work);
    const output = path.join(dir, 'out-av-mp3.mp4');
    const result = await renderRanges(source, frameRanges(TRIMS_AV, RATE), output, work);
    expect(result.audio).toBe('encode');
    const audio = (await ffprobe(output)).streams.find((s) => s.codec_type === 'audio')!;
    expect(audio.codec_name).toBe('aac');
  }, 120_000);
});

/** An upload turned into the processed source the render reads, as the media pipeline does it. */
async function processUpload(upload: string, output: string): Promise<'remux' | 'transcode'> {
  const verdict = await probeSource(upload);
  if (verdict.kind !== 'accepted') throw new Error(`refused: ${verdict.detail}`);
  if (verdict.plan === 'remux') await remux(verdict.source, upload, output, {});
  else await run(transcodeArgs(verdict.source, upload, output, await ffmpegCapabilities()), {});
  return verdict.plan;
}

const CLIP: PatternClip = { seconds: 12, frameRate: RATE, gop: 2 };
const PYRAMID = 'bframes=3:b-pyramid=normal';

/**
 * Every kind of source the render meets. H.264 in MP4 is kept by remuxing, whatever its GOP
 * structure and edit list; HEVC is transcoded by the pipeline (to closed GOPs of H.264), so the
 * render reads what came out of that.
 */
const KINDS: { kind: string; upload: (file: string) => Promise<void>; plan: 'remux' | 'transcode'; copies: boolean }[] = [
  { kind: 'H.264, closed GOP with B-frames', upload: (file) => makePatternClip(CLIP, file), plan: 'remux', copies: true },
  {
    kind: 'H.264, closed GOP with a B-pyramid',
    upload: (file) => makePatternClip({ ...CLIP, encoder: { codec: 'libx264', params: PYRAMID } }, file),
    plan: 'remux',
    copies: true,
  },
  {
    // Keyframes after the first are not IDR, and the pictures shown just before each are coded after it.
    kind: 'H.264, open GOP',
    upload: (file) => makePatternClip({ ...CLIP, encoder: { codec: 'libx264', params: 'open-gop=1' } }, file),
    plan: 'remux',
    copies: false,
  },
  {
    kind: 'H.264, open GOP with a B-pyramid',
    upload: (file) => makePatternClip({ ...CLIP, encoder: { codec: 'libx264', params: `open-gop=1:${PYRAMID}` } }, file),
    plan: 'remux',
    copies: false,
  },
  {
    // A stream copy from 1.5 s keeps the whole first group; the edit list hides its first 38 pictures.
    kind: 'H.264 with an edit list (cut by stream copy between keyframes)',
    upload: async (file) => {
      await makePatternClip({ ...CLIP, encoder: { codec: 'libx264', params: PYRAMID } }, `${file}.whole.mp4`);
      await exec('ffmpeg', ['-v', 'error', '-y', '-ss', '1.5', '-i', `${file}.whole.mp4`, '-c', 'copy', file]);
    },
    plan: 'remux',
    copies: true,
  },
  {
    kind: 'H.264 with an edit list (video 0.3 s after the audio)',
    upload: async (file) => {
      await makePatternClip(CLIP, `${file}.whole.mp4`);
      const whole = `${file}.whole.mp4`;
      await exec('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-itsoffset',
        '0.3',
        '-i',
        whole,
        '-i',
        whole,
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-c',
        'copy',
        file,
      ]);
    },
    plan: 'remux',
    copies: true,
  },
  {
    kind: 'HEVC, open GOP (CRA and RASL pictures)',
    upload: (file) =>
      makePatternClip(
        { ...CLIP, preset: 'ultrafast', encoder: { codec: 'libx265', params: 'open-gop=1:bframes=3:log-level=error' } },
        file,
      ),
    plan: 'transcode',
    copies: true,
  },
];

/**
 * Cuts on keyframes (0, 200), on pictures shown just before one (97, 99, 247: leading pictures
 * in an open GOP), just after one (201, 251), and at the end of the source. Keyframes every 50.
 */
const rangesFor = (frames: number) =>
  [
    { startFrame: 0, endFrame: 98 },
    { startFrame: 99, endFrame: 200 },
    { startFrame: 201, endFrame: 248 },
    { startFrame: 251, endFrame: frames },
  ].filter((r) => r.endFrame > r.startFrame);

/** A re-encoded picture is this close to its source picture; a garbled one is far below. */
const MIN_PSNR = 30;

describe.each(KINDS)('rendering from $kind', ({ upload, plan, copies }) => {
  it('shows every kept picture once, in order, undamaged, and copies only what it can copy exactly', async () => {
    const name = `kind-${KINDS.findIndex((k) => k.upload === upload)}`;
    const uploaded = path.join(dir, `${name}-upload.mp4`);
    const source = path.join(dir, `${name}-source.mp4`);
    await upload(uploaded);
    expect(await processUpload(uploaded, source)).toBe(plan);

    const size = { width: 320, height: 240 };
    const shown = await readFrames(source, size);
    // The processed source shows consecutive pictures (an edit list hides the ones before its start).
    expect(shown.numbers).toEqual(shown.numbers.map((_, i) => shown.numbers[0]! + i));

    const ranges = rangesFor(shown.numbers.length);
    const work = path.join(dir, `${name}-work`);
    await mkdir(work);
    const output = path.join(dir, `${name}-out.mp4`);
    const result = await renderRanges(source, ranges, output, work);

    const kept = ranges.flatMap((r) => Array.from({ length: r.endFrame - r.startFrame }, (_, i) => r.startFrame + i));
    const rendered = await readFrames(output, size);
    expect(rendered.numbers).toEqual(kept.map((i) => shown.numbers[i]));
    // Copied pictures are the source's own; encoded ones close to them; none garbled.
    const copied = new Set(
      result.pieces.filter((p) => p.kind === 'copy').flatMap((p) => kept.filter((i) => i >= p.startFrame && i < p.endFrame)),
    );
    const damaged = kept.flatMap((index, i) => {
      const quality = psnr(rendered.planes[i]!, shown.planes[index]!);
      return (copied.has(index) ? quality === Infinity : quality >= MIN_PSNR) ? [] : [`frame ${index}: ${quality.toFixed(1)} dB`];
    });
    expect(damaged).toEqual([]);
    // Whole groups are copied where that is exact (closed GOPs starting on an IDR picture), never elsewhere.
    expect(result.plan).toBe('smart');
    if (copies) expect(result.copiedFrames).toBeGreaterThan(0);
    else expect(result.copiedFrames).toBe(0);

    const probe = await ffprobe(output);
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect(Math.abs(Number(audio.duration) - kept.length / RATE)).toBeLessThanOrEqual(0.05);
  }, 120_000);
});
