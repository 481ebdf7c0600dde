// @media: runs ffmpeg and ffprobe
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surgeries, videoLadders, videos } from '../src/db/schema.ts';
import { ffprobeText, fileArg, run } from '../src/media-pipeline/ffmpeg.ts';
import { forcedKeyframes, ladderPrefix, makeLadder, planLadder, playlistSegments } from '../src/media-pipeline/ladder.ts';
import { processVideo, type PipelineDeps } from '../src/media-pipeline/process-video.ts';
import { parseStreaming } from '../src/config.ts';
import { signPlaylist } from '../src/modules/media/media.routes.ts';
import { createTestContext, type TestContext } from './harness.ts';

/** The HLS ladder on real ffmpeg (a 6 s 1280×720 clip with B-frames), in the storage of the run (local or S3). */

let ctx: TestContext;
let clips: string;
let author: { id: string; token: string };
let surgeryId: string;
let ready: { id: string; mediaId: string };

function deps(): PipelineDeps {
  return {
    db: ctx.database.db,
    storage: ctx.storage,
    uploads: ctx.services.uploads,
    scratch: ctx.services.scratch,
    mediaService: ctx.services.mediaService,
    notifications: ctx.services.notifications,
    hub: { disconnectSessions() {}, emitToUser() {}, emitToRole() {} },
    config: ctx.config,
    log: pino({ level: 'silent' }),
  };
}

/** A processed video of `clip`, as the pipeline leaves it (ready, its MP4 stored). */
async function readyVideo(clip: string): Promise<{ id: string; mediaId: string }> {
  const key = `uploads/${randomUUID()}`;
  await ctx.storage.put(key, await readFile(clip));
  const [row] = await ctx.database.db
    .insert(videos)
    .values({
      authorId: author.id,
      kind: 'video',
      surgeryId,
      mediaStatus: 'processing',
      sourceKey: key,
      sourceSize: (await stat(clip)).size,
    })
    .returning();
  await processVideo(deps(), row!.id);
  const [video] = await ctx.database.db.select().from(videos).where(eq(videos.id, row!.id));
  expect(video!.mediaStatus).toBe('ready');
  return { id: video!.id, mediaId: video!.videoMediaId! };
}

async function text(key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The first video frame time of each segment of a rung (init + segment probed together). */
async function segmentStarts(prefix: string, rung: string): Promise<number[]> {
  const playlist = playlistSegments(await text(`${prefix}/${rung}/index.m3u8`));
  const dir = await mkdtemp(path.join(tmpdir(), 'sutura-hls-'));
  const init = await readFile(await local(`${prefix}/${rung}/init.mp4`, dir, 'init.mp4'));
  const starts: number[] = [];
  for (const [i, s] of playlist.entries()) {
    const joined = path.join(dir, `joined-${i}.mp4`);
    await writeFile(joined, Buffer.concat([init, await readFile(await local(`${prefix}/${rung}/${s.uri}`, dir, s.uri))]));
    const out = await ffprobeText(
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', fileArg(joined)],
      { bin: ctx.config.ffprobePath },
    );
    const first = out.split('\n').find((l) => l.includes('K'));
    starts.push(Number.parseFloat(first!));
  }
  return starts;
}

async function local(key: string, dir: string, name: string): Promise<string> {
  const file = path.join(dir, name);
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(key)) chunks.push(chunk as Buffer);
  await writeFile(file, Buffer.concat(chunks));
  return file;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of ctx.storage.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  clips = await mkdtemp(path.join(tmpdir(), 'sutura-clips-'));
  const learner = await ctx.createUser('learner');
  author = learner;
  const [first] = await ctx.database.db.select().from(surgeries).limit(1);
  surgeryId = first!.id;
  // B-frames and a keyframe every 25 frames (1 s): the rungs must keep the file's own keyframes.
  const clip = path.join(clips, 'hd.mp4');
  await run(
    [
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=6'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=6'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '2', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      fileArg(clip),
    ],
    { bin: ctx.config.ffmpegPath },
  );
  ready = await readyVideo(clip);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the ladder plan', () => {
  it('never upscales, and sizes portrait rungs by their short side', () => {
    expect(planLadder({ width: 1920, height: 1080 }, [720, 360]).map((p) => [p.name, p.width, p.height])).toEqual([
      ['src', 1920, 1080],
      ['720p', 1280, 720],
      ['360p', 640, 360],
    ]);
    expect(planLadder({ width: 1280, height: 720 }, [720, 360]).map((p) => p.name)).toEqual(['src', '360p']);
    expect(planLadder({ width: 320, height: 240 }, [720, 360]).map((p) => p.name)).toEqual(['src']);
    expect(planLadder({ width: 1080, height: 1920 }, [720]).map((p) => [p.name, p.width, p.height])).toEqual([
      ['src', 1080, 1920],
      ['720p', 720, 1280],
    ]);
  });

  it('reads STREAMING: on, off, or its heights', () => {
    expect(parseStreaming('on')).toEqual({ enabled: true, rungs: [720, 360] });
    expect(parseStreaming('off')).toEqual({ enabled: false });
    expect(parseStreaming('360,1080,720')).toEqual({ enabled: true, rungs: [1080, 720, 360] });
  });

  it('keeps every cut of the segmenter when the keyframe list is too long for one argument', () => {
    // Four hours at a keyframe every 0.5 s.
    const keys = Array.from({ length: 28_800 }, (_, i) => i * 0.5);
    const list = forcedKeyframes(keys);
    expect(list.length).toBeLessThan(128 * 1024);
    const forced = new Set(list.split(',').map(Number));
    for (let t = 2; t < 14_400; t += 2) expect(forced.has(t)).toBe(true);
    // Times are never after their frame (ffmpeg takes the first frame at or after each).
    expect(forcedKeyframes([0, 1.04, 2.0800001])).toBe('0,1.04,2.08');
  });

  it('signs every URI of a playlist, the init segment too', () => {
    const signed = signPlaylist('#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2.0,\nseg-00000.m4s\n#EXT-X-ENDLIST\n', 'u=a&exp=1&sig=x');
    expect(signed).toContain('#EXT-X-MAP:URI="init.mp4?u=a&exp=1&sig=x"');
    expect(signed).toContain('\nseg-00000.m4s?u=a&exp=1&sig=x\n');
  });
});

describe('the ladder job', () => {
  it('makes the stored file and a 360p rung, segments aligned on the same frames', { timeout: 120_000 }, async () => {
    expect(ctx.storage.kind).toBe(process.env.TEST_STORAGE === 's3' ? 's3' : 'local');
    expect(await makeLadder(deps(), ready.id)).toBe('made');
    const [row] = await ctx.database.db.select().from(videoLadders).where(eq(videoLadders.mediaId, ready.mediaId));
    expect(row!.status).toBe('ready');
    expect(row!.rungs.map((r) => r.name)).toEqual(['src', '360p']);
    expect(row!.rungs[1]).toMatchObject({ width: 640, height: 360 });
    expect(row!.rungs[0]!.codecs).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    expect(row!.bytes).toBeGreaterThan(0);
    const prefix = ladderPrefix(ready.id, ready.mediaId);
    const master = await text(`${prefix}/master.m3u8`);
    expect(master).toMatch(/#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,RESOLUTION=640x360,FRAME-RATE=25\.000,CODECS="avc1/);
    expect(master).toContain('RESOLUTION=1280x720');
    // The stored file is segmented as it is: its segments hold its own bytes of video, not a re-encode.
    const src = playlistSegments(await text(`${prefix}/src/index.m3u8`));
    const low = playlistSegments(await text(`${prefix}/360p/index.m3u8`));
    expect(low.map((s) => s.duration)).toEqual(src.map((s) => s.duration));
    expect(src.length).toBe(3);
    const srcStarts = await segmentStarts(prefix, 'src');
    expect(await segmentStarts(prefix, '360p')).toEqual(srcStarts);
    expect(srcStarts[1]! - srcStarts[0]!).toBeCloseTo(2, 2);
  });

  it('does nothing the second time', async () => {
    expect(await makeLadder(deps(), ready.id)).toBe('skipped');
  });

  it('resumes after a worker died: the rungs already stored are not made again', { timeout: 120_000 }, async () => {
    const prefix = ladderPrefix(ready.id, ready.mediaId);
    const [row] = await ctx.database.db.select().from(videoLadders).where(eq(videoLadders.mediaId, ready.mediaId));
    // As a worker killed during the 360p encode leaves it: src stored and recorded, no master.
    await ctx.database.db
      .update(videoLadders)
      .set({ status: 'working', rungs: row!.rungs.slice(0, 1) })
      .where(eq(videoLadders.mediaId, ready.mediaId));
    await ctx.storage.deletePrefix(`${prefix}/360p`);
    await ctx.storage.delete(`${prefix}/master.m3u8`);
    const before = (await keysUnder(`${prefix}/src`)).length;
    const srcInit = await text(`${prefix}/src/init.mp4`);
    const written: string[] = [];
    const storage = ctx.storage;
    const watched = {
      ...deps(),
      storage: { ...storage, putFile: (key: string, file: string) => (written.push(key), storage.putFile(key, file)) } as typeof storage,
    };
    expect(await makeLadder(watched, ready.id)).toBe('made');
    expect(written.some((k) => k.includes('/src/'))).toBe(false);
    expect(written.some((k) => k.includes('/360p/'))).toBe(true);
    expect((await keysUnder(`${prefix}/src`)).length).toBe(before);
    expect(await text(`${prefix}/src/init.mp4`)).toBe(srcInit);
    expect(await text(`${prefix}/master.m3u8`)).toContain('360p/index.m3u8');
  });

  it('is quiet with STREAMING=off', async () => {
    const off = { ...deps(), config: { ...ctx.config, streaming: { enabled: false as const } } };
    expect(await makeLadder(off, ready.id)).toBe('skipped');
  });
});

describe('delivery', () => {
  const hlsUrl = (videoUrl: string) => videoUrl.replace(/\?/, '/hls/master.m3u8?');

  async function videoUrlOf(token: string, id: string): Promise<string> {
    const res = await ctx.inject({ method: 'GET', url: `/v1/videos/${id}`, token });
    expect(res.statusCode).toBe(200);
    return res.json().data.videoUrl as string;
  }

  it('serves the playlists signed for the viewer, compressed, and segments immutable', async () => {
    const masterUrl = hlsUrl(await videoUrlOf(author.token, ready.id));
    const master = await ctx.inject({ method: 'GET', url: masterUrl });
    expect(master.statusCode).toBe(200);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.headers['cache-control']).toBe('private, max-age=10');
    const query = masterUrl.slice(masterUrl.indexOf('?') + 1);
    expect(master.body).toContain(`360p/index.m3u8?${query}`);

    const base = masterUrl.slice(0, masterUrl.indexOf('master.m3u8'));
    const gz = await ctx.inject({ method: 'GET', url: `${base}360p/index.m3u8?${query}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const rung = gunzipSync(gz.rawPayload).toString('utf8');
    expect(rung).toContain(`#EXT-X-MAP:URI="init.mp4?${query}"`);
    const br = await ctx.inject({ method: 'GET', url: `${base}360p/index.m3u8?${query}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(rung);

    const segment = playlistSegments(rung)[0]!.uri;
    const res = await ctx.inject({ method: 'GET', url: `${base}360p/${segment}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    const part = await ctx.inject({ method: 'GET', url: `${base}360p/${segment}`, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(100);
  });

  it('refuses whoever the video does not concern, a tampered or expired link, and any other path', async () => {
    const other = await ctx.createUser('learner');
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${ready.id}`, token: other.token })).statusCode).toBe(404);
    const url = hlsUrl(await videoUrlOf(author.token, ready.id));
    const params = new URL(url, 'http://x').searchParams;
    const at = (file: string, q = params) => url.replace('master.m3u8', file).replace(/\?.*$/, `?${q.toString()}`);
    const tampered = new URLSearchParams(params);
    tampered.set('u', other.id);
    expect((await ctx.inject({ method: 'GET', url: at('master.m3u8', tampered) })).statusCode).toBe(404);
    const later = new URLSearchParams(params);
    later.set('exp', String(Number(params.get('exp')) + 3600));
    expect((await ctx.inject({ method: 'GET', url: at('src/init.mp4', later) })).statusCode).toBe(404);
    for (const file of ['../video.mp4', 'src/../../video.mp4', 'src/other.txt', 'poster.jpg', '720p/index.m3u8']) {
      expect((await ctx.inject({ method: 'GET', url: at(file) })).statusCode, file).toBe(404);
    }
    // Past its expiry, the link that leaked reads nothing.
    ctx.clock.advance((ctx.config.signedUrlTtlSeconds + 5) * 1000);
    try {
      expect((await ctx.inject({ method: 'GET', url: at('src/init.mp4') })).statusCode).toBe(404);
      expect((await ctx.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      ctx.clock.advance(-(ctx.config.signedUrlTtlSeconds + 5) * 1000);
    }
  });

  it('answers 204 for the master playlist until the ladder is ready (the player plays the MP4 meanwhile)', async () => {
    const [row] = await ctx.database.db.select().from(videoLadders).where(eq(videoLadders.mediaId, ready.mediaId));
    await ctx.database.db.update(videoLadders).set({ status: 'working' }).where(eq(videoLadders.mediaId, ready.mediaId));
    try {
      const url = hlsUrl(await videoUrlOf(author.token, ready.id));
      const res = await ctx.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await ctx.inject({ method: 'GET', url: url.replace('master.m3u8', 'src/init.mp4') })).statusCode).toBe(404);
    } finally {
      await ctx.database.db.update(videoLadders).set({ status: row!.status }).where(eq(videoLadders.mediaId, ready.mediaId));
    }
  });
});

describe('operations', () => {
  it('counts the videos left without a ladder, and queues them newest first', async () => {
    const before = await ctx.services.streaming.progress();
    expect(before.enabled).toBe(true);
    const copy = path.join(clips, 'small.mp4');
    await run(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', fileArg(copy)], {
      bin: ctx.config.ffmpegPath,
    });
    const older = await readyVideo(copy);
    const newer = await readyVideo(copy);
    await ctx.database.db
      .update(videos)
      .set({ readyAt: new Date(Date.now() - 86_400_000) })
      .where(eq(videos.id, older.id));
    const after = await ctx.services.streaming.progress();
    expect(after.left).toBe(before.left + 2);
    const sent: string[] = [];
    const { createStreamingService } = await import('../src/modules/streaming/streaming.service.ts');
    const service = createStreamingService({
      db: ctx.database.db,
      enabled: true,
      queue: { send: async (_name, payload) => void sent.push((payload as { videoId: string }).videoId) },
    });
    await service.backfill();
    expect(sent.indexOf(newer.id)).toBeLessThan(sent.indexOf(older.id));
    expect(sent).not.toContain(ready.id);
    // A video without sound gets its ladder too (a video rung only).
    expect(await makeLadder(deps(), newer.id)).toBe('made');
    expect((await ctx.services.streaming.progress()).left).toBe(after.left - 1);
  });

  it('shows an administrator (and copil) how many ladders are left, nobody else', async () => {
    const admin = await ctx.createUser('administrator');
    const res = await ctx.inject({ method: 'GET', url: '/v1/admin/streaming', token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(await ctx.services.streaming.progress());
    expect(res.json().data).toMatchObject({ enabled: true, ready: expect.any(Number), left: expect.any(Number) });
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/streaming', token: author.token })).statusCode).toBe(403);
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/streaming' })).statusCode).toBe(401);
  });

  it('deleting the video deletes its ladder', async () => {
    expect((await keysUnder(`videos/${ready.id}/hls`)).length).toBeGreaterThan(4);
    const res = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${ready.id}`, token: author.token });
    expect(res.statusCode).toBe(200);
    expect(await keysUnder(`videos/${ready.id}`)).toEqual([]);
  });
});
