import { createReadStream, createWriteStream } from 'node:fs';
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ffmpegCapabilities, ffprobe, ffprobeText, fileArg, frameTiming, run } from './ffmpeg.ts';
import { indexReserve, KEYFRAME_SECONDS } from './encode.ts';

/**
 * Joins kept ranges of an H.264/AAC MP4 into one MP4, frame-accurate at every cut, by a smart
 * cut: the whole groups of pictures inside a range are copied as they are, and only the partial
 * groups around a cut that does not fall on a keyframe are decoded and encoded again. A group is
 * copied only where copying is exact: from an IDR picture (nothing after it refers to a picture
 * before it, and it carries its parameter sets) to a keyframe before which every picture shown
 * is also coded (no leading picture of an open GOP is lost). Anything else is encoded. Every
 * piece is an MP4 of its own (one time scale, 90 kHz), which the concat demuxer joins into one
 * stream whatever their encoder settings: it puts each piece's parameter sets in-band before its
 * IDR pictures (h264_mp4toannexb), and each piece starts where the frames before it end (MPEG-TS
 * pieces did the same, at twice the processor time). AAC-LC audio is copied too, frame by frame:
 * each range takes the AAC frames (21 ms at 48 kHz) nearest its cuts, chosen so that the sound
 * never drifts from the picture by more than one frame of audio over the whole render; other
 * audio, or audio that ends before the pictures, is cut to the same ranges and encoded once. A
 * source of variable frame rate cannot be cut by frame count: it is encoded whole.
 */

export interface FrameRange {
  /** First frame kept (index in the source, from 0). */
  startFrame: number;
  /** First frame no longer kept. */
  endFrame: number;
}

export interface SourceVideo {
  /** ffprobe's codec name: only H.264 groups are copied. */
  codec: string;
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
  /** The audio's codec and profile: AAC-LC audio is copied, any other encoded. */
  audioCodec: string;
  audioProfile: string;
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
  /** How the audio was made: its AAC frames copied, encoded again, or none in the source. */
  audio: 'copy' | 'encode' | 'none';
}

type Tools = { ffmpegPath?: string | undefined; ffprobePath?: string | undefined; signal?: AbortSignal | undefined };

function rate(value: string | undefined): number | null {
  const [num, den] = (value ?? '').split('/').map(Number);
  return num && den ? num / den : null;
}

/**
 * Pictures an edit list hides before the start of the video: a file cut by stream copy keeps the
 * whole group its first shown picture belongs to, and the demuxer flags the packets before that
 * picture as discarded. Counted over the first `packets` packets.
 */
async function hiddenLeadingPictures(file: string, packets: number, tools: Tools): Promise<number> {
  const text = await ffprobeText(
    [
      ...['-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'v:0', '-read_intervals', `%+#${packets}`],
      ...['-show_entries', 'packet=flags', '-of', 'csv=p=0', fileArg(file)],
    ],
    { bin: tools.ffprobePath, signal: tools.signal, idleTimeoutMs: 60_000 },
  );
  return text.split('\n').filter((flags) => flags.includes('D')).length;
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
  const formatStart = Number(data.format.start_time ?? 0) || 0;
  const shown = duration * frameRate;
  let counted = Number(video.nb_frames);
  // The container counts the pictures an edit list hides; a constant rate shows the others.
  if (Number.isFinite(counted) && counted - shown > 2) counted -= await hiddenLeadingPictures(file, Math.ceil(counted - shown) + 64, tools);
  return {
    codec: video.codec_name ?? 'unknown',
    frameRate,
    videoStart: Number(video.start_time ?? formatStart) || 0,
    formatStart,
    // The same nominal and average rate, and a frame count that agrees with the duration.
    constantRate:
      real !== null && average !== null && Math.abs(real - average) < 0.01 && (!Number.isFinite(counted) || Math.abs(counted - shown) <= 2),
    frameCount: Number.isFinite(counted) && counted > 0 ? counted : Math.round(shown),
    width: video.width ?? 0,
    height: video.height ?? 0,
    hasAudio: Boolean(audio),
    audioRate: Number(audio?.sample_rate ?? 48000),
    audioChannels: Number(audio?.channels ?? 2),
    audioCodec: audio?.codec_name ?? '',
    audioProfile: audio?.profile ?? '',
  };
}

/** A keyframe of the source, and whether a stream copy may start or end on it. */
export interface Keyframe {
  /** Index of its picture in the source (display order, from 0). */
  frame: number;
  /**
   * A copy may start here: an IDR picture (no later picture refers to an earlier one, and
   * h264_mp4toannexb puts the parameter sets before it) that splits the coding order cleanly.
   */
  copyFrom: boolean;
  /**
   * A copy may end here: every picture shown before it is coded before it, and none after it.
   * An open GOP's keyframe is not one: its leading pictures are shown before it but coded after.
   */
  copyTo: boolean;
}

export interface SourceKeyframes {
  keyframes: Keyframe[];
  /** Largest distance between a packet's presentation and decoding times (seconds). */
  reorderDelay: number;
}

interface ListedPacket {
  pts: number | null;
  dts: number | null;
  key: boolean;
  pos: number | null;
  size: number;
}

/**
 * H.264 reorders at most 16 pictures: the packets that far on either side of a keyframe say
 * whether a picture shown before it is coded after it, or the reverse.
 */
const REORDER_WINDOW = 16;

const H264_NAL_IDR = 5;
const H264_NAL_SLICE = 1;
/** NAL units that may come before the first slice of an access unit (SEI, SPS, PPS, AUD, SPS extension...). */
const H264_NAL_BEFORE_SLICE = new Set([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 19, 20]);

/**
 * Whether the packet at `pos` (`size` bytes, in the MP4's length-prefixed form) codes an IDR
 * picture: the type of its first slice NAL unit. Reads a few bytes per NAL unit before it. Four
 * bytes of length is what every encoder writes; a packet that does not parse so is not copied.
 */
export async function isIdrPacket(file: FileHandle, pos: number, size: number): Promise<boolean> {
  const head = Buffer.alloc(5);
  let offset = 0;
  for (let unit = 0; unit < 32 && offset + 5 <= size; unit++) {
    const { bytesRead } = await file.read(head, 0, 5, pos + offset);
    if (bytesRead < 5) return false;
    const length = head.readUInt32BE(0);
    // A set forbidden bit: not a NAL unit header, so not 4-byte lengths.
    if (length === 0 || offset + 4 + length > size || head[4]! & 0x80) return false;
    const type = head[4]! & 0x1f;
    if (type === H264_NAL_IDR) return true;
    if (type === H264_NAL_SLICE || !H264_NAL_BEFORE_SLICE.has(type)) return false;
    offset += 4 + length;
  }
  return false;
}

const secondsOf = (value: string | undefined) => {
  const n = Number.parseFloat(value ?? '');
  return Number.isFinite(n) ? n : null;
};

/**
 * The keyframes between two frames (the demuxer reads only that stretch, and a second on either
 * side), each with where a copy may start and end, from the packets in coding order.
 */
export async function sourceKeyframes(
  file: string,
  source: Pick<SourceVideo, 'frameRate' | 'videoStart' | 'codec'>,
  fromFrame: number,
  toFrame: number,
  tools: Tools = {},
): Promise<SourceKeyframes> {
  const from = Math.max(0, source.videoStart + fromFrame / source.frameRate - 1);
  const to = source.videoStart + toFrame / source.frameRate + 1;
  const text = await ffprobeText(
    [
      ...['-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'v:0'],
      ...['-read_intervals', `${from.toFixed(3)}%${to.toFixed(3)}`],
      ...['-show_entries', 'packet=pts_time,dts_time,flags,pos,size', '-of', 'csv=p=0:nk=0', fileArg(file)],
    ],
    { bin: tools.ffprobePath, signal: tools.signal, idleTimeoutMs: 60_000 },
  );
  // key=value pairs, in ffprobe's order of fields whatever the order asked.
  const packets: ListedPacket[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('=')) continue;
    const f = Object.fromEntries(line.split(',').map((pair) => pair.split('='))) as Record<string, string | undefined>;
    const pos = Number(f.pos);
    packets.push({
      pts: secondsOf(f.pts_time),
      dts: secondsOf(f.dts_time),
      key: f.flags?.includes('K') ?? false,
      pos: Number.isInteger(pos) && pos >= 0 ? pos : null,
      size: Number(f.size) || 0,
    });
  }
  let reorderDelay = 0;
  for (const p of packets) if (p.pts !== null && p.dts !== null) reorderDelay = Math.max(reorderDelay, p.pts - p.dts);

  const keyframes = new Map<number, Keyframe>();
  const handle = await open(file, 'r');
  try {
    for (const [i, packet] of packets.entries()) {
      if (!packet.key || packet.pts === null) continue;
      const frame = Math.round((packet.pts - source.videoStart) * source.frameRate);
      if (!Number.isFinite(frame) || frame < fromFrame || frame > toFrame || keyframes.has(frame)) continue;
      const pts = packet.pts;
      const before = packets.slice(Math.max(0, i - REORDER_WINDOW), i);
      const after = packets.slice(i + 1, i + 1 + REORDER_WINDOW);
      // A packet without a time could be anywhere: no copy around it.
      const clean = before.every((p) => p.pts !== null && p.pts < pts) && after.every((p) => p.pts !== null && p.pts > pts);
      const copyFrom = clean && source.codec === 'h264' && packet.pos !== null && (await isIdrPacket(handle, packet.pos, packet.size));
      keyframes.set(frame, { frame, copyFrom, copyTo: clean });
    }
  } finally {
    await handle.close();
  }
  return { keyframes: [...keyframes.values()].sort((a, b) => a.frame - b.frame), reorderDelay };
}

/** How far into a range, from either end, its keyframes are looked for first (seconds). */
const CUT_WINDOW_SECONDS = 12;

/**
 * The keyframes a range's plan needs: those near its start and near its end, each end's window
 * read alone, so that the packets of a long range are not all listed. When a window holds no
 * keyframe a copy may start or end on (a very long group), the whole range is read.
 */
export async function rangeKeyframes(
  file: string,
  source: Pick<SourceVideo, 'frameRate' | 'videoStart' | 'codec'>,
  range: FrameRange,
  tools: Tools = {},
): Promise<SourceKeyframes> {
  const window = Math.round(CUT_WINDOW_SECONDS * source.frameRate);
  if (range.endFrame - range.startFrame <= 3 * window) return sourceKeyframes(file, source, range.startFrame, range.endFrame, tools);
  const head = await sourceKeyframes(file, source, range.startFrame, range.startFrame + window, tools);
  const tail = await sourceKeyframes(file, source, range.endFrame - window, range.endFrame, tools);
  const first = head.keyframes.find((k) => k.copyFrom);
  const last = tail.keyframes.findLast((k) => k.copyTo);
  if (!first || !last) return sourceKeyframes(file, source, range.startFrame, range.endFrame, tools);
  // planRange copies from the first keyframe a copy may start on to the last one it may end on.
  return { keyframes: [...head.keyframes, ...tail.keyframes], reorderDelay: Math.max(head.reorderDelay, tail.reorderDelay) };
}

/**
 * The pieces of one range: encoded from its start to the first keyframe inside it a copy may
 * start from, copied over whole groups up to the last keyframe a copy may end on, encoded from
 * there to its end.
 */
export function planRange(range: FrameRange, keyframes: readonly Keyframe[]): Piece[] {
  const inside = keyframes.filter((k) => k.frame >= range.startFrame && k.frame <= range.endFrame);
  const first = inside.find((k) => k.copyFrom && k.frame < range.endFrame);
  const last = first && inside.findLast((k) => k.copyTo && k.frame > first.frame);
  // No whole group that can be copied inside: the range is encoded.
  if (!first || !last) return [{ kind: 'encode', ...range }];
  const pieces: Piece[] = [];
  if (first.frame > range.startFrame) pieces.push({ kind: 'encode', startFrame: range.startFrame, endFrame: first.frame });
  pieces.push({ kind: 'copy', startFrame: first.frame, endFrame: last.frame });
  if (range.endFrame > last.frame) pieces.push({ kind: 'encode', startFrame: last.frame, endFrame: range.endFrame });
  return pieces;
}

/**
 * x264 at CRF 20. The pieces around the cuts (a few seconds per range) use `ultrafast`: half the
 * processor time of `superfast` for as good a picture at the same CRF (55 against 52 dB on the
 * bench's 1080p test picture), for 38 % more bytes over those few seconds. Its 8x8 transform is
 * kept on, so that it signals the High profile like `superfast` (ultrafast alone is Constrained
 * Baseline, and the first piece's parameters become those of the file's index). A source
 * encoded whole keeps `superfast`.
 */
const ENCODE_VIDEO = (frameRate: number, preset: 'ultrafast' | 'superfast') => [
  ...['-c:v', 'libx264', '-preset', preset, ...(preset === 'ultrafast' ? ['-x264-params', '8x8dct=1'] : [])],
  ...['-crf', '20', '-pix_fmt', 'yuv420p', '-profile:v', 'high'],
  // A keyframe every 2 s in whatever the server encodes (STYLE.md), none forced by scene cuts.
  ...['-g', String(Math.max(1, Math.round(frameRate * KEYFRAME_SECONDS))), '-sc_threshold', '0'],
];

const CLEAN = ['-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'];

/** Seconds from the container's start, as `-ss` counts them, of a frame moved by `shift` frames. */
const timeOf = (source: SourceVideo, frame: number, shift: number) =>
  source.videoStart - source.formatStart + (frame + shift) / source.frameRate;

/** Where to seek for a frame, a fraction of a frame before or after it (frame n is at videoStart + n / frameRate). */
const seekTo = (source: SourceVideo, frame: number, shift: number) => Math.max(0, timeOf(source, frame, shift)).toFixed(6);

/** A piece to render, with the reorder delay of the source around it. */
interface PieceJob extends Piece {
  reorderDelay: number;
}

async function renderPiece(file: string, source: SourceVideo, piece: PieceJob, output: string, tools: Tools, timeoutMs: number) {
  const frames = piece.endFrame - piece.startFrame;
  const common = ['-an', '-sn', '-dn', '-frames:v', String(frames), '-video_track_timescale', '90000', '-f', 'mp4', fileArg(output)];
  let args: string[];
  if (piece.kind === 'copy') {
    // An input seek half a frame before this IDR picture lands on it or on an earlier keyframe
    // (ffmpeg before 5 seeks a source with B-frames 3/23 s early); the packets timed before it
    // are dropped (-copypriorss 0), and the next `frames` packets in coding order are exactly
    // the pictures of the copied groups (planRange copies only between clean keyframes).
    args = [
      ...['-protocol_whitelist', 'file', '-ss', seekTo(source, piece.startFrame, -0.5), '-i', fileArg(file), '-map', '0:v:0'],
      ...['-c:v', 'copy', '-copypriorss', '0', ...common],
    ];
  } else {
    // The demuxer lands on a keyframe whose decoding time is at or before the seek. Seeking
    // earlier than the first picture kept by the reorder delay and a frame lands on a keyframe
    // shown at or before it, so that no picture kept is a leading picture of an open GOP
    // decoded without what it refers to. The pictures before the first kept are then dropped
    // by their time, not counted: a decoder may hold back pictures it cannot show whole.
    const seek = Math.max(0, timeOf(source, piece.startFrame, -1.5) - piece.reorderDelay);
    const from = Math.max(0, timeOf(source, piece.startFrame, -0.5) - seek);
    args = [
      ...['-protocol_whitelist', 'file', '-ss', seek.toFixed(6), '-i', fileArg(file), '-map', '0:v:0'],
      ...['-vf', `trim=start=${from.toFixed(6)},setpts=PTS-STARTPTS`, ...ENCODE_VIDEO(source.frameRate, 'ultrafast'), ...common],
    ];
  }
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

/** An AAC-LC frame: 1024 samples. */
const aacFrameSeconds = (source: SourceVideo) => 1024 / source.audioRate;

/** Where each range's copied audio starts and ends, as timestamps of the source's AAC frames. */
interface AudioCut {
  from: number;
  to: number;
}

/**
 * The AAC frames each range keeps, or null when the audio cannot be copied (not AAC-LC, or no
 * frame where one is needed: the audio ends before the pictures, or has a gap at a cut). A range
 * starts on the frame nearest its first picture; it ends on the frame boundary nearest where the
 * pictures kept so far end, counted in audio already taken: the sound stays within half a frame
 * of the picture at every join, and never drifts from one range to the next.
 */
async function planAudioCopy(file: string, source: SourceVideo, ranges: readonly FrameRange[], tools: Tools): Promise<AudioCut[] | null> {
  if (source.audioCodec !== 'aac' || source.audioProfile !== 'LC') return null;
  const frame = aacFrameSeconds(source);
  const at = (n: number) => source.videoStart + n / source.frameRate;
  // ffprobe's intervals are timestamps of the file (not offsets from its start, as -ss is).
  const near = (t: number) => `${Math.max(0, t - 1).toFixed(6)}%+2`;
  // Every cut's neighbourhood in one probe: the AAC frames' timestamps within a second of it.
  const text = await ffprobeText(
    [
      ...['-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'a:0'],
      ...['-read_intervals', ranges.flatMap((r) => [near(at(r.startFrame)), near(at(r.endFrame))]).join(',')],
      ...['-show_entries', 'packet=pts_time', '-of', 'csv=p=0', fileArg(file)],
    ],
    { bin: tools.ffprobePath, signal: tools.signal, idleTimeoutMs: 60_000 },
  );
  const starts = [
    ...new Set(
      text
        .split('\n')
        .map(Number)
        .filter((t) => Number.isFinite(t)),
    ),
  ].sort((a, b) => a - b);
  const nearest = (t: number) => {
    let best: number | undefined;
    for (const pts of starts) if (best === undefined || Math.abs(pts - t) < Math.abs(best - t)) best = pts;
    // Within half a frame, or the audio has no frame there.
    return best !== undefined && Math.abs(best - t) <= frame * 0.51 ? best : null;
  };
  const cuts: AudioCut[] = [];
  let pictures = 0;
  let sound = 0;
  for (const range of ranges) {
    const from = nearest(at(range.startFrame));
    pictures += (range.endFrame - range.startFrame) / source.frameRate;
    const to = from === null ? null : nearest(from + pictures - sound);
    if (from === null || to === null || to <= from) return null;
    sound += to - from;
    cuts.push({ from, to });
  }
  return cuts;
}

/**
 * Copies each range's AAC frames as ADTS (self-framed: the pieces joined end to end are one
 * stream, timed by its frames), seeking half a frame before the first one kept and stopping
 * half a frame before the first one not kept.
 */
async function copyAudio(file: string, source: SourceVideo, cuts: readonly AudioCut[], output: string, tools: Tools, timeoutMs: number) {
  const frame = aacFrameSeconds(source);
  const pieces = cuts.map((_, i) => `${output}.${i}.aac`);
  for (const [i, cut] of cuts.entries()) {
    await run(
      [
        ...['-protocol_whitelist', 'file', '-ss', Math.max(0, cut.from - frame / 2 - source.formatStart).toFixed(6), '-i', fileArg(file)],
        ...['-map', '0:a:0', '-c:a', 'copy', '-copypriorss', '0', '-t', (cut.to - cut.from).toFixed(6), '-f', 'adts', fileArg(pieces[i]!)],
      ],
      { bin: tools.ffmpegPath, signal: tools.signal, timeoutMs },
    );
  }
  // Joined end to end, streamed: hours of audio are tens of megabytes.
  await writeFile(output, '');
  for (const piece of pieces) await pipeline(createReadStream(piece), createWriteStream(output, { flags: 'a' }));
}

/**
 * The audio of the kept ranges, in `work`: its AAC frames copied when they can be (a probe of
 * them around the cuts first), else encoded once, the longest task of a render.
 */
async function makeAudio(
  file: string,
  source: SourceVideo,
  ranges: readonly FrameRange[],
  work: string,
  tools: Tools,
  timeoutMs: number,
): Promise<{ audio: 'copy' | 'encode'; file: string }> {
  const cuts = await planAudioCopy(file, source, ranges, tools);
  if (cuts) {
    const output = path.resolve(work, 'audio.aac');
    await copyAudio(file, source, cuts, output, tools, timeoutMs);
    return { audio: 'copy', file: output };
  }
  const output = path.resolve(work, 'audio.m4a');
  await renderAudio(file, source, ranges, output, tools, timeoutMs);
  return { audio: 'encode', file: output };
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
      ...ENCODE_VIDEO(source.frameRate, 'superfast'),
      ...frameTiming(await ffmpegCapabilities({ ffmpegPath: tools.ffmpegPath, ffprobePath: tools.ffprobePath }), 'cfr'),
      '-r',
      String(source.frameRate),
      ...CLEAN,
      ...['-movflags', '+faststart', '-f', 'mp4', fileArg(output)],
    ],
    { bin: tools.ffmpegPath, signal: tools.signal, timeoutMs },
  );
}

/** Runs the tasks given to it at most `limit` at a time (the machine's cores are shared), first come first served. */
function limiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task: () => Promise<void>): Promise<void> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      await task();
    } finally {
      // The slot passes to the next task waiting, or is given back.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** What a piece costs, roughly: an encoded picture costs about a hundred copied ones. */
const cost = (piece: Piece) => (piece.endFrame - piece.startFrame) * (piece.kind === 'encode' ? 100 : 1);

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
    return {
      plan: 'encode',
      pieces,
      frames,
      duration: frames / source.frameRate,
      copiedFrames: 0,
      encodedFrames: frames,
      audio: source.hasAudio ? 'encode' : 'none',
    };
  }

  // Any failure (or the caller's abort) stops every ffmpeg still running before this gives up,
  // so that none writes into `work` afterwards.
  const stop = new AbortController();
  const abort = () => stop.abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  if (opts.signal?.aborted) abort();
  const tools: Tools = { ffmpegPath: opts.ffmpegPath, ffprobePath: opts.ffprobePath, signal: stop.signal };
  const slot = limiter(opts.parallel ?? 2);
  const started: Promise<void>[] = [];
  const start = (task: () => Promise<void>) => {
    const done = slot(task);
    done.catch(abort);
    started.push(done);
  };
  const pieces: PieceJob[] = [];
  const files: string[] = [];
  const sound: { audio: RenderResult['audio']; file: string } = { audio: 'none', file: '' };
  try {
    // The audio starts at once, beside the pictures' planning.
    if (source.hasAudio) {
      start(async () => {
        Object.assign(sound, await makeAudio(file, source, ranges, work, tools, timeoutMs));
      });
    }
    for (const range of ranges) {
      const { keyframes, reorderDelay } = await rangeKeyframes(file, source, range, tools);
      const planned = planRange(range, keyframes).map((piece, i) => ({
        ...piece,
        reorderDelay,
        file: path.resolve(work, `piece-${String(pieces.length + i).padStart(3, '0')}.mp4`),
      }));
      pieces.push(...planned);
      files.push(...planned.map((p) => p.file));
      // A range's pieces start as soon as it is planned, the costliest first.
      for (const piece of [...planned].sort((a, b) => cost(b) - cost(a))) {
        start(() => renderPiece(file, source, piece, piece.file, tools, timeoutMs));
      }
    }
    const failed = (await Promise.allSettled(started)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (err) {
    abort();
    await Promise.allSettled(started);
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }

  const list = path.join(work, 'pieces.txt');
  // Each piece lasts exactly its frames: the next one starts there, whatever its container says.
  const entries = pieces.map(
    (p, i) => `file '${files[i]!.replaceAll("'", "'\\''")}'\nduration ${((p.endFrame - p.startFrame) / source.frameRate).toFixed(6)}`,
  );
  await writeFile(list, entries.join('\n') + '\n');
  // Every picture kept and every AAC frame of the sound (1024 samples, a few more at each join).
  const audioFrames = source.hasAudio ? Math.ceil(((frames / source.frameRate) * source.audioRate) / 1024) + 2 * ranges.length : 0;
  const join = (reserve: number | null) =>
    run(
      [
        ...['-protocol_whitelist', 'file,concat', '-f', 'concat', '-safe', '0', '-i', fileArg(list)],
        ...(source.hasAudio
          ? ['-protocol_whitelist', 'file', '-i', fileArg(sound.file), '-map', '0:v:0', '-map', '1:a:0']
          : ['-map', '0:v:0']),
        ...['-c', 'copy', ...(sound.audio === 'copy' ? ['-bsf:a', 'aac_adtstoasc'] : [])],
        ...CLEAN,
        ...(reserve ? ['-moov_size', String(reserve)] : ['-movflags', '+faststart']),
        ...['-f', 'mp4', fileArg(output)],
      ],
      { bin: opts.ffmpegPath, signal: opts.signal, timeoutMs },
    );
  // The index written into room kept before the pictures: one pass, where +faststart reads and
  // writes the whole file again. Should the room prove too small (ffmpeg says so, and exits with
  // 0), the join is made again with +faststart.
  const reserve = indexReserve({ packetCount: frames + audioFrames });
  const joined = await join(reserve);
  if (reserve && /reserved_moov_size is too small/.test(joined.stderr)) await join(null);
  const planned = pieces.map(({ kind, startFrame, endFrame }) => ({ kind, startFrame, endFrame }));
  const copiedFrames = pieces.filter((p) => p.kind === 'copy').reduce((sum, p) => sum + p.endFrame - p.startFrame, 0);
  return {
    plan: 'smart',
    pieces: planned,
    frames,
    duration: frames / source.frameRate,
    copiedFrames,
    encodedFrames: frames - copiedFrames,
    audio: sound.audio,
  };
}
