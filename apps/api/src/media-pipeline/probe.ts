import { open } from 'node:fs/promises';
import { FfmpegError, ffprobe, ffprobeText, fileArg, type ProbeData, type ProbeStream } from './ffmpeg.ts';

/**
 * What an uploaded file is, decided by its content (never by its name): refused, remuxed as it
 * is, or transcoded.
 */

export type RefusalCode = 'MEDIA_NOT_A_VIDEO' | 'MEDIA_NO_VIDEO_STREAM' | 'MEDIA_TRUNCATED';

export interface SourceInfo {
  /** The ffmpeg demuxer that read the file (mov, matroska, mpegts...); later runs force it. */
  demuxer: string;
  /** Seconds. */
  duration: number;
  videoStreamIndex: number;
  audioStreamIndex: number | null;
  videoCodec: string;
  pixFmt: string;
  width: number;
  height: number;
  /** The picture as it is meant to be seen: pixel aspect ratio and rotation applied. */
  displayWidth: number;
  displayHeight: number;
  /** Degrees a player turns the picture (0, 90, 180, 270); the transcode applies it to the pixels. */
  rotation: number;
  frameRate: number | null;
  constantFrameRate: boolean;
  audioCodec: string | null;
  /** Fields rather than frames (1080i towers and recorders): deinterlaced when transcoding. */
  interlaced: boolean;
  /** PQ or HLG transfer: tone-mapped to SDR when transcoding. */
  hdr: boolean;
  majorBrand: string | null;
  /**
   * Widest distance between keyframes seen in the first minute and the last seconds (packet
   * flags, nothing decoded for the first); null before probeSource looked. An encoder keeps one
   * setting for a recording, and listing every packet of an hour costs as much as copying it.
   */
  keyframeGap: number | null;
  /** Packets of the video and audio streams kept, when the container counts them (MP4 does). */
  packetCount: number | null;
}

export type ProbeVerdict =
  | { kind: 'refused'; code: RefusalCode; detail: string }
  | { kind: 'accepted'; plan: 'remux' | 'transcode'; reasons: string[]; source: SourceInfo };

/** Containers a camera, a laparoscopy tower or a console recorder writes. */
const VIDEO_DEMUXERS = new Set(['mov', 'matroska', 'mpegts', 'avi', 'mpeg', 'flv', 'asf', 'mxf', 'ogg', 'dv']);
/** Demuxers of still images (`*_pipe` and these). */
const IMAGE_DEMUXERS = new Set(['image2', 'gif', 'apng', 'webp', 'ico', 'jpegxl_anim']);
const IMAGE_CODECS = new Set(['mjpeg', 'png', 'bmp', 'gif', 'webp', 'tiff', 'jpeg2000', 'jpegxl', 'apng', 'pam', 'ppm', 'qoi']);

/** The container family of the first bytes of a file, or null when no video container starts so. */
export function sniffContainer(head: Buffer): string | null {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 8 && ['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid'].includes(ascii(4, 8))) return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'avi';
  if (head.length >= 189 && head[0] === 0x47 && head[188] === 0x47) return 'mpegts';
  if (head.length >= 197 && head[4] === 0x47 && head[196] === 0x47) return 'mpegts';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x000001ba) return 'mpeg';
  if (head.length >= 3 && ascii(0, 3) === 'FLV') return 'flv';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x3026b275 && head.readUInt32BE(4) === 0x8e66cf11) return 'asf';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x060e2b34) return 'mxf';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  return null;
}

async function readHead(file: string, bytes = 4096): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function parseRate(rate: string | undefined): number | null {
  if (!rate) return null;
  const [num, den] = rate.split('/').map(Number);
  const value = den === undefined ? num : num! / den;
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : null;
}

function positive(value: string | number | undefined): number | null {
  const n = Number(value);
  return value !== undefined && value !== 'N/A' && Number.isFinite(n) && n > 0 ? n : null;
}

const counted = (stream: ProbeStream) => {
  const n = Number(stream.nb_frames);
  return stream.nb_frames !== undefined && Number.isInteger(n) && n > 0 ? n : null;
};

/** Matroska keeps a stream's duration in a DURATION tag ("00:01:02.500000000"). */
function tagDuration(stream: ProbeStream): number | null {
  const raw = Object.entries(stream.tags ?? {}).find(([k]) => k.toUpperCase().startsWith('DURATION'))?.[1];
  const match = raw ? /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(raw) : null;
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : null;
}

/** The rotation a player applies (0, 90, 180 or 270 degrees), from the display matrix or the old `rotate` tag. */
export function rotationOf(stream: ProbeStream): number {
  let degrees = 0;
  const tag = Number(stream.tags?.rotate);
  if (Number.isFinite(tag) && tag !== 0) degrees = tag;
  for (const side of stream.side_data_list ?? []) {
    if (typeof side.rotation === 'number' && side.rotation !== 0) degrees = side.rotation;
  }
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/** The decision a probe leads to, before the decode check of the end (pure, for tests). */
export function classify(data: ProbeData): ProbeVerdict {
  const demuxer = data.format.format_name.split(',')[0]!;
  if (IMAGE_DEMUXERS.has(demuxer) || demuxer.endsWith('_pipe')) {
    return { kind: 'refused', code: 'MEDIA_NOT_A_VIDEO', detail: `image format ${data.format.format_name}` };
  }
  const videoStreams = data.streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = data.streams.find((s) => s.codec_type === 'audio') ?? null;
  const video = videoStreams[0];
  if (!video) {
    return audio
      ? { kind: 'refused', code: 'MEDIA_NO_VIDEO_STREAM', detail: `only audio (${data.format.format_name})` }
      : { kind: 'refused', code: 'MEDIA_NOT_A_VIDEO', detail: `no video or audio stream (${data.format.format_name})` };
  }
  if (!VIDEO_DEMUXERS.has(demuxer)) {
    return { kind: 'refused', code: 'MEDIA_NOT_A_VIDEO', detail: `unsupported container ${data.format.format_name}` };
  }
  const duration = positive(data.format.duration) ?? positive(video.duration) ?? tagDuration(video);
  const frames = Number(video.nb_frames);
  if (IMAGE_CODECS.has(video.codec_name ?? '') && (!duration || frames === 1)) {
    return { kind: 'refused', code: 'MEDIA_NOT_A_VIDEO', detail: `a single ${video.codec_name} picture` };
  }
  if (!duration) return { kind: 'refused', code: 'MEDIA_TRUNCATED', detail: 'no duration' };
  if (!video.width || !video.height) return { kind: 'refused', code: 'MEDIA_TRUNCATED', detail: 'no picture size' };

  const rotation = rotationOf(video);
  const sar = parseRate(video.sample_aspect_ratio?.replace(':', '/')) ?? 1;
  const shownWidth = video.width * sar;
  const displayWidth = rotation % 180 === 0 ? shownWidth : video.height;
  const displayHeight = rotation % 180 === 0 ? video.height : shownWidth;
  const real = parseRate(video.r_frame_rate);
  const average = parseRate(video.avg_frame_rate);
  const constantFrameRate = real !== null && average !== null && Math.abs(real - average) / real <= 0.01;
  const source: SourceInfo = {
    demuxer,
    duration,
    videoStreamIndex: video.index,
    audioStreamIndex: audio?.index ?? null,
    videoCodec: video.codec_name ?? 'unknown',
    pixFmt: video.pix_fmt ?? 'unknown',
    width: video.width,
    height: video.height,
    displayWidth: Math.round(displayWidth),
    displayHeight: Math.round(displayHeight),
    rotation,
    frameRate: average ?? real,
    constantFrameRate,
    audioCodec: audio?.codec_name ?? null,
    interlaced: ['tt', 'bb', 'tb', 'bt'].includes(video.field_order ?? ''),
    hdr: ['smpte2084', 'arib-std-b67'].includes(video.color_transfer ?? ''),
    majorBrand: data.format.tags?.major_brand?.trim() || null,
    keyframeGap: null,
    packetCount: counted(video) !== null && (!audio || counted(audio) !== null) ? counted(video)! + (audio ? counted(audio)! : 0) : null,
  };

  // Remux only what every browser plays as it is; anything else is re-encoded.
  const reasons: string[] = [];
  if (demuxer !== 'mov' || !source.majorBrand || source.majorBrand === 'qt')
    reasons.push(`container ${data.format.format_name} (${source.majorBrand ?? 'no brand'})`);
  if (source.videoCodec !== 'h264') reasons.push(`video codec ${source.videoCodec}`);
  if (source.pixFmt !== 'yuv420p') reasons.push(`pixel format ${source.pixFmt}`);
  if (!source.audioCodec) reasons.push('no audio track');
  else if (source.audioCodec !== 'aac') reasons.push(`audio codec ${source.audioCodec}`);
  if (!constantFrameRate) reasons.push(`variable frame rate (${video.r_frame_rate} vs ${video.avg_frame_rate})`);
  if (rotation !== 0) reasons.push(`rotation ${rotation}`);
  if (source.interlaced) reasons.push(`interlaced (${video.field_order})`);
  if (sar !== 1) reasons.push(`non-square pixels ${video.sample_aspect_ratio}`);
  return { kind: 'accepted', plan: reasons.length === 0 ? 'remux' : 'transcode', reasons, source };
}

/** Widest distance between consecutive keyframe times (Infinity with fewer than two), and from the last to `end`. */
export function widestKeyframeGap(keys: number[], end?: number): number {
  if (keys.length < 2 && end === undefined) return Infinity;
  if (keys.length === 0) return Infinity;
  const sorted = [...keys].sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < sorted.length; i++) gap = Math.max(gap, sorted[i]! - sorted[i - 1]!);
  return end === undefined ? gap : Math.max(gap, end - sorted[sorted.length - 1]!);
}

/** The end of the video stream, in the stream's own timestamps. */
function videoEnd(data: ProbeData, source: SourceInfo): number {
  const stream = data.streams.find((s) => s.index === source.videoStreamIndex)!;
  const start = Number(stream.start_time);
  const streamDuration = positive(stream.duration) ?? tagDuration(stream);
  if (streamDuration) return (Number.isFinite(start) ? start : 0) + streamDuration;
  const formatStart = Number(data.format.start_time);
  return (Number.isFinite(formatStart) ? formatStart : 0) + source.duration;
}

/**
 * Decodes the last seconds of the video stream: a file cut short (an interrupted copy, a full
 * card) still announces its whole duration, but its last frames are missing or undecodable.
 */
async function checkTail(
  file: string,
  data: ProbeData,
  source: SourceInfo,
  bin: string | undefined,
  signal?: AbortSignal,
): Promise<{ damage: string | null; keyframeGap: number }> {
  const end = videoEnd(data, source);
  const from = Math.max(0, end - 3);
  let text: string;
  try {
    text = await ffprobeText(
      [
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-f',
        source.demuxer,
        '-read_intervals',
        `${from.toFixed(3)}%`,
        '-select_streams',
        String(source.videoStreamIndex),
        '-show_entries',
        'frame=best_effort_timestamp_time,key_frame',
        '-of',
        'csv=p=0:nk=0',
        fileArg(file),
      ],
      { bin, timeoutMs: 10 * 60_000, idleTimeoutMs: 60_000, signal },
    );
  } catch (err) {
    if (!(err instanceof FfmpegError) || signal?.aborted) throw err;
    text = err.stdout;
  }
  // key=value pairs, in ffprobe's order of fields whatever the order asked.
  const frames = text
    .split('\n')
    .map((line) => Object.fromEntries(line.split(',').map((pair) => pair.split('='))) as Record<string, string | undefined>)
    .map((f) => ({ time: Number.parseFloat(f.best_effort_timestamp_time ?? ''), key: f.key_frame === '1' }))
    .filter((f) => Number.isFinite(f.time));
  if (frames.length === 0) return { damage: 'no frame could be decoded at the end', keyframeGap: Infinity };
  const times = frames.map((f) => f.time);
  const last = Math.max(...times);
  const frame = source.frameRate ? 1 / source.frameRate : 0.04;
  const tolerance = Math.max(1, 3 * frame) + 0.002 * source.duration;
  return {
    damage: last >= end - tolerance ? null : `the last decodable frame is at ${last.toFixed(2)} s of ${end.toFixed(2)} s`,
    // The read starts at a keyframe: the spacing of the last ones, and from the last to the end.
    keyframeGap: widestKeyframeGap(
      frames.filter((f) => f.key).map((f) => f.time),
      last + frame,
    ),
  };
}

/** Probes an uploaded file and decides what to do with it. */
export async function probeSource(file: string, opts: { ffprobePath?: string; signal?: AbortSignal } = {}): Promise<ProbeVerdict> {
  let data: ProbeData;
  try {
    // The packets of the first minute come with it: their flags tell the keyframe spacing.
    data = await ffprobe(file, {
      bin: opts.ffprobePath,
      signal: opts.signal,
      args: ['-read_intervals', '%+60', '-show_entries', 'packet=stream_index,pts_time,flags'],
    });
  } catch (err) {
    if (!(err instanceof FfmpegError) || opts.signal?.aborted) throw err;
    // ffprobe gave up: a known video container is damaged or cut ("moov atom not found"); anything else is not a video.
    const container = sniffContainer(await readHead(file));
    const reason = err.stderr.trim().split('\n').pop() ?? err.message;
    return container
      ? { kind: 'refused', code: 'MEDIA_TRUNCATED', detail: `${container}: ${reason}` }
      : { kind: 'refused', code: 'MEDIA_NOT_A_VIDEO', detail: reason };
  }
  const verdict = classify(data);
  if (verdict.kind === 'refused') return verdict;
  const tail = await checkTail(file, data, verdict.source, opts.ffprobePath, opts.signal);
  if (tail.damage) return { kind: 'refused', code: 'MEDIA_TRUNCATED', detail: tail.damage };
  const headKeys = (data.packets ?? [])
    .filter((p) => p.stream_index === verdict.source.videoStreamIndex && p.flags?.includes('K'))
    .map((p) => Number.parseFloat(p.pts_time ?? ''))
    .filter(Number.isFinite);
  return { ...verdict, source: { ...verdict.source, keyframeGap: Math.max(widestKeyframeGap(headKeys), tail.keyframeGap) } };
}
