import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Clips whose every frame carries its own number: 16 blocks of 20×20 pixels in the top-left
 * corner, white for a 1 bit (bit 0 on the left). Read back by decoding that strip to raw gray
 * pixels, so a test knows exactly which source frame each output frame is.
 */
const BITS = 16;
const BLOCK = 20;
export const PATTERN_WIDTH = BITS * BLOCK;

const exec = promisify(execFile);

export interface PatternClip {
  seconds: number;
  frameRate: number;
  /** Seconds between keyframes. */
  gop: number;
  width?: number;
  height?: number;
  /** x264 preset (ultrafast makes long sources quick). */
  preset?: string;
  /** Frame numbers start here (a piece of a longer source). */
  firstFrame?: number;
}

export function patternClipArgs(clip: PatternClip, output: string): string[] {
  const { seconds, frameRate, gop } = clip;
  const width = clip.width ?? 320;
  const height = clip.height ?? 240;
  const first = clip.firstFrame ?? 0;
  const bits = `255*mod(floor((N+${first})/pow(2\\,floor(X/${BLOCK})))\\,2)`;
  return [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${frameRate}`],
    ...['-f', 'lavfi', '-i', `color=black:size=${PATTERN_WIDTH}x${BLOCK}:rate=${frameRate},geq=lum='${bits}':cb=128:cr=128`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-filter_complex', '[0:v][1:v]overlay=0:0:shortest=1[v]', '-map', '[v]', '-map', '2:a'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', clip.preset ?? 'veryfast', '-bf', '2', '-pix_fmt', 'yuv420p'],
    ...['-g', String(Math.round(gop * frameRate)), '-keyint_min', String(Math.round(gop * frameRate)), '-sc_threshold', '0'],
    ...['-c:a', 'aac', '-b:a', '96k', '-shortest', '-movflags', '+faststart', output],
  ];
}

export async function makePatternClip(clip: PatternClip, output: string): Promise<void> {
  await exec('ffmpeg', patternClipArgs(clip, output), { maxBuffer: 1024 * 1024 });
}

function decodeStrip(raw: Buffer): number[] {
  const frameBytes = PATTERN_WIDTH * BLOCK;
  const numbers: number[] = [];
  for (let offset = 0; offset + frameBytes <= raw.length; offset += frameBytes) {
    let value = 0;
    for (let bit = 0; bit < BITS; bit++) {
      // The centre of the block, away from the blur of its edges.
      const pixel = raw[offset + (BLOCK / 2) * PATTERN_WIDTH + bit * BLOCK + BLOCK / 2]!;
      if (pixel > 128) value |= 1 << bit;
    }
    numbers.push(value);
  }
  return numbers;
}

/** The number carried by every frame of a file, in order (or `frames` frames from `at` seconds). */
export async function readFrameNumbers(file: string, opts: { at?: number; frames?: number } = {}): Promise<number[]> {
  const { stdout } = await exec(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error'],
      ...(opts.at !== undefined ? ['-ss', opts.at.toFixed(6)] : []),
      ...['-i', file, '-map', '0:v:0'],
      ...(opts.frames !== undefined ? ['-frames:v', String(opts.frames)] : []),
      ...['-vf', `crop=${PATTERN_WIDTH}:${BLOCK}:0:0,format=gray`, '-f', 'rawvideo', 'pipe:1'],
    ],
    { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
  );
  return decodeStrip(stdout);
}
