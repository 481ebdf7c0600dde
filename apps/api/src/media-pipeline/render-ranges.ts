import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegCapabilities, ffprobe, ffprobeText, fileArg, frameTiming, run } from './ffmpeg.ts';
import { KEYFRAME_SECONDS } from './encode.ts';

/**
 * Joins kept ranges of an H.264/AAC MP4 into one MP4, frame-accurate at every cut, by a smart
 * cut: the whole groups of pictures inside a range are copied as they are, and only the partial
 * groups around a cut that does not fall on a keyframe are decoded and encoded again. Every
 * piece goes through MPEG-TS (parameter sets in-band), so the concat demuxer joins copied and
 * encoded pictures into one stream whatever their encoder settings. Audio is cut to the same
 * ranges and encoded once (an AAC frame is 21 ms: copying it could not cut on a picture).
 * A source of variable frame rate cannot be cut by frame count: it is encoded whole.
 */

export interface FrameRange {
  /** First frame kept (index in the source, from 0). */
  startFrame: number;
  /** First frame no longer kept. */
  endFrame: number;
}

export interface SourceVideo {
  frameRate: number;
  /** Timestamp of the first picture (seconds; a container may start its video a little late). */
  videoStart: number;
  /** Where `-ss 0` lands: the container's start. */
  formatStart: number;
  /** Constant frame rate: frame n is at n / frameRate. */
  constantRate: boolean;
  frameCount: number;
  width: number;
  height: number;
  hasAudio: boolean;
  audioRate: number;
  audioChannels: number;
}

export interface Piece {
  kind: 'copy' | 'encode';
  startFrame: number;
  endFrame: number;
}

export interface RenderResult {
  plan: 'smart' | 'encode';
  pieces: Piece[];
  frames: number;
  duration: number;
  copiedFrames: number;
  encodedFrames: number;
}

type Tools = { ffmpegPath?: string | undefined; ffprobePath?: string | undefined; signal?: AbortSignal | undefined };

function rate(value: string | undefined): number | null {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : null;
}

export async function describeSource(file: string, tools: Tools = {}): Promise<SourceVideo> {
  const data = await ffprobe(file, { bin: tools.ffprobePath, signal: tools.signal });
  const video = data.streams.find((s) => s.codec_type === 'video');
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  if (!video) throw new Error('render: the source has no video stream');
  const real = rate(video.r_frame_rate);
  const average = rate(video.avg_frame_rate);
  const frameRate = real ?? average ?? 25;
  const duration = Number(video.duration ?? data.format.duration);
  const counted = Number(video.nb_frames);
  const formatStart = Number(data.format.start_time ?? 0) || 0;
  return {
    frameRate,
    videoStart: Number(video.start_time ?? formatStart) || 0,
    formatStart,
    // The same nominal and average rate, and a frame count that agrees with the duration.
    constantRate:
      real !== null &&
      average !== null &&
      Math.abs(real - average) < 0.01 &&
      (!Number.isFinite(counted) || Math.abs(counted - duration * frameRate) <= 2),
    frameCount: Number.isFinite(counted) && counted > 0 ? counted : Math.round(duration * frameRate),
    width: video.width ?? 0,
    height: video.height ?? 0,
    hasAudio: Boolean(audio),
    audioRate: Number(audio?.sample_rate ?? 48000),
    audioChannels: Number(audio?.channels ?? 2),
  };
}

/** Frame indices of the keyframes between two frames (the demuxer reads only that stretch). */
export async function keyframesBetween(
  file: string,
  source: Pick<SourceVideo, 'frameRate' | 'videoStart'>,
  fromFrame: number,
  toFrame: number,
  tools: Tools = {},
): Promise<number[]> {
  const from = Math.max(0, source.videoStart + fromFrame / source.frameRate - 1);
  const to = source.videoStart + toFrame / source.frameRate + 1;
  const text = await ffprobeText(
    [
      ...['-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'v:0'],
      ...['-read_intervals', `${from.toFixed(3)}%${to.toFixed(3)}`],
      ...['-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', fileArg(file)],
    ],
    { bin: tools.ffprobePath, signal: tools.signal, idleTimeoutMs: 60_000 },
  );
  const frames = new Set<number>();
  for (const line of text.split('\n')) {
    const [time, flags] = line.split(',');
    if (!flags?.includes('K')) continue;
    const frame = Math.round((Number(time) - source.videoStart) * source.frameRate);
    if (Number.isFinite(frame) && frame >= fromFrame && frame <= toFrame) frames.add(frame);
  }
  return [...frames].sort((a, b) => a - b);
}

/**
 * The pieces of one range: encoded from its start to the first keyframe inside it, copied over
 * whole groups up to the last keyframe inside it, encoded from there to its end.
 */
export function planRange(range: FrameRange, keyframes: readonly number[]): Piece[] {
  const inside = keyframes.filter((k) => k >= range.startFrame && k <= range.endFrame);
  const first = inside[0];
  const last = inside[inside.length - 1];
  // No whole group inside: copying would need a keyframe past the end.
  if (first === undefined || last === undefined || first === last) return [{ kind: 'encode', ...range }];
  const pieces: Piece[] = [];
  if (first > range.startFrame) pieces.push({ kind: 'encode', startFrame: range.startFrame, endFrame: first });
  pieces.push({ kind: 'copy', startFrame: first, endFrame: last });
  if (range.endFrame > last) pieces.push({ kind: 'encode', startFrame: last, endFrame: range.endFrame });
  return pieces;
}

const ENCODE_VIDEO = (frameRate: number) => [
  ...['-c:v', 'libx264', '-preset', 'superfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-profile:v', 'high'],
  // A keyframe every 2 s in whatever the server encodes (STYLE.md), none forced by scene cuts.
  ...['-g', String(Math.max(1, Math.round(frameRate * KEYFRAME_SECONDS))), '-sc_threshold', '0'],
];

const CLEAN = ['-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'];

/**
 * Where to seek for a frame, a fraction of a frame before or after it, counted from the
 * container's start as `-ss` is (frame n is at videoStart + n / frameRate).
 */
const seekTo = (source: SourceVideo, frame: number, shift: number) =>
  Math.max(0, source.videoStart - source.formatStart + (frame + shift) / source.frameRate).toFixed(6);

async function renderPiece(file: string, source: SourceVideo, piece: Piece, output: string, tools: Tools, timeoutMs: number) {
  const frames = piece.endFrame - piece.startFrame;
  const common = ['-an', '-sn', '-dn', '-frames:v', String(frames), '-bsf:v', 'h264_mp4toannexb', '-f', 'mpegts', fileArg(output)];
  // An input seek lands on a keyframe at or before the time, half a frame before this one; the
  // demuxer may land one or more groups earlier (ffmpeg before 5 seeks a source with B-frames
  // 3/23 s early). Encoding decodes from there and drops what precedes the time; copying drops
  // the packets timed before it (-copypriorss 0) up to the first keyframe after it: this one.
  const seek = seekTo(source, piece.startFrame, -0.5);
  const input = ['-protocol_whitelist', 'file', '-ss', seek, '-i', fileArg(file), '-map', '0:v:0'];
  const args =
    piece.kind === 'copy'
      ? [...input, '-c:v', 'copy', '-copypriorss', '0', ...common]
      : [...input, ...ENCODE_VIDEO(source.frameRate), ...common];
  await run(args, { bin: tools.ffmpegPath, signal: tools.signal, timeoutMs });
}

async function renderAudio(
  file: string,
  source: SourceVideo,
  ranges: readonly FrameRange[],
  output: string,
  tools: Tools,
  timeoutMs: number,
) {
  const inputs: string[] = [];
  const labels: string[] = [];
  ranges.forEach((r, i) => {
    const length = (r.endFrame - r.startFrame) / source.frameRate;
    inputs.push('-protocol_whitelist', 'file', '-ss', seekTo(source, r.startFrame, 0), '-t', length.toFixed(6), '-i', fileArg(file));
    // Padded then cut to the exact length, so a short audio track cannot shift the next range.
    labels.push(`[${i}:a:0]aresample=${source.audioRate},apad,atrim=0:${length.toFixed(6)},asetpts=N/SR/TB[a${i}]`);
  });
  const graph = `${labels.join(';')};${ranges.map((_, i) => `[a${i}]`).join('')}concat=n=${ranges.length}:v=0:a=1[out]`;
  await run([...inputs, '-filter_complex', graph, '-map', '[out]', '-c:a', 'aac', '-b:a', '128k', '-f', 'mp4', ...CLEAN, fileArg(output)], {
    bin: tools.ffmpegPath,
    signal: tools.signal,
    timeoutMs,
  });
}

/** Everything encoded in one pass, for sources whose frames are not evenly spaced. */
async function encodeWhole(
  file: string,
  source: SourceVideo,
  ranges: readonly FrameRange[],
  output: string,
  tools: Tools,
  timeoutMs: number,
) {
  // trim compares timestamps: half a frame before the first picture kept and the first dropped.
  const at = (frame: number) => Math.max(0, source.videoStart + (frame - 0.5) / source.frameRate).toFixed(6);
  const parts = ranges.map((r, i) => {
    const start = at(r.startFrame);
    const end = at(r.endFrame);
    const video = `[0:v:0]trim=start=${start}:end=${end},setpts=PTS-STARTPTS[v${i}]`;
    const audio = source.hasAudio ? `;[0:a:0]atrim=start=${start}:end=${end},asetpts=PTS-STARTPTS[a${i}]` : '';
    return video + audio;
  });
  const streams = ranges.map((_, i) => `[v${i}]${source.hasAudio ? `[a${i}]` : ''}`).join('');
  const graph = `${parts.join(';')};${streams}concat=n=${ranges.length}:v=1:a=${source.hasAudio ? 1 : 0}[v]${source.hasAudio ? '[a]' : ''}`;
  await run(
    [
      ...['-protocol_whitelist', 'file', '-i', fileArg(file), '-filter_complex', graph, '-map', '[v]'],
      ...(source.hasAudio ? ['-map', '[a]', '-c:a', 'aac', '-b:a', '128k'] : []),
      ...ENCODE_VIDEO(source.frameRate),
      ...frameTiming(await ffmpegCapabilities({ ffmpegPath: tools.ffmpegPath, ffprobePath: tools.ffprobePath }), 'cfr'),
      '-r',
      String(source.frameRate),
      ...CLEAN,
      ...['-movflags', '+faststart', '-f', 'mp4', fileArg(output)],
    ],
    { bin: tools.ffmpegPath, signal: tools.signal, timeoutMs },
  );
}

/** Runs the functions at most `limit` at a time (the machine's cores are shared). */
async function inParallel(tasks: (() => Promise<void>)[], limit: number) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * Renders the kept ranges (frame indices, sorted, not overlapping) of `file` into `output`, an
 * MP4 with +faststart. `work` is an empty directory for the pieces.
 */
export async function renderRanges(
  file: string,
  ranges: readonly FrameRange[],
  output: string,
  work: string,
  opts: Tools & { source?: SourceVideo; parallel?: number } = {},
): Promise<RenderResult> {
  const source = opts.source ?? (await describeSource(file, opts));
  // A container can outlast its last picture by a few audio frames: a range ends at the last one.
  ranges = ranges
    .map((r) => ({ startFrame: r.startFrame, endFrame: Math.min(r.endFrame, source.frameCount) }))
    .filter((r) => r.endFrame > r.startFrame);
  if (ranges.length === 0) throw new Error('render: no range to keep');
  const frames = ranges.reduce((sum, r) => sum + r.endFrame - r.startFrame, 0);
  const timeoutMs = 30 * 60_000 + (frames / source.frameRate) * 5000;
  if (!source.constantRate) {
    await encodeWhole(file, source, ranges, output, opts, timeoutMs);
    const pieces = ranges.map((r) => ({ kind: 'encode' as const, ...r }));
    return { plan: 'encode', pieces, frames, duration: frames / source.frameRate, copiedFrames: 0, encodedFrames: frames };
  }

  const pieces: Piece[] = [];
  for (const range of ranges) {
    pieces.push(...planRange(range, await keyframesBetween(file, source, range.startFrame, range.endFrame, opts)));
  }
  const files = pieces.map((_, i) => path.join(work, `piece-${String(i).padStart(3, '0')}.m2ts`));
  const audioFile = path.join(work, 'audio.m4a');
  const tasks = pieces.map((piece, i) => () => renderPiece(file, source, piece, files[i]!, opts, timeoutMs));
  if (source.hasAudio) tasks.push(() => renderAudio(file, source, ranges, audioFile, opts, timeoutMs));
  await inParallel(tasks, opts.parallel ?? 2);

  const list = path.join(work, 'pieces.txt');
  await writeFile(list, files.map((f) => `file '${f.replaceAll("'", "'\\''")}'`).join('\n') + '\n');
  await run(
    [
      ...['-protocol_whitelist', 'file,concat', '-f', 'concat', '-safe', '0', '-i', fileArg(list)],
      ...(source.hasAudio
        ? ['-protocol_whitelist', 'file', '-i', fileArg(audioFile), '-map', '0:v:0', '-map', '1:a:0']
        : ['-map', '0:v:0']),
      ...['-c', 'copy', ...CLEAN, '-movflags', '+faststart', '-f', 'mp4', fileArg(output)],
    ],
    { bin: opts.ffmpegPath, signal: opts.signal, timeoutMs },
  );
  const copiedFrames = pieces.filter((p) => p.kind === 'copy').reduce((sum, p) => sum + p.endFrame - p.startFrame, 0);
  return { plan: 'smart', pieces, frames, duration: frames / source.frameRate, copiedFrames, encodedFrames: frames - copiedFrames };
}
