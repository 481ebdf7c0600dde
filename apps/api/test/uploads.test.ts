import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage, formatBytes } from '@sutura/domain/errors';
import { notifications, storageObjects, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makeClip, tusMetadata, videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

const MAX = 8 * 1024 * 1024;
let ctx: TestContext;
let base: string;
let work: string;
let clip: Buffer;
let author: Person;
let other: Person;

beforeAll(async () => {
  // Workers off: the video.process job stays in the queue for the test to look at.
  ctx = await createTestContext({ listen: true, workers: false, env: { MAX_UPLOAD_BYTES: String(MAX) } });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  work = await mkdtemp(path.join(tmpdir(), 'sutura-uploads-'));
  makeClip(path.join(work, 'clip.mp4'));
  clip = await readFile(path.join(work, 'clip.mp4'));
  author = await ctx.createUser('learner');
  other = await ctx.createUser('learner');
});
afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The file runs on local disk, and on S3 with TEST_STORAGE=s3; some checks look at the local files themselves. */
const onS3 = process.env.TEST_STORAGE === 's3';
async function stored(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
/** Whether anything of an upload is left in the store (bytes, state, info file). */
async function uploadLeft(uploadId: string): Promise<boolean> {
  return (await ctx.services.uploads.offset(uploadId)) !== undefined || (await ctx.storage.size(`uploads/${uploadId}`)) !== undefined;
}

async function newVideo(person: Person, kind: 'video' | 'pictures' = 'video'): Promise<string> {
  const res = await ctx.inject({ method: 'POST', url: '/v1/videos', token: person.token, body: await videoForm(ctx, kind) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

function tus(
  method: string,
  url: string,
  person: Person | undefined,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<Response> {
  return fetch(new URL(url, base), {
    method,
    headers: { 'tus-resumable': '1.0.0', ...(person ? { authorization: `Bearer ${person.token}` } : {}), ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}

function create(person: Person, videoId: string, length: number, extra: Record<string, string> = {}) {
  return tus('POST', '/v1/uploads/?langCode=en', person, {
    'upload-length': String(length),
    'upload-metadata': tusMetadata({ videoId, filename: 'case-12.mp4', filetype: 'video/mp4' }),
    ...extra,
  });
}

function patch(person: Person, location: string, offset: number, bytes: Buffer) {
  return tus('PATCH', location, person, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, bytes);
}

async function headOffset(person: Person, location: string): Promise<number> {
  const res = await tus('HEAD', location, person);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return Number(res.headers.get('upload-offset'));
}

/** Sends part of a PATCH, then drops the connection: a browser closed in the middle of an upload. */
async function cutPatch(person: Person, location: string, offset: number, bytes: Buffer, sent: number): Promise<void> {
  const req = http.request(new URL(location, base), {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${person.token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      'content-length': String(bytes.length),
    },
  });
  req.on('error', () => {});
  await new Promise<void>((resolve) => req.write(bytes.subarray(0, sent), () => resolve()));
  // Long enough for the server to write what it received.
  await new Promise((r) => setTimeout(r, 300));
  req.destroy();
  await new Promise((r) => setTimeout(r, 100));
}

async function videoRow(id: string) {
  const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, id));
  return row!;
}

describe('creating an upload', () => {
  it('refuses an Upload-Length over MAX_UPLOAD_BYTES with 413 before any byte, in the caller’s language', async () => {
    const id = await newVideo(author);
    const res = await create(author, id, MAX + 1);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      success: false,
      error: {
        code: 'UPLOAD_TOO_BIG',
        message: errorMessage('UPLOAD_TOO_BIG', 'en', { file: 'case-12.mp4', max: formatBytes(MAX, 'en') }),
      },
    });
    const fr = await tus('POST', '/v1/uploads/?langCode=fr', author, {
      'upload-length': String(MAX * 3),
      'upload-metadata': tusMetadata({ videoId: id }),
    });
    expect(fr.status).toBe(413);
    expect((await fr.json()).error.message).toBe('Ce fichier est trop volumineux, la taille maximale est de 8 Mo');
    expect((await videoRow(id)).uploadId).toBeNull();
    const left: string[] = [];
    for await (const upload of ctx.services.uploads.list()) left.push(upload.id);
    expect(left).toEqual([]);
  });

  it('answers OPTIONS with the protocol, its extensions and the largest size', async () => {
    const res = await tus('OPTIONS', '/v1/uploads/', author);
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-max-size')).toBe(String(MAX));
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination');
    expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a creation without a token (401), from a role that does not upload (403), or without its headers (400)', async () => {
    const id = await newVideo(author);
    expect(
      (await tus('POST', '/v1/uploads/', undefined, { 'upload-length': '10', 'upload-metadata': tusMetadata({ videoId: id }) })).status,
    ).toBe(401);
    const editor = await ctx.createUser('editor');
    const forbidden = await create(editor, id, 10);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe('FORBIDDEN');

    const noLength = await tus('POST', '/v1/uploads/', author, { 'upload-metadata': tusMetadata({ videoId: id }) });
    expect(noLength.status).toBe(400);
    expect((await noLength.json()).error.details[0]).toMatchObject({ path: 'Upload-Length', code: 'FIELD_REQUIRED' });
    const deferred = await tus('POST', '/v1/uploads/', author, {
      'upload-defer-length': '1',
      'upload-metadata': tusMetadata({ videoId: id }),
    });
    expect(deferred.status).toBe(400);
    const noVideo = await tus('POST', '/v1/uploads/', author, { 'upload-length': '10' });
    expect(noVideo.status).toBe(400);
    expect((await noVideo.json()).error.details[0]).toMatchObject({ path: 'videoId' });
    expect((await videoRow(id)).uploadId).toBeNull();
  });

  it('refuses an upload for someone else’s video (404), a pictures case (400) and an unknown video (404)', async () => {
    const id = await newVideo(author);
    const res = await create(other, id, clip.length);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
    expect((await videoRow(id)).uploadId).toBeNull();

    const pictures = await newVideo(author, 'pictures');
    const wrongKind = await create(author, pictures, clip.length);
    expect(wrongKind.status).toBe(400);
    expect((await wrongKind.json()).error.details[0]).toMatchObject({ path: 'videoId', code: 'INVALID_VALUE' });

    expect((await create(author, crypto.randomUUID(), clip.length)).status).toBe(404);
  });
});

describe('a resumable upload', () => {
  it('receives the file in chunks, resumes after cuts from the offset HEAD reports, and starts the pipeline', async () => {
    const id = await newVideo(author);
    const created = await create(author, id, clip.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/v1\/uploads\/[0-9a-f-]{36}$/);
    const uploadId = location.split('/').pop()!;
    let row = await videoRow(id);
    expect(row.uploadId).toBe(uploadId);
    expect(row.sourceSize).toBe(clip.length);

    // Nobody else may look at, continue or delete it.
    expect((await tus('HEAD', location, other)).status).toBe(404);
    expect((await patch(other, location, 0, clip.subarray(0, 10))).status).toBe(404);
    expect((await tus('DELETE', location, other)).status).toBe(404);
    expect(await headOffset(author, location)).toBe(0);

    // Three chunks, with the connection dropped in the middle of two of them.
    const third = Math.floor(clip.length / 3);
    const first = await patch(author, location, 0, clip.subarray(0, third));
    expect(first.status).toBe(204);
    expect(Number(first.headers.get('upload-offset'))).toBe(third);
    expect(await headOffset(author, location)).toBe(third);

    await cutPatch(author, location, third, clip.subarray(third, 2 * third), Math.floor(third / 2));
    let offset = await headOffset(author, location);
    expect(offset).toBeGreaterThan(third);
    expect(offset).toBeLessThanOrEqual(third + Math.floor(third / 2));
    const detail = await ctx.inject({ method: 'GET', url: `/v1/videos/${id}`, token: author.token });
    expect(detail.json().data).toMatchObject({ mediaStatus: 'uploading', uploadedBytes: offset, sourceSize: clip.length });

    // A chunk at the wrong offset changes nothing.
    expect((await patch(author, location, offset + 1, clip.subarray(offset + 1, offset + 10))).status).toBe(409);
    expect(await headOffset(author, location)).toBe(offset);

    const second = await patch(author, location, offset, clip.subarray(offset, 2 * third));
    expect(second.status).toBe(204);
    await cutPatch(author, location, 2 * third, clip.subarray(2 * third), 1000);
    offset = await headOffset(author, location);
    expect(offset).toBeGreaterThan(2 * third);
    expect((await videoRow(id)).mediaStatus).toBe('uploading');

    const last = await patch(author, location, offset, clip.subarray(offset));
    expect(last.status).toBe(204);
    expect(Number(last.headers.get('upload-offset'))).toBe(clip.length);

    row = await videoRow(id);
    expect(row).toMatchObject({ mediaStatus: 'processing', sourceKey: `uploads/${uploadId}`, sourceSize: clip.length });
    expect(sha256(await stored(row.sourceKey!))).toBe(sha256(clip));
    if (onS3) return;
    // The original file name is not kept beside the bytes.
    const infoText = await readFile(`${path.join(ctx.config.dataDir, row.sourceKey!)}.json`, 'utf8');
    expect(JSON.parse(infoText)).toEqual({
      id: uploadId,
      size: clip.length,
      videoId: id,
      owner: author.id,
      createdAt: expect.any(String),
      filetype: 'video/mp4',
    });
    expect(infoText).not.toContain('case-12');

    const jobs = await ctx.database.db.execute<{ data: { videoId: string } }>(
      sql`select data from pgboss.job where name = 'video.process' and data->>'videoId' = ${id}`,
    );
    // One job for the video (it also carries the id of the request that finished the upload).
    expect(jobs.rows.map((j) => j.data)).toMatchObject([{ videoId: id }]);
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, author.id));
    expect(told.filter((n) => n.key === 'videoUploaded').map((n) => n.link)).toEqual([`/videos/${id}`]);

    // Finished: HEAD still says so, more bytes or a second file are refused, the finish ran once.
    expect(await headOffset(author, location)).toBe(clip.length);
    expect((await patch(author, location, clip.length, Buffer.alloc(0))).status).toBe(409);
    const again = await create(author, id, clip.length);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('VIDEO_ALREADY_UPLOADED');
    expect((await tus('DELETE', location, author)).status).toBe(409);
    const jobsAfter = await ctx.database.db.execute(
      sql`select id from pgboss.job where name = 'video.process' and data->>'videoId' = ${id}`,
    );
    expect(jobsAfter.rows).toHaveLength(1);
  });

  it('creates and sends the whole file in one request (creation-with-upload)', async () => {
    const id = await newVideo(author);
    const res = await tus(
      'POST',
      '/v1/uploads/',
      author,
      {
        'upload-length': String(clip.length),
        'upload-metadata': tusMetadata({ videoId: id }),
        'content-type': 'application/offset+octet-stream',
      },
      clip,
    );
    expect(res.status).toBe(201);
    expect(Number(res.headers.get('upload-offset'))).toBe(clip.length);
    const row = await videoRow(id);
    expect(row.mediaStatus).toBe('processing');
    expect(sha256(await stored(row.sourceKey!))).toBe(sha256(clip));
  });

  it('gives a Location under the prefix a reverse proxy announces', async () => {
    const id = await newVideo(author);
    const res = await create(author, id, 100, { 'x-forwarded-prefix': '/sutura', 'x-forwarded-host': 'videos.example.org' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/^\/sutura\/v1\/uploads\/[0-9a-f-]{36}$/);
  });

  it('lets the author terminate an open upload, and start another', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    expect((await patch(author, location, 0, clip.subarray(0, 1000))).status).toBe(204);
    const uploadId = location.split('/').pop()!;
    expect(await ctx.services.uploads.offset(uploadId)).toBe(1000);
    expect((await tus('DELETE', location, author)).status).toBe(204);
    expect(await uploadLeft(uploadId)).toBe(false);
    await expect.poll(async () => (await videoRow(id)).uploadId).toBeNull();
    expect((await tus('HEAD', location, author)).status).toBe(404);

    const next = await create(author, id, clip.length);
    expect(next.status).toBe(201);
  });

  it('replaces an abandoned upload, or a file the pipeline refused, with a new one', async () => {
    const id = await newVideo(author);
    const abandoned = (await create(author, id, clip.length)).headers.get('location')!;
    await patch(author, abandoned, 0, clip.subarray(0, 500));
    const abandonedId = abandoned.split('/').pop()!;
    const fresh = (await create(author, id, clip.length)).headers.get('location')!;
    expect(fresh).not.toBe(abandoned);
    expect(await uploadLeft(abandonedId)).toBe(false);
    // The old upload is no longer the video's: 404 even for its author.
    expect((await tus('HEAD', abandoned, author)).status).toBe(404);

    await ctx.database.db
      .update(videos)
      .set({ mediaStatus: 'failed', failureReason: 'MEDIA_NOT_A_VIDEO', sourceKey: null })
      .where(eq(videos.id, id));
    const replaced = await create(author, id, clip.length);
    expect(replaced.status).toBe(201);
    expect(await videoRow(id)).toMatchObject({ mediaStatus: 'uploading', failureReason: null });
  });

  it('keeps the file’s fingerprint and tells every browser of the author where the upload stopped', async () => {
    const id = await newVideo(author);
    const fingerprint = `sha256:${clip.length}:${sha256(clip)}`;
    const metadata = (extra: Record<string, string>) => ({
      'upload-metadata': tusMetadata({ videoId: id, filetype: 'video/mp4', ...extra }),
    });
    // A fingerprint of another size, or not in the expected form, is refused and changes nothing.
    for (const bad of [`sha256:${clip.length + 1}:${sha256(clip)}`, 'anything']) {
      const refused = await create(author, id, clip.length, metadata({ fingerprint: bad }));
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.code).toBe('VALIDATION');
    }
    expect((await videoRow(id)).uploadId).toBeNull();

    const location = (await create(author, id, clip.length, metadata({ fingerprint }))).headers.get('location')!;
    await patch(author, location, 0, clip.subarray(0, 1000));
    expect(await videoRow(id)).toMatchObject({ uploadFingerprint: fingerprint });

    // Another browser of the same person: a new session learns the upload and its offset, and goes on.
    const signIn = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: author.email, password: author.password } });
    const elsewhere = { ...author, token: signIn.json().data.token as string };
    const detail = (await ctx.inject({ method: 'GET', url: `/v1/videos/${id}`, token: elsewhere.token })).json().data;
    expect(detail.upload).toEqual({ id: location.split('/').pop(), offset: 1000, size: clip.length, fingerprint });
    expect(await headOffset(elsewhere, location)).toBe(1000);
    expect((await patch(elsewhere, location, 1000, clip.subarray(1000))).status).toBe(204);
    expect(await videoRow(id)).toMatchObject({ mediaStatus: 'processing' });
    const after = (await ctx.inject({ method: 'GET', url: `/v1/videos/${id}`, token: author.token })).json().data;
    expect(after.upload).toBeNull();
  });

  it('deletes the upload’s bytes and info file with the video', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    await patch(author, location, 0, clip.subarray(0, 2000));
    const uploadId = location.split('/').pop()!;
    expect(await uploadLeft(uploadId)).toBe(true);
    // Counted as an upload in progress with the bytes kept so far (docs/data-lifecycle.md).
    const accounted = () =>
      ctx.database.db
        .select()
        .from(storageObjects)
        .where(eq(storageObjects.key, `uploads/${uploadId}`));
    expect(await accounted()).toEqual([expect.objectContaining({ kind: 'uploads', size: 2000 })]);
    const res = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${id}`, token: author.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await uploadLeft(uploadId)).toBe(false);
    expect(await accounted()).toEqual([]);
    expect((await tus('HEAD', location, author)).status).toBe(404);
  });
});

describe('the tus protocol', () => {
  const uploadFileOf = (location: string) => path.join(path.join(ctx.dataDir, 'uploads'), location.split('/').pop()!);

  it('says Tus-Resumable on every answer, refusals included, and refuses another version with 412', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    for (const res of [await tus('HEAD', location, undefined), await tus('HEAD', location, other), await tus('HEAD', location, author)]) {
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    }
    const unversioned = await fetch(new URL(location, base), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${author.token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(clip.subarray(0, 100)),
    });
    expect(unversioned.status).toBe(412);
    expect(unversioned.headers.get('tus-version')).toBe('1.0.0');
    expect((await tus('DELETE', location, author, { 'tus-resumable': '0.2.2' })).status).toBe(412);
    expect((await tus('HEAD', location, author, { 'tus-resumable': '2.0.0' })).status).toBe(412);
    expect(await headOffset(author, location)).toBe(0);
    // A creation in another version claims nothing.
    const before = (await videoRow(id)).uploadId;
    expect((await create(author, id, clip.length, { 'tus-resumable': '0.2.2' })).status).toBe(412);
    expect((await videoRow(id)).uploadId).toBe(before);
  });

  it('says back the length and the metadata at HEAD, never the file name', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    const res = await tus('HEAD', location, author);
    expect(res.headers.get('upload-length')).toBe(String(clip.length));
    expect(res.headers.get('upload-metadata')).toBe(tusMetadata({ videoId: id, filetype: 'video/mp4' }));
  });

  it('refuses a chunk past Upload-Length (413), of another type (400) or without its offset (403), writing nothing', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    expect((await patch(author, location, 0, Buffer.concat([clip, Buffer.alloc(10)]))).status).toBe(413);
    const wrongType = await tus('PATCH', location, author, { 'upload-offset': '0', 'content-type': 'text/plain' }, clip.subarray(0, 100));
    expect(wrongType.status).toBe(400);
    const noOffset = await tus('PATCH', location, author, { 'content-type': 'application/offset+octet-stream' }, clip.subarray(0, 100));
    expect(noOffset.status).toBe(403);
    expect(
      (await tus('PATCH', location, author, { 'upload-offset': '-1', 'content-type': 'application/offset+octet-stream' })).status,
    ).toBe(400);
    expect(await headOffset(author, location)).toBe(0);
    expect(await ctx.services.uploads.offset(location.split('/').pop()!)).toBe(0);
  });

  // Writes or watches the local upload files.
  it.skipIf(onS3)('stops a PATCH that still streams when a newer request comes for the same upload, keeping its bytes', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    const half = Math.floor(clip.length / 2);
    // A sender that stalls after half of its chunk, its connection left open.
    const stalled = http.request(new URL(location, base), {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${author.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(clip.length),
      },
    });
    stalled.on('error', () => {});
    const answered = new Promise<http.IncomingMessage>((resolve) => stalled.on('response', resolve));
    await new Promise<void>((resolve) => stalled.write(clip.subarray(0, half), () => resolve()));
    await expect.poll(async () => (await stat(uploadFileOf(location))).size).toBe(half);

    expect(await headOffset(author, location)).toBe(half);
    const answer = await answered;
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['upload-offset']).toBe(String(half));
    stalled.destroy();

    expect((await patch(author, location, half, clip.subarray(half))).status).toBe(204);
    expect((await videoRow(id)).mediaStatus).toBe('processing');
    expect(sha256(await stored(`uploads/${location.split('/').pop()}`))).toBe(sha256(clip));
  });

  // Writes or watches the local upload files.
  it.skipIf(onS3)('finishes at HEAD an upload whose bytes are all there but whose finish never ran (a crash)', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    await writeFile(uploadFileOf(location), clip);
    expect((await videoRow(id)).mediaStatus).toBe('uploading');
    expect(await headOffset(author, location)).toBe(clip.length);
    expect(await videoRow(id)).toMatchObject({ mediaStatus: 'processing', sourceKey: `uploads/${location.split('/').pop()}` });
  });

  // Writes or watches the local upload files.
  it.skipIf(onS3)('goes on with an upload begun before the upgrade (the info file of @tus/file-store)', async () => {
    const id = await newVideo(author);
    const location = (await create(author, id, clip.length)).headers.get('location')!;
    const uploadId = location.split('/').pop()!;
    const legacy = {
      id: uploadId,
      size: clip.length,
      offset: 0,
      metadata: { videoId: id, filetype: 'video/mp4' },
      creation_date: new Date().toISOString(),
    };
    await writeFile(`${uploadFileOf(location)}.json`, JSON.stringify(legacy));
    await writeFile(uploadFileOf(location), clip.subarray(0, 1000));
    const head = await tus('HEAD', location, author);
    expect(head.headers.get('upload-offset')).toBe('1000');
    expect(head.headers.get('upload-length')).toBe(String(clip.length));
    expect(head.headers.get('upload-metadata')).toBe(tusMetadata({ videoId: id, filetype: 'video/mp4' }));
    expect((await patch(author, location, 1000, clip.subarray(1000))).status).toBe(204);
    expect((await videoRow(id)).mediaStatus).toBe('processing');
  });
});
