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
  /** The encoder and its own settings (x264 or x265 parameters: open GOP, B-pyramid...). */
  encoder?: { codec: 'libx264' | 'libx265'; params?: string };
}

export function patternClipArgs(clip: PatternClip, output: string): string[] {
  const { seconds, frameRate, gop } = clip;
  const width = clip.width ?? 320;
  const height = clip.height ?? 240;
  const first = clip.firstFrame ?? 0;
  const bits = `255*mod(floor((N+${first})/pow(2\\,floor(X/${BLOCK})))\\,2)`;
  const codec = clip.encoder?.codec ?? 'libx264';
  const params = clip.encoder?.params ? [codec === 'libx265' ? '-x265-params' : '-x264-params', clip.encoder.params] : [];
  return [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${frameRate}`],
    ...['-f', 'lavfi', '-i', `color=black:size=${PATTERN_WIDTH}x${BLOCK}:rate=${frameRate},geq=lum='${bits}':cb=128:cr=128`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-filter_complex', '[0:v][1:v]overlay=0:0:shortest=1[v]', '-map', '[v]', '-map', '2:a'],
    ...['-t', String(seconds), '-c:v', codec, '-preset', clip.preset ?? 'veryfast', '-pix_fmt', 'yuv420p'],
    ...(codec === 'libx264'
      ? ['-bf', '2', '-g', String(Math.round(gop * frameRate)), '-keyint_min', String(Math.round(gop * frameRate)), '-sc_threshold', '0']
      : ['-g', String(Math.round(gop * frameRate)), '-keyint_min', String(Math.round(gop * frameRate)), '-tag:v', 'hvc1']),
    ...params,
    ...['-c:a', 'aac', '-b:a', '96k', '-shortest', '-movflags', '+faststart', output],
  ];
}

export async function makePatternClip(clip: PatternClip, output: string): Promise<void> {
  await exec('ffmpeg', patternClipArgs(clip, output), { maxBuffer: 1024 * 1024 });
}

/** The number a picture carries, from its gray pixels (`stride` bytes a row, the strip at the top left). */
function numberIn(raw: Buffer, offset: number, stride: number): number {
  let value = 0;
  for (let bit = 0; bit < BITS; bit++) {
    // The centre of the block, away from the blur of its edges.
    const pixel = raw[offset + (BLOCK / 2) * stride + bit * BLOCK + BLOCK / 2]!;
    if (pixel > 128) value |= 1 << bit;
  }
  return value;
}

function decodeStrip(raw: Buffer): number[] {
  const frameBytes = PATTERN_WIDTH * BLOCK;
  const numbers: number[] = [];
  for (let offset = 0; offset + frameBytes <= raw.length; offset += frameBytes) numbers.push(numberIn(raw, offset, PATTERN_WIDTH));
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

export interface DecodedFrames {
  /** The number each picture carries, in presentation order. */
  numbers: number[];
  /** Each picture's luma plane (width × height bytes). */
  planes: Buffer[];
}

/**
 * Every picture of a file as it is stored: no picture repeated or dropped to fill a frame rate
 * (a video that starts after its audio is not padded), each with its number and its luma.
 */
export async function readFrames(file: string, size: { width: number; height: number }): Promise<DecodedFrames> {
  const { stdout } = await exec(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-i', file, '-map', '0:v:0', '-fps_mode', 'passthrough'],
      ...['-vf', 'format=gray', '-f', 'rawvideo', 'pipe:1'],
    ],
    { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
  );
  const bytes = size.width * size.height;
  const planes: Buffer[] = [];
  const numbers: number[] = [];
  for (let offset = 0; offset + bytes <= stdout.length; offset += bytes) {
    planes.push(stdout.subarray(offset, offset + bytes));
    numbers.push(numberIn(stdout, offset, size.width));
  }
  return { numbers, planes };
}

/** Peak signal-to-noise ratio of two 8-bit planes, in dB (Infinity when identical). */
export function psnr(a: Buffer, b: Buffer): number {
  if (a.length !== b.length) throw new Error(`planes of ${a.length} and ${b.length} bytes`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / sum);
}
