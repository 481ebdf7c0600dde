import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupStoredMedia } from '../src/storage/backup.ts';
import { createS3Storage, S3_PART_BYTES, type S3Storage } from '../src/storage/s3.ts';
import { createScratch } from '../src/storage/scratch.ts';
import { createLocalStorage, type Storage } from '../src/storage/storage.ts';
import { startS3Server } from './s3-server.ts';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Awaited<ReturnType<typeof startS3Server>>;
let work: string;
beforeAll(async () => {
  server = await startS3Server();
  work = await mkdtemp(path.join(tmpdir(), 'sutura-storage-'));
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

const stores: [string, () => Storage][] = [
  ['local disk', () => createLocalStorage(path.join(work, 'media'), { uploadsRoot: path.join(work, 'uploads') })],
  ['S3', () => createS3Storage(server.settings)],
];

describe.each(stores)('Storage on %s', (_name, make) => {
  it('puts, reads whole and by range, sizes, lists and deletes', async () => {
    const storage = make();
    const body = randomBytes(100_000);
    expect(await storage.put('videos/a/poster.jpg', body)).toEqual({ size: body.length });
    expect(await storage.size('videos/a/poster.jpg')).toBe(body.length);
    expect(await storage.size('videos/a/none.jpg')).toBeUndefined();
    expect(sha(await bytesOf(await storage.read('videos/a/poster.jpg')))).toBe(sha(body));
    const part = await bytesOf(await storage.read('videos/a/poster.jpg', { start: 1000, end: 1999 }));
    expect(part.equals(body.subarray(1000, 2000))).toBe(true);

    await storage.put('videos/a/sheet-0.jpg', Buffer.from('sheet'));
    await storage.put('videos/ab/video.mp4', Buffer.from('other video'));
    await storage.put('uploads/u1', Buffer.from('upload'));
    const listed = new Map<string, number>();
    for await (const o of storage.list()) listed.set(o.key, o.size);
    expect(listed.get('videos/a/poster.jpg')).toBe(body.length);
    expect(listed.get('uploads/u1')).toBe(6);
    const underA: string[] = [];
    for await (const o of storage.list('videos/a')) underA.push(o.key);
    expect(underA.sort()).toEqual(['videos/a/poster.jpg', 'videos/a/sheet-0.jpg']);
    const uploads: string[] = [];
    for await (const o of storage.list('uploads')) uploads.push(o.key);
    expect(uploads).toEqual(['uploads/u1']);

    // A prefix removes what is under it, not a neighbour whose name starts the same.
    await storage.deletePrefix('videos/a');
    expect(await storage.size('videos/a/poster.jpg')).toBeUndefined();
    expect(await storage.size('videos/a/sheet-0.jpg')).toBeUndefined();
    expect(await storage.size('videos/ab/video.mp4')).toBe(11);
    await storage.delete('videos/ab/video.mp4');
    await storage.delete('uploads/u1');
    expect(await storage.size('videos/ab/video.mp4')).toBeUndefined();
    await expect(storage.read('videos/ab/video.mp4')).rejects.toThrow();
  });

  it('stores a big file in parts, and hands a local copy to ffmpeg', async () => {
    const storage = make();
    const body = randomBytes(S3_PART_BYTES + 3 * 1024 * 1024);
    const file = path.join(work, `big-${storage.kind}.bin`);
    await writeFile(file, body);
    expect(await storage.putFile('videos/b/video.mp4', file)).toEqual({ size: body.length });
    await expect(readFile(file)).rejects.toThrow();
    const scratch = createScratch({ dir: path.join(work, `scratch-${storage.kind}`), maxBytes: 1024 ** 3 });
    let seen = '';
    const hash = await storage.withLocalFile('videos/b/video.mp4', scratch, async (local) => {
      seen = local;
      return sha(await readFile(local));
    });
    expect(hash).toBe(sha(body));
    if (storage.kind === 's3') {
      // The copy is gone once the work ends.
      await expect(readFile(seen)).rejects.toThrow();
      expect(scratch.reserved()).toBe(0);
    }
    await storage.deletePrefix('videos/b');
  });
});

describe('S3 specifics', () => {
  let storage: S3Storage;
  beforeAll(() => {
    storage = createS3Storage(server.settings);
  });

  it('presigns a URL that reads the object with a range and no credentials', async () => {
    const body = randomBytes(5000);
    await storage.put('videos/p/video.mp4', body);
    const url = await storage.presignedUrl('videos/p/video.mp4', { expiresInSeconds: 60, contentType: 'video/mp4' });
    expect(url).toMatch(/X-Amz-Signature=/);
    const res = await fetch(url!, { headers: { range: 'bytes=10-19' } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(10, 20))).toBe(true);
    await storage.delete('videos/p/video.mp4');
  });

  it('assembles S3 multipart parts into one object', async () => {
    const key = 'uploads/m1';
    const id = await storage.multipart.create(key);
    const a = randomBytes(5 * 1024 * 1024);
    const b = randomBytes(1234);
    const parts = [
      { partNumber: 1, etag: await storage.multipart.uploadPart(key, id, 1, a) },
      { partNumber: 2, etag: await storage.multipart.uploadPart(key, id, 2, b) },
    ];
    await storage.multipart.complete(key, id, parts);
    expect(sha(await bytesOf(await storage.read(key)))).toBe(sha(Buffer.concat([a, b])));

    await storage.delete(key);
  });
});

describe('the media part of a backup from S3', () => {
  it('writes every object under its key, unfinished uploads aside', async () => {
    const storage = createS3Storage(server.settings);
    const poster = randomBytes(3000);
    await storage.put('videos/k/poster.jpg', poster);
    await storage.put('users/k/avatar-1.webp', Buffer.from('avatar'));
    await storage.put('uploads/half', Buffer.from('half an upload'));
    const target = path.join(work, 'backup-media');
    const done = await backupStoredMedia(storage, target);
    expect(done.objects).toBeGreaterThanOrEqual(2);
    expect(sha(await readFile(path.join(target, 'videos/k/poster.jpg')))).toBe(sha(poster));
    expect((await readFile(path.join(target, 'users/k/avatar-1.webp'))).toString()).toBe('avatar');
    await expect(readFile(path.join(target, 'uploads/half'))).rejects.toThrow();
  });
});
