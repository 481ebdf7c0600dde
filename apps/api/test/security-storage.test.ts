import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, notifications, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { tusMetadata, videoForm } from './video-fixtures.ts';

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createTestContext({
    listen: true,
    workers: false,
    env: {
      MAX_UPLOAD_BYTES: '10000',
      MAX_CASES_WAITING_FOR_FILE: '3',
      MAX_UPLOAD_BYTES_IN_FLIGHT: '3000',
      MAX_STORAGE_BYTES_PER_PERSON: '5000',
      UPLOAD_EXPIRY_HOURS: '168',
    },
  });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

async function newCase(person: Person, kind: 'video' | 'pictures' = 'video') {
  return ctx.inject({ method: 'POST', url: '/v1/videos?langCode=en', token: person.token, body: await videoForm(ctx, kind) });
}

function createUpload(person: Person, videoId: string, length: number) {
  return fetch(`${base}/v1/uploads/?langCode=en`, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${person.token}`,
      'upload-length': String(length),
      'upload-metadata': tusMetadata({ videoId }),
    },
  });
}

async function sendBytes(person: Person, location: string, bytes: number) {
  const res = await fetch(new URL(location, base), {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      authorization: `Bearer ${person.token}`,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(Buffer.alloc(bytes, 7)),
  });
  expect(res.status).toBe(204);
}

/** Pushes a file's modification time into the past. */
async function age(file: string, hours: number) {
  const then = new Date(Date.now() - hours * 3600_000);
  await utimes(file, then, then);
}

describe('per-person storage limits', () => {
  it('refuses a new video case while too many wait for their file; pictures-only cases are not counted', async () => {
    const person = await ctx.createUser('learner');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await newCase(person));
    expect(statuses.map((r) => r.statusCode)).toEqual([201, 201, 201, 409]);
    expect(statuses[3]!.json().error).toEqual({
      code: 'QUOTA_CASES_WAITING',
      message: 'You already have 3 cases waiting for their video: upload or delete one of them first',
    });
    expect((await newCase(person, 'pictures')).statusCode).toBe(201);
    // Deleting a waiting case frees its place.
    await ctx.inject({ method: 'DELETE', url: `/v1/videos/${statuses[0]!.json().data.id}`, token: person.token });
    expect((await newCase(person)).statusCode).toBe(201);
  });

  it('refuses an upload that would pass the bytes in flight, or the storage of the person', async () => {
    const person = await ctx.createUser('learner');
    const [a, b] = [(await newCase(person)).json().data.id, (await newCase(person)).json().data.id] as string[];
    expect((await createUpload(person, a!, 2000)).status).toBe(201);
    const second = await createUpload(person, b!, 2000);
    expect(second.status).toBe(413);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('QUOTA_UPLOADS_IN_FLIGHT');
    expect((await createUpload(person, b!, 1000)).status).toBe(201);

    // Stored bytes count too: 4500 stored + 1000 announced passes 5000.
    const stored = await ctx.createUser('learner');
    await ctx.database.db.insert(media).values({
      ownerId: stored.id,
      kind: 'picture',
      storageKey: `users/${stored.id}/kept.webp`,
      contentType: 'image/webp',
      size: 4500,
    });
    const c = (await newCase(stored)).json().data.id as string;
    const full = await createUpload(stored, c, 1000);
    expect(full.status).toBe(413);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe('QUOTA_STORAGE');
    expect((await createUpload(stored, c, 400)).status).toBe(201);
  });
});

describe('unfinished uploads expire', () => {
  it('tells the author a day before, then removes the upload and tells them again', async () => {
    const person = await ctx.createUser('learner');
    const id = (await newCase(person)).json().data.id as string;
    const created = await createUpload(person, id, 2500);
    await sendBytes(person, created.headers.get('location')!, 1000);
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, id));
    const file = path.join(ctx.dataDir, 'uploads', row!.uploadId!);
    expect(existsSync(file)).toBe(true);

    const notified = async () =>
      (await ctx.database.db.select().from(notifications).where(eq(notifications.userId, person.id))).map((n) => n.key);
    expect(await ctx.services.housekeeping.expireUploads()).toEqual({ warned: 0, expired: 0 });

    ctx.clock.advance(150 * 3600_000);
    await age(file, 150);
    expect((await ctx.services.housekeeping.expireUploads()).warned).toBeGreaterThanOrEqual(1);
    expect(await notified()).toContain('uploadExpiring');
    // Told once, however often the job runs.
    await ctx.services.housekeeping.expireUploads();
    expect((await notified()).filter((k) => k === 'uploadExpiring')).toHaveLength(1);

    ctx.clock.advance(19 * 3600_000);
    await age(file, 169);
    expect((await ctx.services.housekeeping.expireUploads()).expired).toBeGreaterThanOrEqual(1);
    ctx.clock.advance(-169 * 3600_000);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.json`)).toBe(false);
    const [after] = await ctx.database.db.select().from(videos).where(eq(videos.id, id));
    expect(after).toMatchObject({ uploadId: null, mediaStatus: 'uploading' });
    expect(await notified()).toContain('uploadExpired');
    // The case waits for a new upload.
    expect((await createUpload(person, id, 500)).status).toBe(201);
  });
});

describe('the sweep of files no row names', () => {
  it('removes old orphans in media and uploads, and keeps every named or recent file', async () => {
    const person = await ctx.createUser('learner');
    const id = (await newCase(person)).json().data.id as string;
    const created = await createUpload(person, id, 800);
    await sendBytes(person, created.headers.get('location')!, 100);
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, id));
    const live = path.join(ctx.dataDir, 'uploads', row!.uploadId!);
    await age(live, 5);

    const orphanKey = `videos/${randomUUID()}/poster.jpg`;
    await ctx.storage.put(orphanKey, Buffer.from('orphan'));
    const recentKey = `videos/${randomUUID()}/poster.jpg`;
    await ctx.storage.put(recentKey, Buffer.from('being written'));
    const named = `users/${person.id}/avatar-${randomUUID()}.webp`;
    await ctx.storage.put(named, Buffer.from('avatar'));
    await ctx.database.db
      .insert(media)
      .values({ ownerId: person.id, kind: 'avatar', storageKey: named, contentType: 'image/webp', size: 6 });
    await age(path.join(ctx.dataDir, 'media', orphanKey), 2);
    await age(path.join(ctx.dataDir, 'media', named), 2);
    const orphanUpload = path.join(ctx.dataDir, 'uploads', randomUUID());
    await mkdir(path.dirname(orphanUpload), { recursive: true });
    await writeFile(orphanUpload, 'left by a crash');
    await writeFile(`${orphanUpload}.json`, '{}');
    await age(orphanUpload, 3);
    await age(`${orphanUpload}.json`, 3);

    const { removed } = await ctx.services.housekeeping.sweepOrphans();
    // One media object and one upload (its bytes and its state, removed together by the upload store).
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(existsSync(path.join(ctx.dataDir, 'media', orphanKey))).toBe(false);
    expect(existsSync(orphanUpload)).toBe(false);
    expect(existsSync(`${orphanUpload}.json`)).toBe(false);
    expect(existsSync(path.join(ctx.dataDir, 'media', recentKey))).toBe(true);
    expect(existsSync(path.join(ctx.dataDir, 'media', named))).toBe(true);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(`${live}.json`)).toBe(true);
  });

  it('both jobs are scheduled in the job queue', async () => {
    const { rows } = await ctx.database.db.execute<{ name: string }>(sql`select name from pgboss.schedule order by name`);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['storage.sweep', 'uploads.expire']));
  });
});
