// @database-server: npm run storage:migrate, which moves unfinished uploads into the installation's database as S3 multipart uploads
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../src/db/schema.ts';
import { migrateToS3 } from '../src/storage/migrate.ts';
import type { S3Storage } from '../src/storage/s3.ts';
import { createLocalStorage, type LocalStorage } from '../src/storage/storage.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { startS3Server } from './s3-server.ts';
import { tusMetadata, videoForm } from './video-fixtures.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const PART = 5 * 1024 * 1024;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let ctx: TestContext;
let local: LocalStorage;
let work: string;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext({
    listen: true,
    workers: false,
    s3PartBytes: PART,
    env: { S3_ENDPOINT: s3.settings.endpoint!, S3_BUCKET: s3.settings.bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
  });
  work = await mkdtemp(path.join(tmpdir(), 'sutura-migrate-'));
  local = createLocalStorage(path.join(work, 'media'), { uploadsRoot: path.join(work, 'uploads') });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run storage:migrate (local disk to S3)', () => {
  it('copies and checks every object, resumes after an interruption, does nothing the second time, and moves unfinished uploads so that they resume on S3', async () => {
    const objects = new Map<string, Buffer>([
      ['videos/v1/video.mp4', randomBytes(PART + 1234)],
      ['videos/v1/poster.jpg', randomBytes(2000)],
      ['users/u1/avatar-a.webp', randomBytes(300)],
      ['uploads/finished-source', randomBytes(4000)],
    ]);
    for (const [key, body] of objects) await local.put(key, body);
    // A half-received tus upload of a video waiting for its file.
    const author = await ctx.createUser('learner');
    const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: author.token, body: await videoForm(ctx, 'video') });
    const videoId = created.json().data.id as string;
    const uploadId = randomUUID();
    const file = randomBytes(PART + 777_000);
    const received = PART + 100_000;
    await mkdir(local.uploadsRoot, { recursive: true });
    await writeFile(path.join(local.uploadsRoot, uploadId), file.subarray(0, received));
    await writeFile(
      path.join(local.uploadsRoot, `${uploadId}.json`),
      JSON.stringify({
        id: uploadId,
        size: file.length,
        videoId,
        owner: author.id,
        createdAt: new Date().toISOString(),
        filetype: 'video/mp4',
      }),
    );
    await ctx.database.db.update(videos).set({ uploadId, mediaStatus: 'uploading', sourceSize: file.length }).where(eq(videos.id, videoId));

    const to = ctx.storage as S3Storage;
    const progressFile = path.join(work, 'progress.jsonl');
    // The network fails at the third copy: what was checked before is kept.
    let puts = 0;
    const flaky: S3Storage = {
      ...to,
      async put(key, body) {
        puts += 1;
        if (puts === 3) throw new Error('connection reset');
        return to.put(key, body);
      },
    };
    const first = await migrateToS3({ db: ctx.database.db, from: local, to: flaky, progressFile, partBytes: PART });
    expect(first.failed).toHaveLength(1);
    expect(first.copied + first.uploads).toBe(4);
    expect((await readFile(progressFile, 'utf8')).trim().split('\n')).toHaveLength(first.copied);

    const second = await migrateToS3({ db: ctx.database.db, from: local, to, progressFile, partBytes: PART });
    expect(second.failed).toEqual([]);
    // Only what failed is copied again.
    expect(second.copied + second.uploads).toBe(1);
    expect(second.skipped).toBe(4);
    for (const [key, body] of objects) expect(sha256(await bytesOf(await to.read(key)))).toBe(sha256(body));

    const third = await migrateToS3({ db: ctx.database.db, from: local, to, progressFile, partBytes: PART });
    expect(third).toMatchObject({ copied: 0, uploads: 0, failed: [] });
    expect(third.skipped).toBe(5);
    // Nothing local was removed.
    expect(await local.size('videos/v1/video.mp4')).toBe(PART + 1234);

    // The author's browser asks where its upload stands, on the S3 installation, and finishes it.
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${author.token}` };
    const head = await fetch(`${base}/v1/uploads/${uploadId}`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(received));
    expect(head.headers.get('upload-metadata')).toBe(tusMetadata({ videoId, filetype: 'video/mp4' }));
    const rest = await fetch(`${base}/v1/uploads/${uploadId}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(received), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(file.subarray(received)),
    });
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(file.length));
    expect(sha256(await bytesOf(await to.read(`uploads/${uploadId}`)))).toBe(sha256(file));
  });
});
