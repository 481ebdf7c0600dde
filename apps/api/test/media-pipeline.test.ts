// @media: runs ffmpeg and ffprobe
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, open, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { VIDEO_SOCKET_EVENTS, type VideoProgressEvent } from '@sutura/domain/videos';
import { media, notifications, surgeries, videos } from '../src/db/schema.ts';
import {
  chosenKeyframesArgs,
  leftoverMetadata,
  posterAndStoryboardArgs,
  remux,
  remuxPictures,
  storyboardVtt,
} from '../src/media-pipeline/encode.ts';
import { ffmpegCapabilities, ffprobe, ffprobeText, fileArg, frameTiming, run, type ProbeData } from '../src/media-pipeline/ffmpeg.ts';
import { classify, probeSource, type SourceInfo } from '../src/media-pipeline/probe.ts';
import { markProcessingFailed, processVideo, type PipelineDeps } from '../src/media-pipeline/process-video.ts';
import { createTestContext, type TestContext } from './harness.ts';

/** Real ffmpeg on tiny generated clips (2–5 s, 320×240), on the test database. */

let ctx: TestContext;
let clips: string;
let author: { id: string };
let surgery: { id: string; nameFr: string; nameEn: string };
const events: { userId: string; event: string; payload: VideoProgressEvent }[] = [];
let onEmit: ((payload: VideoProgressEvent) => void) | undefined;

function deps(overrides: Partial<PipelineDeps> = {}): PipelineDeps {
  return {
    db: ctx.database.db,
    storage: ctx.storage,
    uploads: ctx.services.uploads,
    scratch: ctx.services.scratch,
    mediaService: ctx.services.mediaService,
    notifications: ctx.services.notifications,
    hub: {
      disconnectSessions() {},
      emitToUser(userId, event, payload) {
        events.push({ userId, event, payload: payload as VideoProgressEvent });
        onEmit?.(payload as VideoProgressEvent);
      },
      emitToRole() {},
    },
    config: ctx.config,
    log: pino({ level: 'silent' }),
    ...overrides,
  };
}

const lavfiVideo = (seconds: number, rate = '25') => ['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${rate}:duration=${seconds}`];
const lavfiTone = (seconds: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`];
const x264 = ['-c:v', 'libx264', '-preset', 'ultrafast'];
const tags = [
  '-metadata',
  'title=Patient Jean Dupont',
  '-metadata',
  'comment=DOB 1960-02-03, bloc 4',
  '-metadata',
  'creation_time=2024-03-01T10:00:00Z',
  '-metadata',
  'location=+48.8566+002.3522/',
  '-metadata:s:v',
  'handler_name=Dupont camera',
  '-metadata:s:a',
  'title=Dr Martin voice',
];

async function makeClip(name: string, args: string[]): Promise<string> {
  const file = path.join(clips, name);
  await run([...args, fileArg(file)]);
  return file;
}

/** A video row as the upload route leaves it: the file received, waiting for the job. */
async function uploadedVideo(clip: string): Promise<{ id: string; source: string }> {
  await mkdir(path.join(ctx.dataDir, 'uploads'), { recursive: true });
  const key = `uploads/${randomUUID()}`;
  const source = path.join(ctx.dataDir, key);
  await copyFile(clip, source);
  const [row] = await ctx.database.db
    .insert(videos)
    .values({
      authorId: author.id,
      kind: 'video',
      surgeryId: surgery.id,
      mediaStatus: 'processing',
      sourceKey: key,
      sourceSize: (await stat(source)).size,
    })
    .returning();
  return { id: row!.id, source };
}

const getVideo = async (id: string) => (await ctx.database.db.select().from(videos).where(eq(videos.id, id)))[0];
const mediaOf = (id: string) => ctx.database.db.select().from(media).where(eq(media.videoId, id));
const stored = (key: string) => path.join(ctx.dataDir, 'media', key);
const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

async function storedFiles(videoId: string): Promise<string[]> {
  const root = stored(`videos/${videoId}`);
  const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return files
    .filter((f) => f.isFile())
    .map((f) => path.relative(root, path.join(f.parentPath, f.name)))
    .sort();
}

/** Top-level MP4 boxes in file order. */
async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const boxes: string[] = [];
    const header = Buffer.alloc(16);
    for (let at = 0; at < size;) {
      await handle.read(header, 0, 16, at);
      let length = header.readUInt32BE(0);
      if (length === 1) length = Number(header.readBigUInt64BE(8));
      if (length === 0) length = size - at;
      boxes.push(header.toString('latin1', 4, 8));
      at += length;
    }
    return boxes;
  } finally {
    await handle.close();
  }
}

async function packets(file: string): Promise<string> {
  return ffprobeText([
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'packet=pts,dts,duration,size,flags',
    '-of',
    'csv=p=0',
    fileArg(file),
  ]);
}

async function videoMd5(file: string): Promise<string> {
  const out = path.join(clips, `${randomUUID()}.md5`);
  await run(['-i', fileArg(file), '-map', '0:v:0', '-c', 'copy', '-f', 'md5', fileArg(out)]);
  return (await readFile(out, 'utf8')).trim();
}

async function keyframeTimes(file: string): Promise<number[]> {
  const text = await ffprobeText([
    '-v',
    'error',
    '-skip_frame',
    'nokey',
    '-select_streams',
    'v:0',
    '-show_entries',
    'frame=pts_time',
    '-of',
    'csv=p=0',
    fileArg(file),
  ]);
  return text
    .split('\n')
    .map((l) => Number.parseFloat(l))
    .filter(Number.isFinite);
}

/** Presentation times of every decoded video frame, in milliseconds. */
async function frameTimes(file: string): Promise<number[]> {
  const text = await ffprobeText([
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'frame=best_effort_timestamp_time',
    '-of',
    'csv=p=0',
    fileArg(file),
  ]);
  return text
    .split('\n')
    .map((l) => Number.parseFloat(l))
    .filter(Number.isFinite)
    .map((t) => Math.round(t * 1000));
}

async function countedFrames(file: string): Promise<number> {
  const text = await ffprobeText([
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    fileArg(file),
  ]);
  return Number(text.trim());
}

const IDENTIFYING = ['Dupont', 'Jean', 'DOB 1960', 'bloc 4', 'Martin', '48.8566', '2024-03-01', 'Lavf'];

/**
 * Nothing of the source's tags, in ffprobe's view or anywhere in the bytes. A remux copies the
 * audio packets, so the source's AAC encoder string ("Lavc…" in the first frame) stays in them;
 * what the server encodes has none.
 */
async function expectNoIdentifyingMetadata(file: string, probe: ProbeData, opts: { encodedHere: boolean }) {
  expect(leftoverMetadata(probe)).toEqual([]);
  expect(Object.keys(probe.format.tags ?? {}).sort()).toEqual(['compatible_brands', 'major_brand', 'minor_version']);
  for (const stream of probe.streams) {
    expect(Object.keys(stream.tags ?? {}).filter((k) => !['language', 'handler_name', 'vendor_id', 'encoder'].includes(k))).toEqual([]);
  }
  const bytes = await readFile(file);
  for (const word of opts.encodedHere ? [...IDENTIFYING, 'Lavc'] : IDENTIFYING) {
    expect(bytes.includes(word), `"${word}" in ${path.basename(file)}`).toBe(false);
  }
  expect(bytes.includes('creation_time')).toBe(false);
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  clips = path.join(ctx.dataDir, 'clips');
  await mkdir(clips, { recursive: true });
  author = await ctx.createUser('learner');
  const [first] = await ctx.database.db.select().from(surgeries).limit(1);
  surgery = first!;
});
afterAll(async () => {
  await ctx?.close();
});

describe('an H.264 + AAC MP4 with identifying tags', () => {
  let clip: string;
  let video: { id: string; source: string };
  beforeAll(async () => {
    // Written without faststart, as most recorders do.
    clip = await makeClip('recorder.mp4', [...lavfiVideo(3), ...lavfiTone(3), ...x264, '-pix_fmt', 'yuv420p', '-c:a', 'aac', ...tags]);
    video = await uploadedVideo(clip);
    events.length = 0;
    await processVideo(deps(), video.id);
  });

  it('is remuxed: the same video packets, bit for bit, in a fresh MP4 with the index first', async () => {
    const row = (await getVideo(video.id))!;
    expect(row).toMatchObject({
      mediaStatus: 'ready',
      processingProgress: 100,
      failureReason: null,
      remuxed: true,
      videoCodec: 'h264',
      audioCodec: 'aac',
      width: 320,
      height: 240,
      frameRate: 25,
      sourceKey: null,
    });
    expect(row.duration).toBeCloseTo(3, 1);
    expect(Math.abs(row.duration! - 3)).toBeLessThanOrEqual(0.1);
    expect(row.readyAt).toBeInstanceOf(Date);

    const output = stored(`videos/${video.id}/video.mp4`);
    expect(await packets(output)).toBe(await packets(clip));
    expect(await videoMd5(output)).toBe(await videoMd5(clip));
    const boxes = await topLevelBoxes(output);
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    expect((await topLevelBoxes(clip)).indexOf('moov')).toBeGreaterThan((await topLevelBoxes(clip)).indexOf('mdat'));
  });

  it('keeps no tag that could identify the patient, the place, the time or the device', async () => {
    const source = await ffprobe(clip);
    expect(source.format.tags?.title).toBe('Patient Jean Dupont');
    const output = stored(`videos/${video.id}/video.mp4`);
    const probe = await ffprobe(output);
    await expectNoIdentifyingMetadata(output, probe, { encodedHere: false });
    expect(probe.streams.map((s) => s.tags?.handler_name)).toEqual(['VideoHandler', 'SoundHandler']);
    for (const image of ['poster.jpg', 'storyboard/sheet-001.jpg']) {
      const bytes = await readFile(stored(`videos/${video.id}/${image}`));
      // A bare JFIF header: no EXIF, no comment, no encoder string.
      expect(bytes.subarray(0, 4).toString('hex')).toBe('ffd8ffe0');
      for (const word of [...IDENTIFYING, 'Lavc', 'Exif']) expect(bytes.includes(word)).toBe(false);
    }
  });

  it('stores the video, poster and storyboard with one media row each, and deletes the source', async () => {
    const rows = await mediaOf(video.id);
    expect(rows.map((r) => r.kind).sort()).toEqual(['poster', 'storyboard-sheet', 'storyboard-vtt', 'video']);
    for (const r of rows) {
      expect(r.ownerId).toBe(author.id);
      expect(r.storageKey.startsWith(`videos/${video.id}/`)).toBe(true);
      expect(r.size).toBe((await stat(stored(r.storageKey))).size);
    }
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r]));
    expect(byKind.video).toMatchObject({ contentType: 'video/mp4', width: 320, height: 240, storageKey: `videos/${video.id}/video.mp4` });
    expect(byKind.poster).toMatchObject({ contentType: 'image/jpeg', width: 320, height: 240 });
    expect(byKind['storyboard-sheet']).toMatchObject({ contentType: 'image/jpeg', width: 1600, height: 900 });
    expect(byKind['storyboard-vtt']).toMatchObject({ contentType: 'text/vtt' });
    const poster = await ffprobe(stored(byKind.poster!.storageKey));
    expect(poster.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 320, height: 240 });

    const row = (await getVideo(video.id))!;
    expect(row.videoMediaId).toBe(byKind.video!.id);
    expect(row.posterMediaId).toBe(byKind.poster!.id);
    expect(row.storyboard).toEqual({
      interval: 1,
      columns: 10,
      rows: 10,
      thumbWidth: 160,
      thumbHeight: 90,
      count: 3,
      sheetMediaIds: [byKind['storyboard-sheet']!.id],
      vttMediaId: byKind['storyboard-vtt']!.id,
    });
    expect(await exists(video.source)).toBe(false);
  });

  it('writes a storyboard VTT whose cues cover the whole video', async () => {
    const vtt = await readFile(stored(`videos/${video.id}/storyboard/storyboard.vtt`), 'utf8');
    expect(vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:01.000',
        'sheet-001.jpg#xywh=0,0,160,90',
        '',
        '00:00:01.000 --> 00:00:02.000',
        'sheet-001.jpg#xywh=160,0,160,90',
        '',
        '00:00:02.000 --> 00:00:03.000',
        'sheet-001.jpg#xywh=320,0,160,90',
        '',
      ].join('\n'),
    );
  });

  it('reports progress to the author, then tells them the video is ready', async () => {
    const progress = events.filter((e) => e.event === VIDEO_SOCKET_EVENTS.progress);
    expect(progress.every((e) => e.userId === author.id && e.payload.videoId === video.id)).toBe(true);
    const values = progress.map((e) => e.payload.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(progress.at(-1)!.payload).toEqual({ videoId: video.id, mediaStatus: 'ready', progress: 100 });
    const [note] = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, author.id), eq(notifications.key, 'videoReady')));
    expect(note).toMatchObject({ link: `/videos/${video.id}`, params: { surgery: { fr: surgery.nameFr, en: surgery.nameEn } } });
  });

  it('is safe to run twice: a second run after a crash leaves one set of media rows and files', async () => {
    const before = await mediaOf(video.id);
    // As if the job were picked up again: the source is back and the row was not marked ready.
    await copyFile(clip, video.source);
    await ctx.database.db
      .update(videos)
      .set({ mediaStatus: 'processing', sourceKey: path.relative(ctx.dataDir, video.source) })
      .where(eq(videos.id, video.id));
    await processVideo(deps(), video.id);
    const after = await mediaOf(video.id);
    expect(after).toHaveLength(4);
    expect(after.map((r) => r.id).some((id) => before.some((b) => b.id === id))).toBe(false);
    expect(await storedFiles(video.id)).toEqual(['poster.jpg', 'storyboard/sheet-001.jpg', 'storyboard/storyboard.vtt', 'video.mp4']);
    const row = (await getVideo(video.id))!;
    expect(after.map((r) => r.id)).toContain(row.videoMediaId);

    // Once ready, another run changes nothing.
    await processVideo(deps(), video.id);
    expect((await mediaOf(video.id)).map((r) => r.id).sort()).toEqual(after.map((r) => r.id).sort());
    expect((await getVideo(video.id))!.updatedAt).toEqual(row.updatedAt);
  });
});

describe('sources that are re-encoded', () => {
  it('HEVC in Matroska without audio: H.264 + AAC (silent), constant 30 fps, a keyframe every 2 s', async () => {
    const clip = await makeClip('phone.mkv', [
      ...lavfiVideo(5, '30000/1001'),
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      ...tags,
    ]);
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    const row = (await getVideo(video.id))!;
    expect(row).toMatchObject({ mediaStatus: 'ready', remuxed: false, width: 320, height: 240, frameRate: 30 });
    expect(Math.abs(row.duration! - 5)).toBeLessThanOrEqual(0.1);
    const output = stored(`videos/${video.id}/video.mp4`);
    const probe = await ffprobe(output);
    expect(probe.streams[0]).toMatchObject({
      codec_name: 'h264',
      profile: 'High',
      pix_fmt: 'yuv420p',
      r_frame_rate: '30/1',
      avg_frame_rate: '30/1',
    });
    expect(probe.streams[1]).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const keys = await keyframeTimes(output);
    expect(keys).toEqual([0, 2, 4]);
    await expectNoIdentifyingMetadata(output, probe, { encodedHere: true });
    expect(await exists(video.source)).toBe(false);
  });

  it('a phone clip at 30 then 15 fps keeps every frame at its own time', async () => {
    const caps = await ffmpegCapabilities();
    const clip = await makeClip('vfr.mp4', [
      ...lavfiVideo(2, '30'),
      ...lavfiVideo(2, '15'),
      ...lavfiTone(4),
      '-filter_complex',
      '[0:v][1:v]concat=n=2:v=1:a=0[v]',
      '-map',
      '[v]',
      '-map',
      '2:a',
      ...frameTiming(caps, 'passthrough'),
      ...x264,
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
    ]);
    const verdict = await probeSource(clip);
    expect(verdict).toMatchObject({ kind: 'accepted', plan: 'transcode', source: { constantFrameRate: false } });
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    expect(await getVideo(video.id)).toMatchObject({ mediaStatus: 'ready', remuxed: false });
    const output = stored(`videos/${video.id}/video.mp4`);
    const [before, after] = [await frameTimes(clip), await frameTimes(output)];
    expect(before).toHaveLength(90);
    expect(after).toEqual(before);
    expect(await countedFrames(output)).toBe(90);
  });

  it('4:2:2 H.264: re-encoded to 8-bit 4:2:0', async () => {
    const clip = await makeClip('422.mp4', [...lavfiVideo(2), ...lavfiTone(2), ...x264, '-pix_fmt', 'yuv422p', '-c:a', 'aac']);
    const verdict = await probeSource(clip);
    expect(verdict).toMatchObject({ kind: 'accepted', plan: 'transcode', reasons: ['pixel format yuv422p'] });
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    const probe = await ffprobe(stored(`videos/${video.id}/video.mp4`));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', profile: 'High', pix_fmt: 'yuv420p' });
    expect((await getVideo(video.id))!.remuxed).toBe(false);
  });

  it('10-bit HDR (HLG): tone-mapped to 8-bit BT.709', async () => {
    const clip = await makeClip('hlg.mp4', [
      ...lavfiVideo(2),
      ...lavfiTone(2),
      ...x264,
      '-pix_fmt',
      'yuv420p10le',
      '-color_primaries',
      'bt2020',
      '-color_trc',
      'arib-std-b67',
      '-colorspace',
      'bt2020nc',
      '-c:a',
      'aac',
    ]);
    const verdict = await probeSource(clip);
    expect(verdict).toMatchObject({ kind: 'accepted', plan: 'transcode', reasons: ['pixel format yuv420p10le'], source: { hdr: true } });
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    const probe = await ffprobe(stored(`videos/${video.id}/video.mp4`));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', color_transfer: 'bt709', color_primaries: 'bt709' });
  });

  it('a phone clip filmed upright: the rotation is applied to the pixels and no rotation flag is left', async () => {
    const plain = await makeClip('upright-plain.mp4', [...lavfiVideo(2), ...lavfiTone(2), ...x264, '-pix_fmt', 'yuv420p', '-c:a', 'aac']);
    const clip = await makeClip('upright.mp4', ['-i', fileArg(plain), '-c', 'copy', '-metadata:s:v', 'rotate=90']);
    const verdict = await probeSource(clip);
    expect(verdict).toMatchObject({ kind: 'accepted', plan: 'transcode', reasons: ['rotation 90'] });
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    expect(await getVideo(video.id)).toMatchObject({ mediaStatus: 'ready', remuxed: false, width: 240, height: 320 });
    const output = stored(`videos/${video.id}/video.mp4`);
    const probe = await ffprobe(output);
    expect(probe.streams[0]).toMatchObject({ width: 240, height: 320 });
    expect(probe.streams[0]!.side_data_list ?? []).toEqual([]);
    expect(probe.streams[0]!.tags?.rotate).toBeUndefined();
    await expectNoIdentifyingMetadata(output, probe, { encodedHere: true });
    const poster = await ffprobe(stored(`videos/${video.id}/poster.jpg`));
    expect(poster.streams[0]).toMatchObject({ width: 240, height: 320 });
  });
});

describe('the remux in one pass', () => {
  let clip: string;
  let source: SourceInfo;
  beforeAll(async () => {
    // A keyframe every 2 s, as cameras and recorders write them.
    clip = await makeClip('gop.mp4', [...lavfiVideo(10), ...lavfiTone(10), ...x264, '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac']);
    const verdict = await probeSource(clip);
    if (verdict.kind !== 'accepted') throw new Error(verdict.detail);
    source = verdict.source;
  });

  it('knows the keyframe spacing from the probe, without listing every packet', async () => {
    expect(source.keyframeGap).toBeCloseTo(2, 2);
    expect(source.packetCount).toBeGreaterThan(250 + 460);
    // A clip with one keyframe has no spacing to rely on: its storyboard decodes every frame.
    const single = await probeSource(
      await makeClip('one-key.mp4', [...lavfiVideo(3), ...lavfiTone(3), ...x264, '-pix_fmt', 'yuv420p', '-c:a', 'aac']),
    );
    expect(single).toMatchObject({ kind: 'accepted', source: { keyframeGap: Infinity } });
  });

  it('writes the index into room kept before the data, and the slow way when that room is too small', async () => {
    for (const reserve of [undefined, 1000]) {
      const output = path.join(clips, `gop-remux-${reserve ?? 'auto'}.mp4`);
      const retried: number[] = [];
      await remux(source, clip, output, { reserve, onRetry: (r) => retried.push(r) });
      expect(retried).toEqual(reserve ? [reserve] : []);
      const boxes = await topLevelBoxes(output);
      expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      expect(await packets(output)).toBe(await packets(clip));
    }
  });
});

describe('the remux or transcode decision', () => {
  const mp4 = (over: { brand?: string; video?: object; audio?: object | null; format?: string } = {}): ProbeData => ({
    format: { format_name: over.format ?? 'mov,mp4,m4a,3gp,3g2,mj2', duration: '60.0', tags: { major_brand: over.brand ?? 'isom' } },
    streams: [
      {
        index: 0,
        codec_type: 'video',
        codec_name: 'h264',
        pix_fmt: 'yuv420p',
        width: 1920,
        height: 1080,
        sample_aspect_ratio: '1:1',
        r_frame_rate: '30000/1001',
        avg_frame_rate: '30000/1001',
        field_order: 'progressive',
        ...over.video,
      },
      ...(over.audio === null ? [] : [{ index: 1, codec_type: 'audio', codec_name: 'aac', ...over.audio }]),
    ],
  });
  const decide = (data: ProbeData) => {
    const verdict = classify(data);
    return verdict.kind === 'accepted' ? [verdict.plan, ...verdict.reasons] : [verdict.code];
  };

  it('remuxes only an H.264 8-bit 4:2:0 + AAC MP4 at a constant rate, upright', () => {
    expect(decide(mp4())).toEqual(['remux']);
    expect(decide(mp4({ brand: 'qt  ' }))).toEqual(['transcode', 'container mov,mp4,m4a,3gp,3g2,mj2 (qt)']);
    expect(decide(mp4({ format: 'matroska,webm' }))).toEqual(['transcode', 'container matroska,webm (isom)']);
    expect(decide(mp4({ video: { codec_name: 'hevc' } }))).toEqual(['transcode', 'video codec hevc']);
    expect(decide(mp4({ video: { avg_frame_rate: '2400/97' } }))).toEqual(['transcode', 'variable frame rate (30000/1001 vs 2400/97)']);
    expect(decide(mp4({ audio: null }))).toEqual(['transcode', 'no audio track']);
    expect(decide(mp4({ audio: { codec_name: 'pcm_s16le' } }))).toEqual(['transcode', 'audio codec pcm_s16le']);
    expect(decide(mp4({ video: { side_data_list: [{ side_data_type: 'Display Matrix', rotation: -90 }] } }))).toEqual([
      'transcode',
      'rotation 270',
    ]);
    expect(decide(mp4({ video: { field_order: 'tt' } }))).toEqual(['transcode', 'interlaced (tt)']);
    expect(decide(mp4({ video: { sample_aspect_ratio: '4:3' } }))).toEqual(['transcode', 'non-square pixels 4:3']);
  });

  it('refuses what is not a video by its content', () => {
    expect(decide(mp4({ video: { disposition: { attached_pic: 1 } } }))).toEqual(['MEDIA_NO_VIDEO_STREAM']);
    expect(decide(mp4({ format: 'hls' }))).toEqual(['MEDIA_NOT_A_VIDEO']);
    expect(decide({ format: { format_name: 'jpeg_pipe' }, streams: [{ index: 0, codec_type: 'video', codec_name: 'mjpeg' }] })).toEqual([
      'MEDIA_NOT_A_VIDEO',
    ]);
    expect(decide({ format: { format_name: 'srt' }, streams: [{ index: 0, codec_type: 'subtitle' }] })).toEqual(['MEDIA_NOT_A_VIDEO']);
    expect(decide({ ...mp4(), format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } })).toEqual(['MEDIA_TRUNCATED']);
  });
});

describe('refused files', () => {
  async function expectRefused(id: string, source: string, code: keyof typeof ERRORS) {
    const row = (await getVideo(id))!;
    expect(row).toMatchObject({ mediaStatus: 'failed', failureReason: code, sourceKey: null, videoMediaId: null });
    expect(await exists(source)).toBe(false);
    expect(await mediaOf(id)).toEqual([]);
    const notes = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, author.id), eq(notifications.key, 'videoFailed')));
    // The case is named by its surgery and the moment it was added.
    expect(notes.map((n) => n.params)).toContainEqual({
      surgery: { fr: surgery.nameFr, en: surgery.nameEn },
      caseAt: row.createdAt.toISOString(),
      reason: { fr: ERRORS[code].fr, en: ERRORS[code].en },
    });
    expect(events.at(-1)!.payload).toEqual({ videoId: id, mediaStatus: 'failed', progress: 0 });
  }

  it('a JPEG renamed .mp4 is not a video: failed, source deleted, the author told why', async () => {
    const picture = await makeClip('photo.jpg', [...lavfiVideo(1), '-frames:v', '1']);
    const renamed = path.join(clips, 'photo.mp4');
    await copyFile(picture, renamed);
    const video = await uploadedVideo(renamed);
    await processVideo(deps(), video.id);
    await expectRefused(video.id, video.source, 'MEDIA_NOT_A_VIDEO');
    // A second delivery of the job does nothing.
    await processVideo(deps(), video.id);
    expect((await getVideo(video.id))!.failureReason).toBe('MEDIA_NOT_A_VIDEO');
  });

  it('an MP4 cut short (first 60 % of a file written without faststart) is truncated', async () => {
    const clip = await makeClip('cut.mp4', [...lavfiVideo(4), ...lavfiTone(4), ...x264, '-c:a', 'aac']);
    await truncate(clip, Math.floor((await stat(clip)).size * 0.6));
    const video = await uploadedVideo(clip);
    await processVideo(deps(), video.id);
    await expectRefused(video.id, video.source, 'MEDIA_TRUNCATED');
  });

  it('tells apart what is not a video, what has no picture and what is damaged, by content', async () => {
    const text = path.join(clips, 'notes.mp4');
    await writeFile(text, 'Patient Jean Dupont, compte rendu opératoire\n');
    expect(await probeSource(text)).toMatchObject({ kind: 'refused', code: 'MEDIA_NOT_A_VIDEO' });
    const png = await makeClip('still.png', [...lavfiVideo(1), '-frames:v', '1', '-f', 'image2']);
    expect(await probeSource(png)).toMatchObject({ kind: 'refused', code: 'MEDIA_NOT_A_VIDEO' });
    const audio = await makeClip('voice.m4a', [...lavfiTone(2), '-c:a', 'aac']);
    expect(await probeSource(audio)).toMatchObject({ kind: 'refused', code: 'MEDIA_NO_VIDEO_STREAM' });
    // Cut after the index: the header announces 10 s, the frames stop at 6 s.
    const faststart = await makeClip('cut-faststart.mp4', [...lavfiVideo(10), ...x264, '-g', '25', '-movflags', '+faststart']);
    await truncate(faststart, Math.floor((await stat(faststart)).size * 0.6));
    expect(await probeSource(faststart)).toMatchObject({ kind: 'refused', code: 'MEDIA_TRUNCATED' });
    const mkv = await makeClip('cut.mkv', [...lavfiVideo(10), ...x264, '-g', '25']);
    expect(await probeSource(mkv)).toMatchObject({ kind: 'accepted' });
    await truncate(mkv, Math.floor((await stat(mkv)).size * 0.6));
    expect(await probeSource(mkv)).toMatchObject({ kind: 'refused', code: 'MEDIA_TRUNCATED' });
  });
});

describe('the storyboard', () => {
  it('maps thumbnail k to the picture shown at k × interval, to the last one, decoding keyframes only or every frame', async () => {
    // The brightness of each second is its number: 16 + 8 × floor(t); keyframes every 2 s.
    const clip = await makeClip('clock.mp4', [
      '-f',
      'lavfi',
      '-i',
      "color=c=black:size=320x240:rate=10:duration=10,format=gray,geq=lum='16+8*floor(T)'",
      ...x264,
      '-pix_fmt',
      'yuv420p',
      '-g',
      '20',
      '-keyint_min',
      '20',
      '-sc_threshold',
      '0',
    ]);
    // Ticks at 0, 3, 6 and 9 s: every frame decoded shows those seconds; keyframes only, the
    // keyframe at or before each tick (at most 2 s earlier), whether every keyframe is decoded or
    // only those chosen by their time (the keyframe at 4 s serves no tick nor the poster at 1 s).
    const caps = await ffmpegCapabilities();
    const source = { demuxer: 'mov', videoStreamIndex: 0, duration: 10, keyframeGap: 2 };
    if (caps.packetSelection) {
      const chosen = path.join(clips, 'clock-keyframes.mp4');
      await run(chosenKeyframesArgs(source, clip, chosen, 3));
      const times = await ffprobeText(['-v', 'error', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', fileArg(chosen)]);
      expect(times.trim().split('\n').map(Number)).toEqual([0, 2, 6, 8]);
    }
    for (const [mode, seconds] of [
      ['all', [0, 3, 6, 9]],
      ['keyframes', [0, 2, 6, 8]],
      ['chosen', [0, 2, 6, 8]],
    ] as const) {
      const dir = path.join(clips, `board-${mode}`);
      await mkdir(dir);
      const pictures = {
        duration: 10,
        width: 320,
        height: 240,
        interval: 3,
        keyframesOnly: mode !== 'all',
        posterFile: path.join(dir, 'poster.jpg'),
        sheetPattern: path.join(dir, 'sheet-%03d.jpg'),
      };
      if (mode === 'chosen') {
        const verdict = await probeSource(clip);
        if (verdict.kind !== 'accepted') throw new Error('the clock was refused');
        let fellBack = false;
        await remuxPictures(verdict.source, clip, { ...pictures, work: dir }, caps, { onFallback: () => (fellBack = true) });
        expect(fellBack).toBe(false);
      } else await run(posterAndStoryboardArgs(clip, pictures, caps));
      expect((await readdir(dir)).sort()).toEqual(['poster.jpg', 'sheet-001.jpg']);
      // The grey value at the centre of each cell: four thumbnails, then black.
      const raw = path.join(dir, 'sheet.gray');
      await run(['-i', fileArg(path.join(dir, 'sheet-001.jpg')), '-vf', 'format=gray', '-f', 'rawvideo', fileArg(raw)]);
      const pixels = await readFile(raw);
      const cells = Array.from({ length: 5 }, (_, k) => pixels[45 * 1600 + k * 160 + 80]!);
      const expected = [...seconds.map((t) => 16 + 8 * t), 0];
      expect(
        cells.map((v, k) => Math.abs(v - expected[k]!) <= 4),
        `cells ${cells.join()}`,
      ).toEqual([true, true, true, true, true]);
    }
  });

  it('writes one cue per interval over several sheets for a long video', () => {
    const vtt = storyboardVtt(1000.5, 4).split('\n');
    const cues = vtt.filter((l) => l.includes('-->'));
    expect(cues).toHaveLength(251);
    expect(cues[0]).toBe('00:00:00.000 --> 00:00:04.000');
    expect(cues.at(-1)).toBe('00:16:40.000 --> 00:16:40.500');
    expect(vtt[vtt.indexOf('00:06:40.000 --> 00:06:44.000') + 1]).toBe('sheet-002.jpg#xywh=0,0,160,90');
    expect(vtt.at(-2)).toBe('sheet-003.jpg#xywh=0,450,160,90');
    expect(
      storyboardVtt(25, 10)
        .split('\n')
        .filter((l) => l.includes('-->')),
    ).toEqual(['00:00:00.000 --> 00:00:10.000', '00:00:10.000 --> 00:00:20.000', '00:00:20.000 --> 00:00:25.000']);
  });
});

describe('the job around the pipeline', () => {
  let clip: string;
  beforeAll(async () => {
    clip = await makeClip('short.mp4', [...lavfiVideo(2), ...lavfiTone(2), ...x264, '-pix_fmt', 'yuv420p', '-c:a', 'aac']);
  });

  it('returns quietly for a video that no longer exists', async () => {
    await expect(processVideo(deps(), randomUUID())).resolves.toBeUndefined();
  });

  it('leaves nothing behind when the video is deleted while it is processed', async () => {
    const video = await uploadedVideo(clip);
    let deletion: Promise<unknown> | undefined;
    onEmit = () => {
      deletion ??= ctx.database.db.delete(videos).where(eq(videos.id, video.id)).execute();
    };
    try {
      await processVideo(deps(), video.id);
    } finally {
      onEmit = undefined;
    }
    await deletion;
    expect(await getVideo(video.id)).toBeUndefined();
    expect(await mediaOf(video.id)).toEqual([]);
    expect(await storedFiles(video.id)).toEqual([]);
  });

  it('throws on an unexpected ffmpeg failure, keeping the source for the retry, and marks the last try failed', async () => {
    const video = await uploadedVideo(clip);
    const broken = deps({ config: { ...ctx.config, ffmpegPath: path.join(clips, 'no-such-ffmpeg') } });
    await expect(processVideo(broken, video.id)).rejects.toThrow(/no-such-ffmpeg/);
    expect(await getVideo(video.id)).toMatchObject({ mediaStatus: 'processing' });
    expect(await exists(video.source)).toBe(true);
    expect(await readdir(path.join(ctx.dataDir, 'tmp'))).toEqual([]);

    await markProcessingFailed(broken, video.id);
    await markProcessingFailed(broken, video.id);
    expect(await getVideo(video.id)).toMatchObject({ mediaStatus: 'failed', failureReason: 'MEDIA_PROCESSING_FAILED' });
    expect((await getVideo(video.id))!.sourceKey).not.toBeNull();
    expect(await exists(video.source)).toBe(true);
    const notes = await ctx.database.db.select().from(notifications).where(eq(notifications.key, 'videoFailed'));
    const reason = { fr: ERRORS.MEDIA_PROCESSING_FAILED.fr, en: ERRORS.MEDIA_PROCESSING_FAILED.en };
    expect(notes.filter((n) => (n.params.reason as { fr: string }).fr === reason.fr).map((n) => n.params.reason)).toEqual([reason]);

    // The author's retry (the route puts it back to processing) then succeeds.
    await ctx.database.db.update(videos).set({ mediaStatus: 'processing' }).where(eq(videos.id, video.id));
    await processVideo(deps(), video.id);
    expect(await getVideo(video.id)).toMatchObject({ mediaStatus: 'ready', failureReason: null, remuxed: true });
  });
});
