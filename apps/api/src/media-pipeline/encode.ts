import { FfmpegError, ffprobe, ffprobeText, fileArg, type ProbeData } from './ffmpeg.ts';
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

/** Constant output rate: the source's, rounded, at most 60 (30 when the source does not say). */
export function outputFrameRate(source: Pick<SourceInfo, 'frameRate'>): number {
  return Math.min(MAX_FRAME_RATE, Math.max(1, Math.round(source.frameRate ?? 30)));
}

function input(source: SourceInfo, file: string): string[] {
  // The demuxer ffprobe validated is forced, and nothing but local files may be opened.
  return ['-protocol_whitelist', 'file', '-f', source.demuxer, '-i', fileArg(file)];
}

/** The first video and audio streams copied as they are into a fresh MP4. */
export function remuxArgs(source: SourceInfo, file: string, output: string): string[] {
  return [
    ...input(source, file),
    '-map',
    `0:${source.videoStreamIndex}`,
    '-map',
    `0:${source.audioStreamIndex}`,
    '-c',
    'copy',
    ...CLEAN_VIDEO_OUTPUT,
    '-movflags',
    '+faststart',
    '-max_muxing_queue_size',
    '4096',
    '-f',
    'mp4',
    fileArg(output),
  ];
}

const TONE_MAP = [
  'zscale=t=linear:npl=100',
  'format=gbrpf32le',
  'zscale=p=bt709',
  'tonemap=tonemap=hable:desat=0',
  'zscale=t=bt709:m=bt709:r=tv',
];

/**
 * H.264 High 8-bit 4:2:0 at a constant rate with a keyframe every 2 s, AAC stereo 48 kHz (a
 * silent track when the source has none). ffmpeg turns the picture upright while decoding
 * (autorotate), so the output carries no rotation.
 */
export function transcodeArgs(source: SourceInfo, file: string, output: string): string[] {
  const { width, height } = outputSize(source);
  const fps = outputFrameRate(source);
  const gop = fps * KEYFRAME_SECONDS;
  const filters = [
    ...(source.interlaced ? ['yadif=deint=interlaced'] : []),
    `scale=${width}:${height}:flags=bicubic`,
    'setsar=1',
    ...(source.hdr ? TONE_MAP : []),
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
    '-r',
    String(fps),
    '-fps_mode',
    'cfr',
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
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

/**
 * Poster and storyboard sheets in one ffmpeg run over the produced MP4. Thumbnail k is the
 * picture shown at k × interval (fps with round=up keeps the latest frame at or before each
 * tick). With `keyframesOnly` only keyframes are decoded, which is exact to within the keyframe
 * spacing (2 s in what the server encodes) and many times faster on a long video.
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
  },
): string[] {
  const { columns, rows, thumbWidth, thumbHeight } = STORYBOARD;
  const posterAt = Math.min(opts.duration * 0.1, 5);
  const posterWidth = Math.min(POSTER_MAX_WIDTH, opts.width);
  const posterHeight = even((opts.height * posterWidth) / opts.width);
  const count = storyboardCount(opts.duration, opts.interval);
  const thumbs = [
    // The last picture held one more interval, so that the final tick still gets its thumbnail.
    `tpad=stop_mode=clone:stop_duration=${opts.interval}`,
    `fps=fps=1/${opts.interval}:start_time=0:round=up`,
    `scale=${thumbWidth}:${thumbHeight}:force_original_aspect_ratio=decrease:force_divisible_by=2:flags=fast_bilinear`,
    `pad=${thumbWidth}:${thumbHeight}:(ow-iw)/2:(oh-ih)/2:color=black`,
    'setsar=1',
    `trim=end_frame=${count}`,
    `tile=${columns}x${rows}`,
  ];
  return [
    '-ss',
    posterAt.toFixed(3),
    '-protocol_whitelist',
    'file',
    '-i',
    fileArg(file),
    ...(opts.keyframesOnly ? ['-skip_frame', 'nokey'] : []),
    '-protocol_whitelist',
    'file',
    '-i',
    fileArg(file),
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `scale=${posterWidth}:${posterHeight}`,
    '-q:v',
    '3',
    ...CLEAN_IMAGE_OUTPUT,
    '-update',
    '1',
    '-f',
    'image2',
    fileArg(opts.posterFile),
    '-map',
    '1:v:0',
    '-vf',
    thumbs.join(','),
    '-fps_mode',
    'passthrough',
    '-q:v',
    '5',
    ...CLEAN_IMAGE_OUTPUT,
    '-start_number',
    '1',
    '-f',
    'image2',
    fileArg(opts.sheetPattern),
  ];
}
