// @database-server: two API processes sharing one database, as a cluster does (the upload's state in tus_uploads)
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageObjects, tusUploads, videos } from '../src/db/schema.ts';
import { processVideo } from '../src/media-pipeline/process-video.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { startS3Server } from './s3-server.ts';
import { makeClip, tusMetadata, videoForm } from './video-fixtures.ts';

/**
 * Sutura on an S3-compatible store (a real s3rver): two API processes sharing only the
 * database and the S3 server, an upload begun on one and resumed on the other at several
 * offsets, the pipeline reading its source from S3, media served by range, deletion and sweeps.
 */
type Person = Awaited<ReturnType<TestContext['createUser']>>;

const PART = 5 * 1024 * 1024;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let a: TestContext;
let b: TestContext;
let baseA: string;
let baseB: string;
let work: string;
let author: Person;

beforeAll(async () => {
  s3 = await startS3Server();
  const env = {
    S3_ENDPOINT: s3.settings.endpoint!,
    S3_BUCKET: s3.settings.bucket,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
  };
  a = await createTestContext({ listen: true, workers: false, env, s3PartBytes: PART });
  b = await createTestContext({ listen: true, workers: false, env, s3PartBytes: PART, databaseOf: a });
  baseA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
  baseB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  work = await mkdtemp(path.join(tmpdir(), 'sutura-uploads-s3-'));
  author = await a.createUser('learner');
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await s3?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function newVideo(): Promise<string> {
  const res = await a.inject({ method: 'POST', url: '/v1/videos', token: author.token, body: await videoForm(a, 'video') });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

function tus(base: string, method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) {
  return fetch(new URL(url, base), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${author.token}`, ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}
const create = (base: string, videoId: string, length: number) =>
  tus(base, 'POST', '/v1/uploads/', {
    'upload-length': String(length),
    'upload-metadata': tusMetadata({ videoId, filename: 'case.mp4', filetype: 'video/mp4' }),
  });
const patch = (base: string, location: string, offset: number, bytes: Buffer) =>
  tus(base, 'PATCH', location, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, bytes);
async function headOffset(base: string, location: string): Promise<number> {
  const res = await tus(base, 'HEAD', location);
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

/** Sends `bytes` from `offset` and cuts the connection once `cutAfter` of them are out. */
async function cutPatch(base: string, location: string, offset: number, bytes: Buffer, cutAfter: number): Promise<void> {
  const url = new URL(location, base);
  await new Promise<void>((resolve) => {
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${author.token}`,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(bytes.subarray(0, cutAfter), () => setTimeout(() => req.destroy(), 300));
  });
}

/**
 * The offset once the cut request has finished on its process: another process cannot stop it
 * (a PATCH sent meanwhile would get a 409 and the client would ask again), so it waits for the
 * offset to stop moving.
 */
async function settledOffset(base: string, location: string, atLeast: number): Promise<number> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const offset = await headOffset(base, location);
    if (offset >= atLeast && offset === last) return offset;
    last = offset;
    await new Promise((r) => setTimeout(r, 300));
  }
  return last;
}

describe('tus on S3, through two API processes', () => {
  it('resumes on the other process at several offsets (in a tail, across parts, after a cut) and keeps every byte', async () => {
    const file = randomBytes(2 * PART + 3 * 1024 * 1024 + 12_345);
    const videoId = await newVideo();
    const created = await create(baseA, videoId, file.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;

    // 1 MiB through A: fewer bytes than a part, kept in a tail object.
    expect((await patch(baseA, location, 0, file.subarray(0, 1024 * 1024))).status).toBe(204);
    expect(await headOffset(baseB, location)).toBe(1024 * 1024);
    // Through B, past the first part: the tail goes into part 1.
    const second = 7 * 1024 * 1024;
    const res = await patch(baseB, location, 1024 * 1024, file.subarray(1024 * 1024, second));
    expect(res.status).toBe(204);
    expect(res.headers.get('upload-offset')).toBe(String(second));
    const [state] = await a.database.db.select().from(tusUploads).where(eq(tusUploads.id, id));
    expect(state).toMatchObject({ offset: second, tailSize: second - PART });
    expect(state!.parts.map((p) => p.size)).toEqual([PART]);
    // A stale offset is refused on either process.
    expect((await patch(baseA, location, 1024 * 1024, file.subarray(0, 10))).status).toBe(409);

    // A connection cut on A: what arrived is kept, B says how far.
    await cutPatch(baseA, location, second, file.subarray(second), 4 * 1024 * 1024);
    const afterCut = await settledOffset(baseB, location, second + 1);
    expect(afterCut).toBeGreaterThan(second);
    expect(afterCut).toBeLessThan(file.length);

    // The rest through B, as a tus client does: a 409 (A recorded more meanwhile) sends it to HEAD
    // for the offset, then on from there. The last part is sent and the object assembled.
    let from = afterCut;
    let last = await patch(baseB, location, from, file.subarray(from));
    for (let tries = 0; last.status === 409 && tries < 10; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      from = await headOffset(baseB, location);
      last = await patch(baseB, location, from, file.subarray(from));
    }
    expect(last.status).toBe(204);
    expect(last.headers.get('upload-offset')).toBe(String(file.length));
    expect(await headOffset(baseA, location)).toBe(file.length);
    const [row] = await a.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ mediaStatus: 'processing', sourceKey: `uploads/${id}`, sourceSize: file.length });
    expect(sha256(await bytesOf(await a.storage.read(`uploads/${id}`)))).toBe(sha256(file));
    // No tail object is left behind.
    const keys: string[] = [];
    for await (const o of a.storage.list('uploads')) keys.push(o.key);
    expect(keys.filter((k) => k.startsWith(`uploads/${id}`))).toEqual([`uploads/${id}`]);
  });

  it('processes a source from S3, serves its media by range on either process, and deletes every object with the case', async () => {
    makeClip(path.join(work, 'clip.mp4'));
    const clip = await readFile(path.join(work, 'clip.mp4'));
    const videoId = await newVideo();
    const location = (await create(baseB, videoId, clip.length)).headers.get('location')!;
    expect((await patch(baseB, location, 0, clip)).status).toBe(204);
    await processVideo(
      {
        db: b.database.db,
        storage: b.storage,
        uploads: b.services.uploads,
        scratch: b.services.scratch,
        mediaService: b.services.mediaService,
        notifications: b.services.notifications,
        hub: { disconnectSessions() {}, emitToUser() {}, emitToRole() {} },
        config: b.config,
        log: pino({ level: 'silent' }),
      },
      videoId,
    );
    const [row] = await a.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ mediaStatus: 'ready', sourceKey: null });
    // The upload is gone from S3 and from the state table; the scratch copy too.
    expect(await a.storage.size(`uploads/${location.split('/').pop()}`)).toBeUndefined();
    expect(await a.database.db.select().from(tusUploads).where(eq(tusUploads.videoId, videoId))).toEqual([]);
    expect(b.services.scratch.reserved()).toBe(0);

    const detail = await b.inject({ method: 'GET', url: `/v1/videos/${videoId}`, token: author.token });
    const url = new URL(detail.json().data.videoUrl as string, baseB);
    // Signed on B, read on A with a range.
    const ranged = await fetch(new URL(url.pathname + url.search, baseA), { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toMatch(/^bytes 0-99\/\d+$/);
    const whole = Buffer.from(await (await fetch(new URL(url.pathname + url.search, baseA))).arrayBuffer());
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(0, 100))).toBe(true);
    expect(whole.subarray(4, 8).toString()).toBe('ftyp');

    const objects = async () => {
      const keys: string[] = [];
      for await (const o of a.storage.list(`videos/${videoId}`)) keys.push(o.key);
      return keys;
    };
    expect((await objects()).length).toBeGreaterThan(2);
    // What the storage holds is kept as the pipeline writes: one row per object of the case, of its size.
    const accounted = async () =>
      (await a.database.db.select().from(storageObjects).where(eq(storageObjects.videoId, videoId))).map((r) => r.key).sort();
    expect(await accounted()).toEqual((await objects()).sort());
    const deleted = await a.inject({ method: 'DELETE', url: `/v1/videos/${videoId}`, token: author.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await objects()).toEqual([]);
    expect(await accounted()).toEqual([]);
  });

  it('terminates an upload (state, parts and tail gone), expires an idle one and sweeps objects no row names', async () => {
    const videoId = await newVideo();
    const location = (await create(baseA, videoId, 3 * PART)).headers.get('location')!;
    const id = location.split('/').pop()!;
    await patch(baseA, location, 0, randomBytes(PART + 1000));
    expect((await tus(baseB, 'DELETE', location)).status).toBe(204);
    expect(await a.database.db.select().from(tusUploads).where(eq(tusUploads.id, id))).toEqual([]);
    for await (const o of a.storage.list('uploads')) expect(o.key.startsWith(`uploads/${id}`)).toBe(false);

    // Idle for longer than UPLOAD_EXPIRY_HOURS: removed, its author told.
    const idle = (await create(baseA, videoId, 3 * PART)).headers.get('location')!;
    const idleId = idle.split('/').pop()!;
    await patch(baseA, idle, 0, randomBytes(1000));
    a.clock.advance((a.config.uploadExpiryHours + 1) * 3600_000);
    expect((await a.services.housekeeping.expireUploads()).expired).toBeGreaterThanOrEqual(1);
    expect((await a.database.db.select().from(videos).where(eq(videos.id, videoId)))[0]!.uploadId).toBeNull();
    expect(await a.database.db.select().from(tusUploads).where(eq(tusUploads.id, idleId))).toEqual([]);

    // An object and an upload tail that no row names, old enough: swept; a young one stays.
    await a.storage.put('videos/00000000-0000-4000-8000-000000000000/video.mp4', Buffer.from('orphan'));
    await a.storage.put('uploads/00000000-0000-4000-8000-000000000001.tail/x', Buffer.from('tail'));
    a.clock.advance(2 * 3600_000);
    const swept = await a.services.housekeeping.sweepOrphans();
    expect(swept.removed).toBeGreaterThanOrEqual(2);
    expect(await a.storage.size('videos/00000000-0000-4000-8000-000000000000/video.mp4')).toBeUndefined();
    expect(await a.storage.size('uploads/00000000-0000-4000-8000-000000000001.tail/x')).toBeUndefined();
  });
});
