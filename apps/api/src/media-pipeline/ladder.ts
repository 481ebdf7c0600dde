import { mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { media, videoLadders, videos, type LadderRung } from '../db/schema.ts';
import type { Scratch } from '../storage/scratch.ts';
import type { Storage } from '../storage/storage.ts';
import { KEYFRAME_SECONDS } from './encode.ts';
import { ffmpegCapabilities, ffprobe, ffprobeText, fileArg, frameTiming, run } from './ffmpeg.ts';

/**
 * The HLS ladder of a video's playable file (docs/streaming.md): the stored MP4 itself cut into
 * fMP4 segments without re-encoding (`src`), and H.264/AAC rungs below it (720p and 360p unless
 * STREAMING says otherwise), never taller than the file. Every encoded rung takes its keyframes
 * exactly where the stored file has them, and every rung is cut by the same segmenter every
 * KEYFRAME_SECONDS: the segments of all rungs start on the same frames, so a switch never shows
 * a glitch.
 */

export const HLS_DIR = 'hls';
export const MASTER_PLAYLIST = 'master.m3u8';
export const RUNG_PLAYLIST = 'index.m3u8';
export const INIT_SEGMENT = 'init.mp4';
/** What a client may ask for under a ladder: the master playlist, or a rung's playlist, init or segment. */
export const LADDER_FILE = /^(?:master\.m3u8|(?:src|\d{3,4}p)\/(?:index\.m3u8|init\.mp4|seg-\d{5}\.m4s))$/;

/** Where the ladder of a playable file lives: removed with the video (`deletePrefix('videos/<id>')`). */
export const ladderPrefix = (videoId: string, mediaId: string) => `videos/${videoId}/${HLS_DIR}/${mediaId}`;

/** A keyframe list on the command line stays well under Linux's 128 KiB per argument. */
const MAX_FORCED_KEYFRAMES_CHARS = 100_000;

export interface RungPlan {
  name: string;
  /** The stored file cut as it is, or re-encoded to this height (the short side of a portrait video). */
  copy: boolean;
  width: number;
  height: number;
  /** Caps of an encoded rung: video kbit/s (peak, VBV) and audio kbit/s. */
  maxrateKbps: number;
  audioKbps: number;
}

/** Peak video bit rate of an encoded rung: enough for surgical detail at veryfast, low enough for its link. */
export function rungMaxrate(shortSide: number): number {
  if (shortSide >= 1080) return 5000;
  // With its audio, under 0.7 of 3 Mbit/s: hls.js's margin before it climbs to a rung.
  if (shortSide >= 720) return 1800;
  if (shortSide >= 540) return 1500;
  if (shortSide >= 480) return 1100;
  if (shortSide >= 360) return 550;
  return 300;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The rungs of a file of this size: itself, then every configured height below its short side. */
export function planLadder(picture: { width: number; height: number }, heights: readonly number[]): RungPlan[] {
  const portrait = picture.height > picture.width;
  const short = Math.min(picture.width, picture.height);
  const long = Math.max(picture.width, picture.height);
  const plans: RungPlan[] = [{ name: 'src', copy: true, width: picture.width, height: picture.height, maxrateKbps: 0, audioKbps: 0 }];
  for (const h of [...new Set(heights)].sort((a, b) => b - a)) {
    if (h >= short) continue;
    const other = even((long * h) / short);
    plans.push({
      name: `${h}p`,
      copy: false,
      width: portrait ? h : other,
      height: portrait ? other : h,
      maxrateKbps: rungMaxrate(h),
      audioKbps: h >= 480 ? 128 : 64,
    });
  }
  return plans;
}

/** Times of the keyframes of the first video stream, from the packets (nothing decoded). */
export async function keyframeTimes(file: string, opts: { ffprobePath?: string; signal?: AbortSignal }): Promise<number[]> {
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
  return text
    .split('\n')
    .filter((line) => line.split(',')[1]?.includes('K'))
    .map((line) => Number.parseFloat(line))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
}

/** A time as ffmpeg reads it, floored to the millisecond: never after the frame it names. */
const atOrBefore = (seconds: number) => String(Math.floor(seconds * 1000 + 1e-6) / 1000);

/**
 * The `-force_key_frames` value of an encoded rung: every keyframe of the stored file (where the
 * segmenter may cut it). A list too long for one argument (many hours with short GOPs) keeps the
 * first keyframe at or after each multiple of KEYFRAME_SECONDS and the one after it, which holds
 * the segmenter's cuts; longer still (past about five hours), a keyframe every KEYFRAME_SECONDS,
 * which is where the pipeline's own encodes have theirs.
 */
export function forcedKeyframes(keys: readonly number[]): string {
  const all = keys.map(atOrBefore).join(',');
  if (all.length <= MAX_FORCED_KEYFRAMES_CHARS) return all || '0';
  const kept = new Set<number>();
  let target = KEYFRAME_SECONDS;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i]! + 1e-6 < target) continue;
    kept.add(i);
    if (i + 1 < keys.length) kept.add(i + 1);
    target = Math.floor(keys[i]! / KEYFRAME_SECONDS) * KEYFRAME_SECONDS + KEYFRAME_SECONDS;
  }
  const cuts = [0, ...[...kept].sort((a, b) => a - b).map((i) => keys[i]!)].map(atOrBefore).join(',');
  return cuts.length <= MAX_FORCED_KEYFRAMES_CHARS ? cuts : `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`;
}

const HLS_OUTPUT = (dir: string) => [
  '-f',
  'hls',
  '-hls_time',
  String(KEYFRAME_SECONDS),
  '-hls_list_size',
  '0',
  '-hls_playlist_type',
  'vod',
  '-hls_segment_type',
  'fmp4',
  '-hls_fmp4_init_filename',
  INIT_SEGMENT,
  '-hls_segment_filename',
  fileArg(path.join(dir, 'seg-%05d.m4s')),
  '-hls_flags',
  'independent_segments',
  fileArg(path.join(dir, RUNG_PLAYLIST)),
];

const CLEAN = ['-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'];

/** ffmpeg's arguments for one rung, written into `dir`. */
export function rungArgs(
  plan: RungPlan,
  file: string,
  dir: string,
  opts: { keyframes: string; maxKeyframeGap: number; frameRate: number; fpsMode: boolean },
): string[] {
  const input = ['-protocol_whitelist', 'file', '-i', fileArg(file), '-map', '0:v:0', '-map', '0:a:0?'];
  if (plan.copy) return [...input, '-c', 'copy', ...CLEAN, ...HLS_OUTPUT(dir)];
  // The encoder never adds a keyframe of its own: only where the stored file has one.
  const gop = Math.ceil((opts.maxKeyframeGap + 1) * Math.max(1, opts.frameRate));
  return [
    ...input,
    '-vf',
    `scale=${plan.width}:${plan.height}:flags=bicubic,setsar=1,format=yuv420p`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-maxrate',
    `${plan.maxrateKbps}k`,
    '-bufsize',
    `${plan.maxrateKbps * 2}k`,
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    // Each frame keeps the time it has in the stored file: the rungs show the same frame at the same time.
    ...frameTiming({ fpsMode: opts.fpsMode }, 'passthrough'),
    '-g',
    String(gop),
    '-keyint_min',
    '1',
    '-sc_threshold',
    '0',
    '-force_key_frames',
    opts.keyframes,
    '-c:a',
    'aac',
    '-b:a',
    `${plan.audioKbps}k`,
    '-ac',
    '2',
    '-ar',
    '48000',
    ...CLEAN,
    '-max_muxing_queue_size',
    '4096',
    ...HLS_OUTPUT(dir),
  ];
}

/** The segments a rung playlist names, with their durations. */
export function playlistSegments(text: string): { uri: string; duration: number }[] {
  const out: { uri: string; duration: number }[] = [];
  let duration: number | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8));
    else if (line && !line.startsWith('#') && duration !== null) {
      out.push({ uri: line, duration });
      duration = null;
    }
  }
  return out;
}

/** RFC 6381 name of the H.264 stream of an init segment, read from its `avcC` box (profile, constraints, level). */
export async function avcCodec(initFile: string): Promise<string> {
  const bytes = await readFile(initFile);
  const at = bytes.indexOf('avcC');
  if (at < 0 || at + 8 > bytes.length) throw new Error('no avcC box in the init segment');
  const hex = (i: number) => bytes[at + 4 + i]!.toString(16).padStart(2, '0');
  return `avc1.${hex(1)}${hex(2)}${hex(3)}`;
}

/** RFC 6381 name of the AAC stream of an init segment (LC unless ffprobe says HE). */
async function aacCodec(initFile: string, ffprobePath: string | undefined): Promise<string | null> {
  const data = await ffprobe(initFile, { bin: ffprobePath });
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  if (!audio) return null;
  if (audio.profile === 'HE-AACv2') return 'mp4a.40.29';
  if (audio.profile === 'HE-AAC') return 'mp4a.40.5';
  return 'mp4a.40.2';
}

/** What the master playlist says of a finished rung, from its files. */
export async function describeRung(
  plan: RungPlan,
  dir: string,
  frameRate: number | null,
  ffprobePath: string | undefined,
): Promise<Omit<LadderRung, 'bytes'> & { files: string[] }> {
  const segments = playlistSegments(await readFile(path.join(dir, RUNG_PLAYLIST), 'utf8'));
  if (segments.length === 0) throw new Error(`rung ${plan.name}: no segment`);
  let peak = 0;
  let bits = 0;
  let seconds = 0;
  for (const s of segments) {
    const size = (await stat(path.join(dir, s.uri))).size;
    bits += size * 8;
    seconds += s.duration;
    // A short last segment says little about the rate a link must carry.
    if (s.duration >= KEYFRAME_SECONDS / 2 || segments.length === 1) peak = Math.max(peak, (size * 8) / Math.max(s.duration, 0.001));
  }
  const init = path.join(dir, INIT_SEGMENT);
  const codecs = [await avcCodec(init), await aacCodec(init, ffprobePath)].filter(Boolean).join(',');
  return {
    name: plan.name,
    width: plan.width,
    height: plan.height,
    bandwidth: Math.ceil(peak),
    averageBandwidth: Math.ceil(bits / Math.max(seconds, 0.001)),
    codecs,
    frameRate,
    files: [INIT_SEGMENT, ...segments.map((s) => s.uri), RUNG_PLAYLIST],
  };
}

/**
 * The master playlist: the rung for a phone's start first (players that take the first one, as
 * Safari does, start quickly), then the others from the tallest.
 */
export function masterPlaylist(rungs: readonly LadderRung[]): string {
  const tallestFirst = [...rungs].sort((a, b) => b.height * b.width - a.height * a.width);
  const start = tallestFirst.find((r) => Math.min(r.width, r.height) <= 720) ?? tallestFirst[0]!;
  const ordered = [start, ...tallestFirst.filter((r) => r !== start)];
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const r of ordered) {
    const attrs = [
      `BANDWIDTH=${r.bandwidth}`,
      `AVERAGE-BANDWIDTH=${r.averageBandwidth}`,
      `RESOLUTION=${r.width}x${r.height}`,
      ...(r.frameRate ? [`FRAME-RATE=${r.frameRate.toFixed(3)}`] : []),
      `CODECS="${r.codecs}"`,
    ];
    lines.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, `${r.name}/${RUNG_PLAYLIST}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface LadderDeps {
  db: Db;
  storage: Storage;
  scratch: Scratch;
  config: Pick<Config, 'ffmpegPath' | 'ffprobePath' | 'streaming'>;
  log: Logger;
}

/** Whether a file exists and is not empty (a segmenter that died leaves a playlist without its end). */
async function complete(playlist: string): Promise<boolean> {
  try {
    const handle = await open(playlist, 'r');
    try {
      return (await handle.readFile('utf8')).includes('#EXT-X-ENDLIST');
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/**
 * The job `video.ladder`: makes the ladder of the video's current playable file, rung by rung;
 * a rung stored by an earlier attempt is kept. Safe to run twice; quiet when the video is gone,
 * not ready, already has its ladder, or STREAMING=off. Files of the ladders of an earlier
 * playable file (before a new render) are removed.
 */
export async function makeLadder(deps: LadderDeps, videoId: string, opts: { signal?: AbortSignal } = {}): Promise<'made' | 'skipped'> {
  const { db, storage, config, log } = deps;
  if (!config.streaming.enabled) return 'skipped';
  const heights = config.streaming.rungs;
  const [video] = await db
    .select({ id: videos.id, mediaStatus: videos.mediaStatus, videoMediaId: videos.videoMediaId, frameRate: videos.frameRate })
    .from(videos)
    .where(eq(videos.id, videoId));
  if (!video?.videoMediaId || video.mediaStatus !== 'ready') return 'skipped';
  const mediaId = video.videoMediaId;
  const [file] = await db.select().from(media).where(eq(media.id, mediaId));
  if (!file) return 'skipped';
  const [existing] = await db.select().from(videoLadders).where(eq(videoLadders.mediaId, mediaId));
  if (existing?.status === 'ready') return 'skipped';
  if (!existing) {
    await db.insert(videoLadders).values({ mediaId, videoId, sourceBytes: file.size }).onConflictDoNothing();
  }
  await removeStaleLadders(deps, videoId, mediaId);

  const startedAt = performance.now();
  const done = new Map((existing?.rungs ?? []).map((r) => [r.name, r]));
  const prefix = ladderPrefix(videoId, mediaId);
  const tools = { ffprobePath: config.ffprobePath, ...(opts.signal ? { signal: opts.signal } : {}) };
  // One rung at a time is in the work folder (the `src` rung, the largest, about the file's size),
  // and on S3 a copy of the file beside it.
  const room = Math.ceil(file.size * (storage.kind === 's3' ? 2.1 : 1.1));
  const made = await deps.scratch.withDir(`ladder-${videoId}-`, room, (work) =>
    storage.withLocalFile(file.storageKey, deps.scratch, async (source) => {
      const caps = await ffmpegCapabilities({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath });
      const picture = { width: file.width ?? 0, height: file.height ?? 0 };
      if (!picture.width || !picture.height) {
        const probed = (await ffprobe(source, { bin: config.ffprobePath })).streams.find((s) => s.codec_type === 'video');
        picture.width = probed?.width ?? 0;
        picture.height = probed?.height ?? 0;
      }
      const plans = planLadder(picture, heights);
      const todo = plans.filter((p) => !done.has(p.name));
      const keys = todo.some((p) => !p.copy) ? await keyframeTimes(source, tools) : [];
      let maxGap = KEYFRAME_SECONDS;
      for (let i = 1; i < keys.length; i++) maxGap = Math.max(maxGap, keys[i]! - keys[i - 1]!);
      const duration = Number((await ffprobe(source, { bin: config.ffprobePath })).format.duration ?? 0);
      // Progress by the work each rung costs: a copy next to nothing, an encode by its pixels.
      const weight = (p: RungPlan) => (p.copy ? 0.2 : (p.width * p.height) / (640 * 360));
      const total = plans.reduce((s, p) => s + weight(p), 0);
      let before = plans.filter((p) => done.has(p.name)).reduce((s, p) => s + weight(p), 0);
      let lastWrite = 0;
      const report = (value: number) => {
        const now = Date.now();
        if (now - lastWrite < 2000) return;
        lastWrite = now;
        void db
          .update(videoLadders)
          .set({ progress: Math.min(99, Math.floor(value)) })
          .where(eq(videoLadders.mediaId, mediaId))
          .catch((err: unknown) => log.warn({ err, videoId }, 'ladder: progress not saved'));
      };
      for (const plan of todo) {
        const dir = path.join(work, plan.name);
        await mkdir(dir, { recursive: true });
        const args = rungArgs(plan, source, dir, {
          keyframes: forcedKeyframes(keys),
          maxKeyframeGap: maxGap,
          frameRate: video.frameRate ?? 30,
          fpsMode: caps.fpsMode,
        });
        await run(args, {
          bin: config.ffmpegPath,
          timeoutMs: 30 * 60_000 + duration * 5000,
          ...(opts.signal ? { signal: opts.signal } : {}),
          onProgress: (seconds) => report((100 * (before + weight(plan) * Math.min(1, seconds / Math.max(duration, 0.001)))) / total),
        });
        if (!(await complete(path.join(dir, RUNG_PLAYLIST)))) throw new Error(`rung ${plan.name}: the playlist has no end`);
        const described = await describeRung(plan, dir, video.frameRate, config.ffprobePath);
        let bytes = 0;
        // The playlist last: a rung whose playlist is stored has all its segments.
        for (const name of described.files) bytes += (await storage.putFile(`${prefix}/${plan.name}/${name}`, path.join(dir, name))).size;
        const { files: _files, ...rung } = described;
        done.set(plan.name, { ...rung, bytes });
        before += weight(plan);
        const [still] = await db
          .update(videoLadders)
          .set({ rungs: plans.filter((p) => done.has(p.name)).map((p) => done.get(p.name)!), progress: Math.floor((100 * before) / total) })
          .where(eq(videoLadders.mediaId, mediaId))
          .returning({ mediaId: videoLadders.mediaId });
        // The video (or this file of it) was deleted meanwhile: nothing more is written for it.
        if (!still) return null;
        log.debug({ videoId, rung: plan.name, bytes }, 'ladder: rung stored');
      }
      const rungs = plans.map((p) => done.get(p.name)!);
      const master = masterPlaylist(rungs);
      const { size } = await storage.put(`${prefix}/${MASTER_PLAYLIST}`, Buffer.from(master));
      return { rungs, bytes: rungs.reduce((s, r) => s + r.bytes, 0) + size };
    }),
  );
  if (!made) {
    await storage.deletePrefix(prefix);
    return 'skipped';
  }
  const [ready] = await db
    .update(videoLadders)
    .set({
      status: 'ready',
      progress: 100,
      rungs: made.rungs,
      bytes: made.bytes,
      workMs: sql`${videoLadders.workMs} + ${Math.round(performance.now() - startedAt)}`,
      readyAt: new Date(),
    })
    .where(eq(videoLadders.mediaId, mediaId))
    .returning({ mediaId: videoLadders.mediaId });
  if (!ready) {
    // The playable file went meanwhile (a new render, the video deleted): its ladder with it.
    await storage.deletePrefix(prefix);
    return 'skipped';
  }
  log.info({ videoId, mediaId, rungs: made.rungs.map((r) => r.name), bytes: made.bytes }, 'ladder: ready');
  return 'made';
}

/** The ladders of a video other than that of its current playable file: rows and files. */
async function removeStaleLadders(deps: LadderDeps, videoId: string, mediaId: string) {
  await deps.db.delete(videoLadders).where(and(eq(videoLadders.videoId, videoId), sql`${videoLadders.mediaId} <> ${mediaId}`));
  const stale = new Set<string>();
  for await (const entry of deps.storage.list(`videos/${videoId}/${HLS_DIR}`)) {
    const owner = entry.key.split('/')[3];
    if (owner && owner !== mediaId) stale.add(owner);
  }
  for (const owner of stale) await deps.storage.deletePrefix(ladderPrefix(videoId, owner));
}
