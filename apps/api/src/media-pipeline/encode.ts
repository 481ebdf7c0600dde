import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  FfmpegError,
  ffprobe,
  ffprobeText,
  fileArg,
  run,
  type ProcessOptions,
  frameTiming,
  type FfmpegCapabilities,
  type ProbeData,
} from './ffmpeg.ts';
import type { SourceInfo } from './probe.ts';

/** The ffmpeg arguments of each output of the pipeline, and the checks of what came out. */

export const MAX_OUTPUT_SIDE = 1920;
export const KEYFRAME_SECONDS = 2;
export const MAX_FRAME_RATE = 60;
export const POSTER_MAX_WIDTH = 1280;
export const STORYBOARD = { columns: 10, rows: 10, thumbWidth: 160, thumbHeight: 90 } as const;

/**
 * Drops every tag, chapter and encoder signature: container and stream metadata (title,
 * comment, creation_time, location, handler names) are not copied, and bitexact keeps ffmpeg
 * from writing its own version strings.
 */
const CLEAN_VIDEO_OUTPUT = [
  '-map_metadata',
  '-1',
  '-map_chapters',
  '-1',
  '-map_metadata:s:v',
  '-1',
  '-map_metadata:s:a',
  '-1',
  '-fflags',
  '+bitexact',
  '-flags:v',
  '+bitexact',
  '-flags:a',
  '+bitexact',
];
const CLEAN_IMAGE_OUTPUT = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact'];

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Output picture size: the displayed size, longest side at most 1920, both sides even. */
export function outputSize(source: Pick<SourceInfo, 'displayWidth' | 'displayHeight'>): { width: number; height: number } {
  const scale = Math.min(1, MAX_OUTPUT_SIDE / Math.max(source.displayWidth, source.displayHeight));
  return { width: even(source.displayWidth * scale), height: even(source.displayHeight * scale) };
}

/** What of the ffmpeg in use the arguments depend on. */
export type EncoderCapabilities = Pick<FfmpegCapabilities, 'fpsMode' | 'filters'>;

/** Constant output rate: the source's, rounded, at most 60 (30 when the source does not say). */
export function outputFrameRate(source: Pick<SourceInfo, 'frameRate'>): number {
  return Math.min(MAX_FRAME_RATE, Math.max(1, Math.round(source.frameRate ?? 30)));
}

function input(source: Pick<SourceInfo, 'demuxer'>, file: string): string[] {
  // The demuxer ffprobe validated is forced, and nothing but local files may be opened.
  return ['-protocol_whitelist', 'file', '-f', source.demuxer, '-i', fileArg(file)];
}

/**
 * Room kept before the media data for the MP4 index of a remux, from its packet count: at most
 * 24 bytes a packet (size, time, composition offset, chunk) measured against ~8 in practice, so a
 * few MB of padding on an hour. Null when the count is unknown.
 */
export function indexReserve(source: Pick<SourceInfo, 'packetCount'>): number | null {
  return source.packetCount === null ? null : 64 * 1024 + 24 * source.packetCount;
}

/**
 * The first video and audio streams copied as they are into a fresh MP4, its index first. With
 * `reserve`, the index is written into room kept at the start (one pass); else `+faststart`
 * moves it there once the file is written, reading and writing the whole file a second time.
 */
export function remuxArgs(source: SourceInfo, file: string, output: string, opts: { reserve?: number | null } = {}): string[] {
  return [
    ...input(source, file),
    '-map',
    `0:${source.videoStreamIndex}`,
    '-map',
    `0:${source.audioStreamIndex}`,
    '-c',
    'copy',
    ...CLEAN_VIDEO_OUTPUT,
    ...(opts.reserve ? ['-moov_size', String(opts.reserve)] : ['-movflags', '+faststart']),
    '-max_muxing_queue_size',
    '4096',
    '-f',
    'mp4',
    fileArg(output),
  ];
}

/**
 * Remuxes with the index in room kept for it (`reserve`, by default from the packet count), or
 * with `+faststart` when that room proves too small: ffmpeg then says so and still exits with 0,
 * leaving a file without an index.
 */
export async function remux(
  source: SourceInfo,
  file: string,
  output: string,
  opts: ProcessOptions & { reserve?: number | null; onProgress?: (seconds: number) => void; onRetry?: (reserve: number) => void },
): Promise<void> {
  const { reserve = indexReserve(source), onRetry, ...runOptions } = opts;
  const first = await run(remuxArgs(source, file, output, { reserve }), runOptions);
  if (!reserve || !/reserved_moov_size is too small/.test(first.stderr)) return;
  onRetry?.(reserve);
  await run(remuxArgs(source, file, output), runOptions);
}

const TONE_MAP = [
  'zscale=t=linear:npl=100',
  'format=gbrpf32le',
  'zscale=p=bt709',
  'tonemap=tonemap=hable:desat=0',
  'zscale=t=bt709:m=bt709:r=tv',
];

/**
 * H.264 High 8-bit 4:2:0 with a keyframe every 2 s, AAC stereo 48 kHz (a silent track when the
 * source has none). A constant-rate source keeps its rate (at most 60); a variable-rate one
 * keeps every frame at its own time, since resampling it to one rate drops or repeats frames.
 * ffmpeg turns the picture upright while decoding (autorotate), so the output carries no rotation.
 */
export function transcodeArgs(source: SourceInfo, file: string, output: string, caps: EncoderCapabilities): string[] {
  const { width, height } = outputSize(source);
  const fps = outputFrameRate(source);
  const constant = source.constantFrameRate;
  // A variable rate has no frame count per 2 s: the forced keyframes set the spacing.
  const gop = constant ? fps * KEYFRAME_SECONDS : MAX_FRAME_RATE * KEYFRAME_SECONDS;
  const toneMap = source.hdr && caps.filters.has('zscale') && caps.filters.has('tonemap');
  const filters = [
    ...(source.interlaced ? ['yadif=deint=interlaced'] : []),
    `scale=${width}:${height}:flags=bicubic`,
    'setsar=1',
    ...(toneMap ? TONE_MAP : []),
    'format=yuv420p',
  ];
  const silent = source.audioStreamIndex === null;
  return [
    ...input(source, file),
    ...(silent ? ['-f', 'lavfi', '-t', source.duration.toFixed(3), '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000'] : []),
    '-map',
    `0:${source.videoStreamIndex}`,
    '-map',
    silent ? '1:a:0' : `0:${source.audioStreamIndex}`,
    '-vf',
    filters.join(','),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    ...(source.hdr ? ['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'] : []),
    ...(constant ? ['-r', String(fps), ...frameTiming(caps, 'cfr')] : frameTiming(caps, 'passthrough')),
    // Before ffmpeg 5.1 (no -fps_mode), the MP4 of a variable rate with reordered frames ends its
    // edit list at the last frame's time, which hides that frame: no B-frames there.
    ...(!constant && !caps.fpsMode ? ['-bf', '0'] : []),
    '-g',
    String(gop),
    ...(constant ? ['-keyint_min', String(gop)] : []),
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-ar',
    '48000',
    ...CLEAN_VIDEO_OUTPUT,
    // ffmpeg 5.1 writes "Lavc libx264" as the MP4 compressor name even with bitexact; a blank keeps it empty.
    '-metadata:s:v',
    'encoder= ',
    '-movflags',
    '+faststart',
    '-max_muxing_queue_size',
    '4096',
    '-f',
    'mp4',
    fileArg(output),
  ];
}

export interface OutputInfo {
  duration: number;
  width: number;
  height: number;
  frameRate: number;
  videoCodec: string;
  audioCodec: string;
}

/**
 * What may remain in a stored MP4, all of it structural and neutral: the brands, language `und`,
 * handler names VideoHandler/SoundHandler, a zero vendor id, a blank compressor name (and zero
 * creation times in mvhd/tkhd). Below the container: a transcode carries x264's settings SEI; a
 * remux copies the source's packets as they are, with whatever encoder strings its bitstream
 * holds (an AAC "Lavc…" fill element, a camera's SEI).
 */
const NEUTRAL_FORMAT_TAGS = new Set(['major_brand', 'minor_version', 'compatible_brands']);
const NEUTRAL_STREAM_TAGS: Record<string, (value: string) => boolean> = {
  language: (v) => v === 'und',
  handler_name: (v) => v === 'VideoHandler' || v === 'SoundHandler',
  vendor_id: (v) => v === '[0][0][0][0]',
  encoder: (v) => v.trim() === '',
};

/** Tags that would survive in a file; an empty list is the only acceptable answer for a stored output. */
export function leftoverMetadata(data: ProbeData): string[] {
  const left: string[] = [];
  for (const [key, value] of Object.entries(data.format.tags ?? {})) {
    if (!NEUTRAL_FORMAT_TAGS.has(key)) left.push(`format ${key}=${value}`);
  }
  for (const stream of data.streams) {
    for (const [key, value] of Object.entries(stream.tags ?? {})) {
      if (!NEUTRAL_STREAM_TAGS[key]?.(value)) left.push(`stream ${stream.index} ${key}=${value}`);
    }
    for (const side of stream.side_data_list ?? []) {
      if (typeof side.rotation === 'number' && side.rotation !== 0) left.push(`stream ${stream.index} rotation ${side.rotation}`);
    }
  }
  return left;
}

/** Probes the produced MP4 and refuses to let it through with a stray tag or a wrong stream. */
export async function inspectOutput(file: string, opts: { ffprobePath?: string; signal?: AbortSignal }): Promise<OutputInfo> {
  const data = await ffprobe(file, { bin: opts.ffprobePath, signal: opts.signal });
  const video = data.streams.find((s) => s.codec_type === 'video');
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  if (!video || !audio || data.streams.length !== 2)
    throw new FfmpegError(`unexpected output streams: ${data.streams.map((s) => s.codec_name).join(', ')}`);
  const left = leftoverMetadata(data);
  if (left.length > 0) throw new FfmpegError(`metadata left in the output: ${left.join('; ')}`);
  const [num, den] = (video.avg_frame_rate ?? '0/1').split('/').map(Number);
  return {
    duration: Number(data.format.duration),
    width: video.width ?? 0,
    height: video.height ?? 0,
    frameRate: num && den ? Math.round((num / den) * 1000) / 1000 : 0,
    videoCodec: video.codec_name ?? '',
    audioCodec: audio.codec_name ?? '',
  };
}

/** Longest distance between two keyframes of the first video stream (and from the last to the end). */
export async function longestKeyframeGap(
  file: string,
  duration: number,
  opts: { ffprobePath?: string; signal?: AbortSignal },
): Promise<number> {
  const text = await ffprobeText(
    [
      '-v',
      'error',
      '-protocol_whitelist',
      'file',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time,flags',
      '-of',
      'csv=p=0',
      fileArg(file),
    ],
    { bin: opts.ffprobePath, signal: opts.signal, idleTimeoutMs: 60_000 },
  );
  const keys = text
    .split('\n')
    .filter((line) => line.split(',')[1]?.includes('K'))
    .map((line) => Number.parseFloat(line))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (keys.length === 0) return Infinity;
  let gap = keys[0]!;
  for (let i = 1; i < keys.length; i++) gap = Math.max(gap, keys[i]! - keys[i - 1]!);
  return Math.max(gap, duration - keys[keys.length - 1]!);
}

/** One thumbnail every `interval` seconds: 1 s for a 5-minute video, at most 10 s. */
export function storyboardInterval(duration: number): number {
  return Math.min(10, Math.max(1, Math.ceil(duration / 300)));
}

export function storyboardCount(duration: number, interval: number): number {
  // A hair over a whole number of intervals (container rounding) does not earn an extra cue.
  return Math.max(1, Math.ceil(duration / interval - 1e-3));
}

function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

export const sheetName = (index: number) => `sheet-${String(index + 1).padStart(3, '0')}.jpg`;

/** The WebVTT of a storyboard: one cue per thumbnail, naming its sheet and its cell. */
export function storyboardVtt(duration: number, interval: number): string {
  const { columns, rows, thumbWidth, thumbHeight } = STORYBOARD;
  const perSheet = columns * rows;
  const count = storyboardCount(duration, interval);
  const cues = ['WEBVTT', ''];
  for (let k = 0; k < count; k++) {
    const cell = k % perSheet;
    const x = (cell % columns) * thumbWidth;
    const y = Math.floor(cell / columns) * thumbHeight;
    cues.push(`${vttTime(k * interval)} --> ${vttTime(Math.min((k + 1) * interval, duration))}`);
    cues.push(`${sheetName(Math.floor(k / perSheet))}#xywh=${x},${y},${thumbWidth},${thumbHeight}`, '');
  }
  return cues.join('\n');
}

/** The filters that turn the frames of a video into storyboard sheets (thumbnail k shows k × interval). */
function storyboardFilters(duration: number, interval: number): string[] {
  const { columns, rows, thumbWidth, thumbHeight } = STORYBOARD;
  return [
    // The last picture held one more interval, so that the final tick still gets its thumbnail.
    `tpad=stop_mode=clone:stop_duration=${interval}`,
    `fps=fps=1/${interval}:start_time=0:round=up`,
    // Even sides for 4:2:0 (force_divisible_by is younger than some ffmpeg builds in use).
    `scale=${thumbWidth}:${thumbHeight}:force_original_aspect_ratio=decrease:flags=fast_bilinear`,
    'scale=trunc(iw/2)*2:trunc(ih/2)*2',
    `pad=${thumbWidth}:${thumbHeight}:(ow-iw)/2:(oh-ih)/2:color=black`,
    'setsar=1',
    `trim=end_frame=${storyboardCount(duration, interval)}`,
    `tile=${columns}x${rows}`,
  ];
}

/** The poster's moment: a tenth of the way in, at most 5 s. */
export const posterTime = (duration: number) => Math.min(duration * 0.1, 5);

export function posterSize(width: number, height: number): { width: number; height: number } {
  const posterWidth = Math.min(POSTER_MAX_WIDTH, width);
  return { width: posterWidth, height: even((height * posterWidth) / width) };
}

/**
 * The picture shown at the poster's moment (the latest frame at or before it, as for the
 * storyboard), scaled: one frame out of the same decoded stream, without a seek of its own.
 */
function posterFilters(duration: number, size: { width: number; height: number }): string[] {
  const at = Math.max(posterTime(duration), 0.001).toFixed(3);
  return [
    `tpad=stop_mode=clone:stop_duration=${at}`,
    `fps=fps=1/${at}:start_time=0:round=up`,
    'trim=start_frame=1:end_frame=2',
    `scale=${size.width}:${size.height}`,
    'setsar=1',
  ];
}

const imageOutput = (quality: number, file: string, single: boolean) => [
  '-q:v',
  String(quality),
  ...CLEAN_IMAGE_OUTPUT,
  ...(single ? ['-frames:v', '1', '-update', '1'] : ['-start_number', '1']),
  '-f',
  'image2',
  fileArg(file),
];

/**
 * The poster's and the sheets' outputs, each fed one video stream: `source` is a filter label
 * (`[poster]`, `[sheets]` out of a complex graph) or an input stream with its own simple filters.
 */
function pictureOutputs(
  duration: number,
  interval: number,
  size: { width: number; height: number },
  out: { posterFile: string; sheetPattern: string },
  caps: EncoderCapabilities,
): { graph: string; args: (source: { poster: string; sheets: string; filters: boolean }) => string[] } {
  const poster = posterFilters(duration, posterSize(size.width, size.height)).join(',');
  const sheets = storyboardFilters(duration, interval).join(',');
  return {
    graph: `split=2[board][cover];[board]${sheets}[sheets];[cover]${poster}[poster]`,
    args: (source) => [
      '-map',
      source.poster,
      ...(source.filters ? ['-vf', poster] : []),
      ...imageOutput(3, out.posterFile, true),
      '-map',
      source.sheets,
      ...(source.filters ? ['-vf', sheets] : []),
      ...frameTiming(caps, 'passthrough'),
      ...imageOutput(5, out.sheetPattern, false),
    ],
  };
}

/**
 * A transcode with its poster and storyboard, in one ffmpeg run that reads and decodes the
 * source once: the pictures branch off the frames the encoder receives.
 */
export function transcodeWithPicturesArgs(
  source: SourceInfo,
  file: string,
  out: { video: string; posterFile: string; sheetPattern: string; interval: number },
  caps: EncoderCapabilities,
): string[] {
  const encoded = transcodeArgs(source, file, out.video, caps);
  const pictures = pictureOutputs(source.duration, out.interval, outputSize(source), out, caps);
  const images = pictures.args({ poster: '[poster]', sheets: '[sheets]', filters: false });
  // The encoder's own chain ends in [video]; the pictures branch off the same frames.
  const vf = encoded.indexOf('-vf');
  const chain = encoded[vf + 1]!;
  const args = [...encoded.slice(0, vf), ...encoded.slice(vf + 2)];
  args[args.indexOf(`0:${source.videoStreamIndex}`)] = '[video]';
  const full = `[0:${source.videoStreamIndex}]${chain},split=2[video][pictures];[pictures]${pictures.graph}`;
  const firstMap = args.indexOf('-map');
  return [...args.slice(0, firstMap), '-filter_complex', full, ...args.slice(firstMap), ...images];
}

/**
 * Poster and storyboard sheets of a video file in one ffmpeg run (the same pictures processArgs
 * makes beside the MP4). With `keyframesOnly` only keyframes are decoded.
 */
export function posterAndStoryboardArgs(
  file: string,
  opts: {
    duration: number;
    width: number;
    height: number;
    interval: number;
    keyframesOnly: boolean;
    posterFile: string;
    sheetPattern: string;
    /** The demuxer and stream probed in a source; the first video stream of a file otherwise. */
    demuxer?: string;
    videoStreamIndex?: number;
    /** The file's timestamps are the source's own (keyframes chosen out of it): none shifted. */
    copyts?: boolean;
  },
  caps: EncoderCapabilities,
): string[] {
  const pictures = pictureOutputs(opts.duration, opts.interval, { width: opts.width, height: opts.height }, opts, caps);
  const stream = `0:${opts.videoStreamIndex ?? 'v:0'}`;
  return [
    // Other packets are dropped by the demuxer, before the decoder sees them. Simple filters per
    // output, both fed by the one decoder: a complex graph would undo -discard (five times the work).
    ...(opts.keyframesOnly ? ['-discard', 'nokey', '-skip_frame', 'nokey'] : []),
    ...(opts.copyts ? ['-copyts'] : []),
    '-protocol_whitelist',
    'file',
    ...(opts.demuxer ? ['-f', opts.demuxer] : []),
    '-i',
    fileArg(file),
    ...pictures.args({ poster: stream, sheets: stream, filters: true }),
  ];
}

/** The timescale of the file of chosen keyframes: the packets' times reach the choice in it. */
const CHOSEN_TIMESCALE = 90_000;

/**
 * The keyframes the pictures of a long video need, copied out of it without decoding anything:
 * the latest keyframe at or before each storyboard tick (a tick falls before the next keyframe,
 * which is at most `keyframeGap` later) and those up to the poster's moment. With a keyframe
 * every 2 s and a tick every 10 s, one keyframe in five is decoded instead of all of them.
 * Times are those the pictures of the whole file would see (the source's, less its start).
 */
export function chosenKeyframesArgs(
  source: Pick<SourceInfo, 'demuxer' | 'videoStreamIndex' | 'duration' | 'keyframeGap'>,
  file: string,
  output: string,
  interval: number,
): string[] {
  const gap = source.keyframeGap ?? KEYFRAME_SECONDS;
  // The time in seconds. ffmpeg hands the filter packets already in the output's timescale (its
  // `tb` stays the input's), so that timescale is set here and divided by.
  const t = `(pts/${CHOSEN_TIMESCALE})`;
  const keep = [`lte(${t},${(posterTime(source.duration) + 0.001).toFixed(3)})`, `lt(mod(-${t},${interval}),${(gap - 0.0005).toFixed(4)})`];
  // Commas inside the expression are escaped: a bare one would start the next filter of the list.
  const drop = `not(key)+not(${keep.join('+')})`.replaceAll(',', '\\,');
  return [
    '-discard',
    'nokey',
    ...input(source, file),
    '-map',
    `0:${source.videoStreamIndex}`,
    '-c',
    'copy',
    '-map_metadata',
    '-1',
    '-video_track_timescale',
    String(CHOSEN_TIMESCALE),
    '-bsf:v',
    `noise=drop=${drop}`,
    '-f',
    'mp4',
    fileArg(output),
  ];
}

/**
 * Poster and storyboard of a remuxed source, drawn from its keyframes (`keyframesOnly`): with an
 * ffmpeg that chooses packets by time, out of the few keyframes they need, copied aside first
 * (checked by their count, else every keyframe is decoded as before).
 */
export async function remuxPictures(
  source: SourceInfo,
  file: string,
  out: { work: string; posterFile: string; sheetPattern: string; interval: number; keyframesOnly: boolean },
  caps: EncoderCapabilities & Pick<FfmpegCapabilities, 'packetSelection'>,
  opts: ProcessOptions & { ffprobePath?: string | undefined; onFallback?: (kept: number) => void },
): Promise<void> {
  const { ffprobePath, onFallback, ...runOptions } = opts;
  const pictures = {
    duration: source.duration,
    width: source.width,
    height: source.height,
    interval: out.interval,
    keyframesOnly: out.keyframesOnly,
    posterFile: out.posterFile,
    sheetPattern: out.sheetPattern,
  };
  if (out.keyframesOnly && caps.packetSelection) {
    const chosen = path.join(out.work, 'keyframes.mp4');
    await run(chosenKeyframesArgs(source, file, chosen, out.interval), runOptions);
    const data = await ffprobe(chosen, { bin: ffprobePath, signal: opts.signal });
    const kept = Number(data.streams[0]?.nb_frames);
    // About one a tick, plus the first seconds: anything far off means the times were misread.
    const ticks = storyboardCount(source.duration, out.interval);
    if (Number.isInteger(kept) && kept >= ticks && kept <= 2 * ticks + 8) {
      await run(posterAndStoryboardArgs(chosen, { ...pictures, demuxer: 'mov', videoStreamIndex: 0, copyts: true }, caps), runOptions);
      await rm(chosen, { force: true });
      return;
    }
    onFallback?.(kept);
    await rm(chosen, { force: true });
  }
  await run(
    posterAndStoryboardArgs(file, { ...pictures, demuxer: source.demuxer, videoStreamIndex: source.videoStreamIndex }, caps),
    runOptions,
  );
}
