import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, or } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, media, videoShares, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makeClip, tusMetadata, videoForm } from './video-fixtures.ts';

let ctx: TestContext;
let base: string;
let work: string;
let clip: Buffer;

beforeAll(async () => {
  ctx = await createTestContext({ listen: true });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  work = await mkdtemp(path.join(tmpdir(), 'sutura-deletion-'));
  makeClip(path.join(work, 'clip.mp4'), 3);
  clip = await readFile(path.join(work, 'clip.mp4'));
});
afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

/** Every file under the data folder's media and uploads, relative to it. */
async function dataFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const top of ['media', 'uploads']) {
    const entries = await readdir(path.join(ctx.dataDir, top), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isFile()) out.push(path.relative(ctx.dataDir, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

async function newCase(person: Person, kind: 'video' | 'pictures' = 'video'): Promise<string> {
  const res = await ctx.inject({ method: 'POST', url: '/v1/videos', token: person.token, body: await videoForm(ctx, kind) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

function tus(method: string, url: string, person: Person, headers: Record<string, string>, body?: Buffer) {
  return fetch(new URL(url, base), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${person.token}`, ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}

async function upload(person: Person, videoId: string, bytes: Buffer): Promise<void> {
  const created = await tus('POST', '/v1/uploads/', person, {
    'upload-length': String(clip.length),
    'upload-metadata': tusMetadata({ videoId, filetype: 'video/mp4' }),
  });
  expect(created.status).toBe(201);
  const patched = await tus(
    'PATCH',
    created.headers.get('location')!,
    person,
    { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    bytes,
  );
  expect(patched.status).toBe(204);
}

async function picture(person: Person, body: Record<string, string>): Promise<void> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#17C7A4' } })
    .png()
    .toBuffer();
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
  const res = await fetch(`${base}/v1/common/medias/create/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${person.token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function waitReady(videoId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
    if (row?.mediaStatus === 'ready') return;
    if (row?.mediaStatus === 'failed' || Date.now() > deadline) throw new Error(`video ${videoId}: ${row?.mediaStatus}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('deleting an account', () => {
  it('removes every file and row of what the person uploaded, keeps the others’, and leaves the audit facts without content', async () => {
    const author = await ctx.createUser('learner');
    const colleague = await ctx.createUser('learner');
    // A processed video (file, poster, storyboard) with a docking picture, shared with a colleague.
    const ready = await newCase(author);
    await upload(author, ready, clip);
    await waitReady(ready);
    await picture(author, { purpose: 'picture', videoId: ready });
    const shared = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${ready}/shares`,
      token: author.token,
      body: { email: colleague.email },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    // An unfinished upload, a pictures-only case and an avatar.
    const unfinished = await newCase(author);
    await upload(author, unfinished, clip.subarray(0, 1000)).catch(() => undefined);
    const pictures = await newCase(author, 'pictures');
    await picture(author, { purpose: 'picture', videoId: pictures });
    await picture(author, { purpose: 'avatar' });
    // What the colleague owns stays.
    await picture(colleague, { purpose: 'avatar' });
    const colleagueCase = await newCase(colleague);
    await upload(colleague, colleagueCase, clip.subarray(0, 2000)).catch(() => undefined);

    const before = await dataFiles();
    const authorUploads = (await ctx.database.db.select().from(videos).where(eq(videos.authorId, author.id))).flatMap((v) =>
      v.uploadId ? [v.uploadId] : [],
    );
    const ofAuthor = (f: string) => [author.id, ready, unfinished, pictures, ...authorUploads].some((id) => f.includes(id));
    expect(before.filter(ofAuthor).length).toBeGreaterThanOrEqual(6);
    expect(before.some((f) => f.includes(`videos/${ready}/`) && /poster|storyboard|sheet/i.test(f))).toBe(true);
    expect(before.some((f) => f.startsWith('uploads/') && authorUploads.some((u) => f.includes(u)))).toBe(true);

    const deleted = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token: author.token,
      body: { password: author.password, confirmation: 'DELETE' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const after = await dataFiles();
    expect(after.filter(ofAuthor)).toEqual([]);
    // Nothing else went: the colleague's avatar and unfinished upload are there.
    expect(after).toEqual(before.filter((f) => !ofAuthor(f)));
    expect(after.some((f) => f.includes(colleague.id))).toBe(true);

    const db = ctx.database.db;
    expect(await db.select().from(videos).where(eq(videos.authorId, author.id))).toEqual([]);
    expect(await db.select().from(media).where(eq(media.ownerId, author.id))).toEqual([]);
    expect(await db.select().from(videoShares).where(eq(videoShares.videoId, ready))).toEqual([]);
    // The audit log keeps that things happened, not what they held.
    const facts = await db
      .select()
      .from(auditLog)
      .where(or(eq(auditLog.actorId, author.id), eq(auditLog.entityId, author.id)));
    expect(facts.map((f) => f.action)).toEqual(expect.arrayContaining(['video.created', 'video.shared', 'user.deleted']));
    for (const fact of facts.filter((f) => f.action !== 'user.deleted')) {
      expect(fact.details).toBeNull();
      expect(fact.ip).toBeNull();
    }
    expect(JSON.stringify(facts)).not.toContain(colleague.id);
  });
});
