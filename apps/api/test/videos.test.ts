import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessage } from '@sutura/domain/errors';
import { PICTURE_MAX_SIDE_PX } from '@sutura/domain/limits';
import { videoDetailSchema, videoListResponse, type VideoDetail } from '@sutura/domain/videos';
import { auditLog, media, organs, surgeries, videoPictures, videoShares, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makeClip, tusMetadata, videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let ctx: TestContext;
let work: string;
let clipFile: string;
let author: Person;
let otherLearner: Person;
let colleague: Person;
let editor: Person;
let expert: Person;
let admin: Person;
let copil: Person;

beforeAll(async () => {
  ctx = await createTestContext();
  work = await mkdtemp(path.join(tmpdir(), 'sutura-videos-'));
  clipFile = path.join(work, 'clip.mp4');
  makeClip(clipFile, 2);
  author = await ctx.createUser('learner', { firstName: 'Hélène', lastName: 'Lefèvre' });
  otherLearner = await ctx.createUser('learner');
  colleague = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
  editor = await ctx.createUser('editor');
  expert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
  copil = await ctx.createUser('copil');
});
afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const db = () => ctx.database.db;

async function create(person: Person, overrides: Record<string, unknown> = {}, query = ''): Promise<VideoDetail> {
  const res = await ctx.inject({
    method: 'POST',
    url: `/v1/videos${query}`,
    token: person.token,
    body: { ...(await videoForm(ctx)), ...overrides },
  });
  expect(res.statusCode, res.body).toBe(201);
  return videoDetailSchema.parse(res.json().data);
}

/** What the media pipeline leaves behind: a playable file and a poster, signed URLs and all. */
async function makeReady(id: string, ownerId: string, values: Partial<typeof videos.$inferInsert> = {}) {
  const rows = [];
  for (const [kind, name, type] of [
    ['video', 'video.mp4', 'video/mp4'],
    ['poster', 'poster.jpg', 'image/jpeg'],
  ] as const) {
    const storageKey = `videos/${id}/${name}`;
    const { size } = await ctx.storage.put(storageKey, Buffer.from(`${kind} bytes of ${id}`));
    const [row] = await db().insert(media).values({ ownerId, videoId: id, kind, storageKey, contentType: type, size }).returning();
    rows.push(row!);
  }
  await db()
    .update(videos)
    .set({
      mediaStatus: 'ready',
      videoMediaId: rows[0]!.id,
      posterMediaId: rows[1]!.id,
      duration: 4,
      width: 320,
      height: 240,
      frameRate: 25,
      readyAt: new Date(),
      ...values,
    })
    .where(eq(videos.id, id));
}

/** A picture straight in the tables and storage (the upload itself is tested below). */
async function addPictureRow(id: string, ownerId: string) {
  const storageKey = `videos/${id}/pictures/${randomUUID()}.webp`;
  const { size } = await ctx.storage.put(storageKey, Buffer.from('webp'));
  const [m] = await db()
    .insert(media)
    .values({ ownerId, videoId: id, kind: 'picture', storageKey, contentType: 'image/webp', size })
    .returning();
  const [p] = await db().insert(videoPictures).values({ videoId: id, mediaId: m!.id }).returning();
  return p!;
}

/** A failed video whose source was kept, as the pipeline leaves it after its last try. */
async function makeFailedWithSource(id: string) {
  const uploadId = randomUUID();
  await mkdir(path.join(ctx.dataDir, 'uploads'), { recursive: true });
  await copyFile(clipFile, path.join(path.join(ctx.dataDir, 'uploads'), uploadId));
  await db()
    .update(videos)
    .set({ mediaStatus: 'failed', failureReason: 'MEDIA_PROCESSING_FAILED', uploadId, sourceKey: `uploads/${uploadId}` })
    .where(eq(videos.id, id));
}

async function share(id: string, person: Person) {
  await db().insert(videoShares).values({ videoId: id, userId: person.id });
}

async function row(id: string) {
  const [r] = await db().select().from(videos).where(eq(videos.id, id));
  return r;
}

async function list(person: Person, query: string) {
  const res = await ctx.inject({ method: 'GET', url: `/v1/videos${query}`, token: person.token });
  expect(res.statusCode, res.body).toBe(200);
  return videoListResponse.parse(res.json().data);
}

async function multipart(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

async function uploadPicture(person: Person, videoId: string, bytes: Buffer, purpose = 'picture') {
  const { payload, contentType } = await multipart({ purpose, videoId }, { bytes, name: 'docking.jpg', type: 'image/jpeg' });
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/common/medias/create/upload',
    headers: { authorization: `Bearer ${person.token}`, 'content-type': contentType },
    payload,
  });
}

async function audits(entityId: string) {
  const rows = await db().select().from(auditLog).where(eq(auditLog.entityId, entityId));
  return rows.map((r) => r.action).sort();
}

describe('the life of a case', () => {
  it('creates a case, lists it by tab, shows it, edits it, sends it, and refuses edits after', async () => {
    const form = await videoForm(ctx);
    const created = await create(author, {}, '?langCode=en');
    const [surgery] = await db().select().from(surgeries).where(eq(surgeries.id, form.surgeryId));
    const [organ] = await db().select().from(organs).where(eq(organs.id, form.organId));
    expect(created).toMatchObject({
      kind: 'video',
      status: 'saved',
      mediaStatus: 'uploading',
      authorId: author.id,
      author: { firstName: 'Hélène', lastName: 'Lefèvre' },
      surgery: { id: surgery!.id, name: surgery!.nameEn },
      organ: { id: organ!.id, name: organ!.nameEn, icon: organ!.icon },
      access: 'author',
      favourite: false,
      priority: false,
      videoUrl: null,
      posterUrl: null,
      uploadedBytes: null,
      sourceSize: null,
      pictures: [],
      shares: [],
      nasaTlxRawScore: 42.5,
    });
    expect(created.keySteps.map((s) => s.id)).toEqual(form.keyStepIds);
    const { kind: _kind, ...fields } = form;
    expect(created.fields).toEqual(fields);

    const inFrench = await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}?langCode=fr`, token: author.token });
    expect(inFrench.json().data.surgery.name).toBe(surgery!.nameFr);

    expect((await list(author, '?filter=tab==mine')).data.map((v) => v.id)).toContain(created.id);
    expect((await list(author, '?filter=tab==toAnalyze')).data.map((v) => v.id)).not.toContain(created.id);

    const edited = await ctx.inject({
      method: 'PUT',
      url: `/v1/videos/${created.id}`,
      token: author.token,
      body: { equipmentBrand: 'Medtronic', surgicalHistory: '', complication: true },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.fields).toMatchObject({ equipmentBrand: 'Medtronic', complication: true });
    expect(edited.json().data.fields).not.toHaveProperty('surgicalHistory');

    // Not before its file is processed.
    const early = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/send?langCode=en`,
      token: author.token,
      body: { priority: true },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toEqual({ code: 'VIDEO_NOT_READY', message: errorMessage('VIDEO_NOT_READY', 'en') });

    await makeReady(created.id, author.id);
    const sent = await ctx.inject({ method: 'POST', url: `/v1/videos/${created.id}/send`, token: author.token, body: { priority: true } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ status: 'pending_preparation', priority: true });
    expect(Date.parse(sent.json().data.sentAt)).toBeGreaterThan(Date.now() - 60_000);

    expect((await list(author, '?filter=tab==mine')).data.map((v) => v.id)).not.toContain(created.id);
    expect((await list(author, '?filter=tab==toAnalyze')).data.map((v) => v.id)).toContain(created.id);

    const late = await ctx.inject({
      method: 'PUT',
      url: `/v1/videos/${created.id}?langCode=en`,
      token: author.token,
      body: { equipmentBrand: 'Other' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toEqual({ code: 'VIDEO_NOT_EDITABLE', message: errorMessage('VIDEO_NOT_EDITABLE', 'en') });
    expect((await row(created.id))!.equipmentBrand).toBe('Medtronic');
    const twice = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/send`,
      token: author.token,
      body: { priority: false },
    });
    expect(twice.statusCode).toBe(409);
    expect((await row(created.id))!.priority).toBe(true);

    await db().update(videos).set({ status: 'analysed' }).where(eq(videos.id, created.id));
    expect((await list(author, '?filter=tab==analysed')).data.map((v) => v.id)).toEqual([created.id]);
    expect(await audits(created.id)).toEqual(['video.created', 'video.sent', 'video.updated']);
  });

  it('creates a pictures-only case ready at once', async () => {
    const created = await create(author, { kind: 'pictures' });
    expect(created).toMatchObject({ kind: 'pictures', mediaStatus: 'ready', status: 'saved' });
  });

  it('refuses a case with a surgery, organ or step that does not exist, and from anyone but a learner', async () => {
    const form = await videoForm(ctx);
    const [otherSurgery] = await db()
      .select()
      .from(surgeries)
      .where(sql`${surgeries.id} <> ${form.surgeryId}`)
      .limit(1);
    const bad = await ctx.inject({
      method: 'POST',
      url: '/v1/videos',
      token: author.token,
      body: { ...form, surgeryId: otherSurgery!.id, organId: randomUUID() },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'organId', code: 'INVALID_VALUE' }),
        expect.objectContaining({ path: 'keyStepIds', code: 'INVALID_VALUE' }),
      ]),
    );
    const missing = await ctx.inject({ method: 'POST', url: '/v1/videos', token: author.token, body: { kind: 'video' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.length).toBeGreaterThan(5);
    for (const person of [editor, expert, admin, copil]) {
      const res = await ctx.inject({ method: 'POST', url: '/v1/videos', token: person.token, body: form });
      expect(res.statusCode).toBe(403);
    }
    const count = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(videos)
      .where(eq(videos.authorId, editor.id));
    expect(count[0]!.n).toBe(0);
  });

  it('marks a case as a favourite', async () => {
    const created = await create(author);
    const res = await ctx.inject({
      method: 'PUT',
      url: `/v1/videos/${created.id}/favourite`,
      token: author.token,
      body: { favourite: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.favourite).toBe(true);
    expect((await list(author, '?filter=favourite==true&limit=100')).data.map((v) => v.id)).toContain(created.id);
    const off = await ctx.inject({
      method: 'PUT',
      url: `/v1/videos/${created.id}/favourite`,
      token: author.token,
      body: { favourite: false },
    });
    expect(off.json().data.favourite).toBe(false);
  });
});

describe('sharing a case', () => {
  it('gives a colleague read-only access, tells them, and takes it back', async () => {
    const created = await create(author);
    await makeReady(created.id, author.id);
    const shared = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/shares`,
      token: author.token,
      body: { email: colleague.email.toUpperCase() },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().data.shares).toEqual([
      expect.objectContaining({ userId: colleague.id, email: colleague.email, firstName: 'Test', lastName: 'learner' }),
    ]);
    // Sharing again changes nothing and tells nobody twice.
    await ctx.inject({ method: 'POST', url: `/v1/videos/${created.id}/shares`, token: author.token, body: { email: colleague.email } });
    const told = await ctx.services.notifications.list(colleague.id, 'en', 1, 20);
    const notes = told.data.filter((n) => n.key === 'videoShared');
    expect(notes).toHaveLength(1);
    const [surgery] = await db().select().from(surgeries).where(eq(surgeries.id, created.surgery!.id));
    expect(notes[0]).toMatchObject({
      link: `/videos/${created.id}/shared`,
      // The case is named by its surgery and its day.
      content: expect.stringMatching(
        new RegExp(
          `^Hélène Lefèvre shared a video of ${surgery!.nameEn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d{1,2} [A-Z][a-z]+ \\d{4}\\) with you\\.$`,
        ),
      ),
    });

    const tab = await list(colleague, '?filter=tab==shared');
    expect(tab.data).toEqual([expect.objectContaining({ id: created.id, access: 'shared' })]);
    expect((await list(colleague, '')).data).toEqual([]);

    const seen = await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}`, token: colleague.token });
    expect(seen.statusCode, seen.body).toBe(200);
    const detail = videoDetailSchema.parse(seen.json().data);
    expect(detail).toMatchObject({ access: 'shared', shares: [] });
    // The signed URLs are the colleague's own, and serve ranges.
    expect(detail.videoUrl).toContain(`u=${colleague.id}`);
    const played = await ctx.app.inject({ method: 'GET', url: detail.videoUrl!, headers: { range: 'bytes=0-4' } });
    expect(played.statusCode).toBe(206);
    expect(played.body).toBe('video');

    for (const [method, url, body] of [
      ['PUT', `/v1/videos/${created.id}`, { equipmentBrand: 'Hack' }],
      ['DELETE', `/v1/videos/${created.id}`, undefined],
      ['POST', `/v1/videos/${created.id}/send`, { priority: true }],
      ['PUT', `/v1/videos/${created.id}/favourite`, { favourite: true }],
      ['POST', `/v1/videos/${created.id}/shares`, { email: otherLearner.email }],
      ['DELETE', `/v1/videos/${created.id}/shares/${colleague.id}`, undefined],
    ] as const) {
      const res = await ctx.inject({ method, url, token: colleague.token, body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect(await row(created.id)).toMatchObject({ status: 'saved', favourite: false, equipmentBrand: 'Intuitive' });

    const self = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/shares?langCode=en`,
      token: author.token,
      body: { email: author.email },
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toEqual({ code: 'SHARE_SELF', message: errorMessage('SHARE_SELF', 'en') });
    const nobody = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/shares`,
      token: author.token,
      body: { email: 'nobody@example.org' },
    });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().error.code).toBe('SHARE_USER_NOT_FOUND');
    const badEmail = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${created.id}/shares`,
      token: author.token,
      body: { email: 'not an email' },
    });
    expect(badEmail.statusCode).toBe(400);

    const revoked = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}/shares/${colleague.id}`, token: author.token });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.shares).toEqual([]);
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}`, token: colleague.token })).statusCode).toBe(404);
    expect((await list(colleague, '?filter=tab==shared')).data).toEqual([]);
    expect(
      (await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}/shares/${colleague.id}`, token: author.token })).statusCode,
    ).toBe(404);
    expect(await audits(created.id)).toEqual(['video.created', 'video.share_revoked', 'video.shared']);
  });
});

describe('deleting a case', () => {
  it('removes every file under the video’s prefix, its media rows and the row', async () => {
    const created = await create(author);
    await makeReady(created.id, author.id);
    const picture = await addPictureRow(created.id, author.id);
    await ctx.storage.put(`videos/${created.id}/storyboard/sheet-001.jpg`, Buffer.from('jpg'));
    const prefix = path.join(ctx.dataDir, 'media', 'videos', created.id);
    expect(existsSync(prefix)).toBe(true);

    const res = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}`, token: author.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: {} });
    expect(existsSync(prefix)).toBe(false);
    expect(await row(created.id)).toBeUndefined();
    expect(await db().select().from(media).where(eq(media.videoId, created.id))).toEqual([]);
    expect(await db().select().from(videoPictures).where(eq(videoPictures.id, picture.id))).toEqual([]);
    expect((await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}`, token: author.token })).statusCode).toBe(404);
    expect(await audits(created.id)).toEqual(['video.created', 'video.deleted']);
  });

  it('lets an administrator delete someone’s case', async () => {
    const created = await create(author);
    const res = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}`, token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await row(created.id)).toBeUndefined();
  });
});

describe('pictures of a case', () => {
  it('decodes, shrinks and strips a picture, lists it in the detail, and deletes it', async () => {
    const created = await create(author, { kind: 'pictures' });
    const photo = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#1D69EE' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Artist: 'Patient Jean Dupont' } } })
      .toBuffer();
    const res = await uploadPicture(author, created.id, photo);
    expect(res.statusCode, res.body).toBe(200);
    const uploaded = res.json().data as { id: string; url: string; kind: string };
    expect(uploaded.kind).toBe('picture');
    const [stored] = await db().select().from(media).where(eq(media.id, uploaded.id));
    expect(stored).toMatchObject({
      videoId: created.id,
      width: PICTURE_MAX_SIDE_PX,
      height: PICTURE_MAX_SIDE_PX / 2,
      contentType: 'image/webp',
    });
    expect(stored!.storageKey).toBe(`videos/${created.id}/pictures/${uploaded.id}.webp`);
    const served = await ctx.app.inject({ method: 'GET', url: uploaded.url });
    expect(served.statusCode).toBe(200);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: PICTURE_MAX_SIDE_PX });
    expect(meta.exif).toBeUndefined();

    const detail = videoDetailSchema.parse(
      (await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}`, token: author.token })).json().data,
    );
    expect(detail.pictureCount).toBe(1);
    expect(detail.pictures).toEqual([expect.objectContaining({ mediaId: uploaded.id, width: PICTURE_MAX_SIDE_PX })]);

    // By the id in the detail, or by the media id the upload answered.
    const second = (await uploadPicture(author, created.id, photo)).json().data.id as string;
    const byPicture = await ctx.inject({
      method: 'DELETE',
      url: `/v1/videos/${created.id}/pictures/${detail.pictures[0]!.id}`,
      token: author.token,
    });
    expect(byPicture.statusCode, byPicture.body).toBe(200);
    expect(byPicture.json().data.pictures.map((p: { mediaId: string }) => p.mediaId)).toEqual([second]);
    expect(await ctx.storage.size(stored!.storageKey)).toBeUndefined();
    const byMedia = await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}/pictures/${second}`, token: author.token });
    expect(byMedia.json().data.pictures).toEqual([]);
    expect(
      (await ctx.inject({ method: 'DELETE', url: `/v1/videos/${created.id}/pictures/${second}`, token: author.token })).statusCode,
    ).toBe(404);
  });

  it('accepts pictures up to 25 MB, while avatars keep their own limit', async () => {
    const created = await create(author, { kind: 'pictures' });
    // Noise does not compress: a PNG of about 20 MB.
    const side = 2600;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i += 4) noise.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, Math.min(i, noise.length - 4));
    const big = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(ctx.config.avatarMaxBytes);
    const picture = await uploadPicture(author, created.id, big);
    expect(picture.statusCode, picture.body).toBe(200);
    const avatar = await uploadPicture(author, created.id, big, 'avatar');
    expect(avatar.statusCode).toBe(413);
    expect(avatar.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const tooBig = await uploadPicture(author, created.id, Buffer.concat([big, Buffer.alloc(6 * 1024 * 1024)]));
    expect(tooBig.statusCode).toBe(413);
  });

  it('refuses a file that is not an image, a case not saved, and anyone but the author', async () => {
    const created = await create(author);
    const notImage = await uploadPicture(author, created.id, Buffer.from('%PDF-1.7 not an image'));
    expect(notImage.statusCode).toBe(415);
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#FF5D73' } })
      .jpeg()
      .toBuffer();
    for (const person of [otherLearner, editor, admin]) {
      const res = await uploadPicture(person, created.id, photo);
      expect(res.statusCode).toBe(404);
    }
    const noVideo = await uploadPicture(author, 'not-a-uuid', photo);
    expect(noVideo.statusCode).toBe(400);
    await makeReady(created.id, author.id, { status: 'pending_preparation' });
    const sent = await uploadPicture(author, created.id, photo);
    expect(sent.statusCode).toBe(409);
    expect(sent.json().error.code).toBe('VIDEO_NOT_EDITABLE');
    expect(
      await db()
        .select()
        .from(media)
        .where(and(eq(media.videoId, created.id), eq(media.kind, 'picture'))),
    ).toEqual([]);
  });
});

describe('retrying a failed processing', () => {
  it('queues the pipeline again when the source was kept, and explains why not otherwise', async () => {
    const created = await create(author);
    const early = await ctx.inject({ method: 'POST', url: `/v1/videos/${created.id}/retry`, token: author.token, body: {} });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('VIDEO_NOT_READY');

    await db().update(videos).set({ mediaStatus: 'failed', failureReason: 'MEDIA_NOT_A_VIDEO' }).where(eq(videos.id, created.id));
    const refused = await ctx.inject({ method: 'GET', url: `/v1/videos/${created.id}?langCode=en`, token: author.token });
    expect(refused.json().data).toMatchObject({
      failureReason: 'MEDIA_NOT_A_VIDEO',
      failureMessage: errorMessage('MEDIA_NOT_A_VIDEO', 'en'),
    });
    const pointless = await ctx.inject({ method: 'POST', url: `/v1/videos/${created.id}/retry`, token: author.token });
    expect(pointless.statusCode).toBe(422);
    expect(pointless.json().error.code).toBe('MEDIA_NOT_A_VIDEO');

    await makeFailedWithSource(created.id);
    const res = await ctx.inject({ method: 'POST', url: `/v1/videos/${created.id}/retry`, token: author.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ mediaStatus: 'processing', failureReason: null, failureMessage: null });
    expect(await audits(created.id)).toEqual(['video.created', 'video.retry']);
    const jobs = await db().execute(sql`select id from pgboss.job where name = 'video.process' and data->>'videoId' = ${created.id}`);
    expect(jobs.rows).toHaveLength(1);
  });
});

describe('who may do what', () => {
  type Who = 'author' | 'otherLearner' | 'colleague' | 'editor' | 'expert' | 'admin' | 'copil';
  const everyone: Who[] = ['author', 'otherLearner', 'colleague', 'editor', 'expert', 'admin', 'copil'];
  const person = (who: Who) => ({ author, otherLearner, colleague, editor, expert, admin, copil })[who];

  interface Case {
    id: string;
    pictureId: string;
  }
  /** Every route of a video: the call, and who it lets through (everyone else: 404). */
  const routes: {
    name: string;
    allowed: Who[];
    ok?: number;
    prepare?: (c: Case) => Promise<void>;
    call: (c: Case, p: Person) => Promise<{ statusCode: number; body: string }>;
  }[] = [
    {
      name: 'GET /videos/:id',
      allowed: ['author', 'colleague', 'admin'],
      call: (c, p) => ctx.inject({ method: 'GET', url: `/v1/videos/${c.id}`, token: p.token }),
    },
    {
      name: 'PUT /videos/:id',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'PUT', url: `/v1/videos/${c.id}`, token: p.token, body: { equipmentBrand: 'Changed' } }),
    },
    {
      name: 'DELETE /videos/:id',
      allowed: ['author', 'admin'],
      call: (c, p) => ctx.inject({ method: 'DELETE', url: `/v1/videos/${c.id}`, token: p.token }),
    },
    {
      name: 'POST /videos/:id/send',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'POST', url: `/v1/videos/${c.id}/send`, token: p.token, body: { priority: false } }),
    },
    {
      name: 'PUT /videos/:id/favourite',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'PUT', url: `/v1/videos/${c.id}/favourite`, token: p.token, body: { favourite: true } }),
    },
    {
      name: 'POST /videos/:id/shares',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'POST', url: `/v1/videos/${c.id}/shares`, token: p.token, body: { email: expert.email } }),
    },
    {
      name: 'DELETE /videos/:id/shares/:userId',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'DELETE', url: `/v1/videos/${c.id}/shares/${colleague.id}`, token: p.token }),
    },
    {
      name: 'POST /videos/:id/retry',
      allowed: ['author'],
      prepare: (c) => makeFailedWithSource(c.id),
      call: (c, p) => ctx.inject({ method: 'POST', url: `/v1/videos/${c.id}/retry`, token: p.token }),
    },
    {
      name: 'DELETE /videos/:id/pictures/:pictureId',
      allowed: ['author'],
      call: (c, p) => ctx.inject({ method: 'DELETE', url: `/v1/videos/${c.id}/pictures/${c.pictureId}`, token: p.token }),
    },
    {
      name: 'POST /common/medias/create/upload (picture)',
      allowed: ['author'],
      call: async (c, p) =>
        uploadPicture(
          p,
          c.id,
          await sharp({ create: { width: 20, height: 20, channels: 3, background: '#17C7A4' } })
            .png()
            .toBuffer(),
        ),
    },
  ];

  for (const route of routes) {
    it(`${route.name}: ${route.allowed.join(', ')}; 404 for everyone else`, async () => {
      for (const who of everyone) {
        const created = await create(author);
        await makeReady(created.id, author.id);
        await share(created.id, colleague);
        const picture = await addPictureRow(created.id, author.id);
        const c = { id: created.id, pictureId: picture.id };
        await route.prepare?.(c);
        const before = await row(created.id);
        const res = await route.call(c, person(who));
        if (route.allowed.includes(who)) {
          expect(res.statusCode, `${route.name} as ${who}: ${res.body}`).toBe(200);
        } else {
          expect(res.statusCode, `${route.name} as ${who}: ${res.body}`).toBe(404);
          expect(JSON.parse(res.body).error.code).toBe('NOT_FOUND');
          // Refused: nothing changed.
          expect(await row(created.id), `${route.name} as ${who}`).toEqual(before);
          expect(await db().select().from(videoShares).where(eq(videoShares.videoId, created.id))).toHaveLength(1);
          expect(await db().select().from(videoPictures).where(eq(videoPictures.videoId, created.id))).toHaveLength(1);
        }
      }
    });
  }

  it('POST /uploads/ (tus creation): the author; 404 for another learner, a colleague or an administrator, 403 for other roles', async () => {
    const expected: Record<Who, number> = {
      author: 201,
      otherLearner: 404,
      colleague: 404,
      editor: 403,
      expert: 403,
      // Administrators upload the videos of their best cases, never a learner's file.
      admin: 404,
      copil: 403,
    };
    for (const who of everyone) {
      const created = await create(author);
      await share(created.id, colleague);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/uploads/',
        headers: {
          authorization: `Bearer ${person(who).token}`,
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': tusMetadata({ videoId: created.id }),
        },
      });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(expected[who]);
      expect(!!(await row(created.id))!.uploadId, who).toBe(who === 'author');
    }
  });

  it('POST /videos: learners only; GET /videos: everyone but copil', async () => {
    const form = await videoForm(ctx);
    for (const who of everyone) {
      const res = await ctx.inject({ method: 'POST', url: '/v1/videos', token: person(who).token, body: form });
      expect(res.statusCode, who).toBe(['author', 'otherLearner', 'colleague'].includes(who) ? 201 : 403);
      const listed = await ctx.inject({ method: 'GET', url: '/v1/videos', token: person(who).token });
      expect(listed.statusCode, who).toBe(who === 'copil' ? 403 : 200);
    }
  });

  it('answers 404 for a video that does not exist, to its would-be author too', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as Method[]) {
      const res = await ctx.inject({
        method,
        url: `/v1/videos/${randomUUID()}`,
        token: author.token,
        body: method === 'PUT' ? {} : undefined,
      });
      expect(res.statusCode, method).toBe(404);
    }
  });
});

describe('the list', () => {
  let lister: Person;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    lister = await ctx.createUser('learner');
    const all = await db().select().from(surgeries);
    const withOrgan = all.filter((s) => s.organId);
    // Two surgeries whose names sort differently in French and in English, when the vocabulary has them.
    const [a, b] = withOrgan;
    const specs = [
      {
        key: 'old',
        surgery: a!,
        created: '2025-03-10T10:00:00Z',
        duration: 300,
        favourite: true,
        kind: 'video',
        status: 'saved',
        ready: true,
      },
      {
        key: 'mid',
        surgery: b!,
        created: '2026-01-15T10:00:00Z',
        duration: 100,
        favourite: false,
        kind: 'video',
        status: 'pending_preparation',
        ready: true,
      },
      {
        key: 'new',
        surgery: a!,
        created: '2026-02-20T23:30:00Z',
        duration: null,
        favourite: false,
        kind: 'pictures',
        status: 'saved',
        ready: false,
      },
    ];
    for (const s of specs) {
      const created = await create(lister, { surgeryId: s.surgery.id, organId: s.surgery.organId, keyStepIds: [], kind: s.kind });
      ids[s.key] = created.id;
      if (s.ready) await makeReady(created.id, lister.id, { duration: s.duration });
      await db()
        .update(videos)
        .set({ createdAt: new Date(s.created), updatedAt: new Date(s.created), favourite: s.favourite, status: s.status })
        .where(eq(videos.id, created.id));
    }
  });

  const idsOf = (l: { data: { id: string }[] }) => l.data.map((v) => v.id);

  it('sorts newest first by default, and by duration, update or surgery name on request', async () => {
    expect(idsOf(await list(lister, ''))).toEqual([ids.new, ids.mid, ids.old]);
    expect(idsOf(await list(lister, '?sort=createdAt'))).toEqual([ids.old, ids.mid, ids.new]);
    expect(idsOf(await list(lister, '?sort=duration'))).toEqual([ids.mid, ids.old, ids.new]);
    expect(idsOf(await list(lister, '?sort=-duration'))).toEqual([ids.old, ids.mid, ids.new]);
    expect(idsOf(await list(lister, '?sort=-updatedAt'))).toEqual([ids.new, ids.mid, ids.old]);
    for (const lang of ['fr', 'en'] as const) {
      const sorted = await list(lister, `?sort=surgery,-createdAt&langCode=${lang}`);
      const names = sorted.data.map((v) => v.surgery!.name);
      expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y, lang, { sensitivity: 'base' }) || 0));
    }
  });

  it('pages with page and limit, and counts the total', async () => {
    const first = await list(lister, '?limit=2');
    expect(first).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(idsOf(first)).toEqual([ids.new, ids.mid]);
    const second = await list(lister, '?limit=2&page=2');
    expect(idsOf(second)).toEqual([ids.old]);
    expect((await list(lister, '?limit=2&page=3')).data).toEqual([]);
  });

  it('filters by surgery, organ, status, media status, favourite, kind and dates', async () => {
    const [old] = await db().select().from(videos).where(eq(videos.id, ids.old!));
    const [mid] = await db().select().from(videos).where(eq(videos.id, ids.mid!));
    expect(idsOf(await list(lister, `?filter=surgeryId==${mid!.surgeryId}`))).toEqual([ids.mid]);
    expect(idsOf(await list(lister, `?filter=organId==${old!.organId}__kind==video`))).toContain(ids.old);
    expect(idsOf(await list(lister, '?filter=status==pending_preparation'))).toEqual([ids.mid]);
    // A pictures case is ready from the start.
    expect(idsOf(await list(lister, '?filter=mediaStatus==ready'))).toEqual([ids.new, ids.mid, ids.old]);
    expect(idsOf(await list(lister, '?filter=mediaStatus==uploading'))).toEqual([]);
    expect(idsOf(await list(lister, '?filter=favourite==true'))).toEqual([ids.old]);
    expect(idsOf(await list(lister, '?filter=favourite==false'))).toEqual([ids.new, ids.mid]);
    expect(idsOf(await list(lister, '?filter=kind==pictures'))).toEqual([ids.new]);
    expect(idsOf(await list(lister, '?filter=from==2026-01-01'))).toEqual([ids.new, ids.mid]);
    // A day is the whole day.
    expect(idsOf(await list(lister, '?filter=to==2026-02-20'))).toEqual([ids.new, ids.mid, ids.old]);
    expect(idsOf(await list(lister, '?filter=from==2026-01-01__to==2026-01-31'))).toEqual([ids.mid]);
    expect(idsOf(await list(lister, '?filter=to==2026-02-20T12:00:00Z'))).toEqual([ids.mid, ids.old]);
    expect(idsOf(await list(lister, '?filter=tab==mine__kind==video'))).toEqual([ids.old]);
  });

  it('refuses a bad filter value with 400 INVALID_VALUE, and an unknown field', async () => {
    for (const filter of [
      'surgeryId==abc',
      'organId==12',
      'status==done',
      'mediaStatus==lost',
      'favourite==yes',
      'kind==movie',
      'from==yesterday',
      'to==2026-13-45',
      'tab==everything',
      'tab==all',
    ]) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/videos?filter=${filter}&langCode=en`, token: lister.token });
      expect(res.statusCode, filter).toBe(400);
      const key = filter.split('==')[0];
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION',
        details: [{ path: `filter.${key}`, code: 'INVALID_VALUE', message: 'This value is not allowed' }],
      });
    }
    // An end before the start is said as such, not as a bad value.
    const inverted = await ctx.inject({
      method: 'GET',
      url: '/v1/videos?filter=from==2026-03-01__to==2026-02-01&langCode=en',
      token: lister.token,
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().error.details).toEqual([
      { path: 'filter.to', code: 'DATE_RANGE_INVERTED', message: 'The end date must be on or after the start date' },
    ]);
    expect((await list(lister, '?filter=from==2026-02-20__to==2026-02-20')).total).toBeGreaterThanOrEqual(0);
    for (const query of ['filter=colour==red', 'sort=name', 'limit=1000', 'page=0', 'colour=red']) {
      const res = await ctx.inject({ method: 'GET', url: `/v1/videos?${query}`, token: lister.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('QUERY_UNKNOWN_FIELD');
    }
  });

  it('shows an administrator every case with tab==all, and an editor only their own', async () => {
    const all = await list(admin, '?filter=tab==all&limit=100');
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(idsOf(all)).toEqual(expect.arrayContaining([ids.old, ids.mid, ids.new]));
    expect(all.data.find((v) => v.id === ids.old)!.access).toBe('admin');
    expect((await list(editor, '')).data).toEqual([]);
    expect((await list(editor, '?filter=tab==shared')).data).toEqual([]);
  });

  it('gives summaries with localised names, the failure message and a signed poster', async () => {
    await db().update(videos).set({ mediaStatus: 'failed', failureReason: 'MEDIA_TRUNCATED' }).where(eq(videos.id, ids.new!));
    const en = await list(lister, '?langCode=en');
    const fr = await list(lister, '?langCode=fr');
    const [surgery] = await db().select().from(surgeries).where(eq(surgeries.id, en.data[0]!.surgery!.id));
    expect(en.data[0]).toMatchObject({
      failureMessage: errorMessage('MEDIA_TRUNCATED', 'en'),
      surgery: { name: surgery!.nameEn },
      pictureCount: 0,
    });
    expect(fr.data[0]).toMatchObject({ failureMessage: errorMessage('MEDIA_TRUNCATED', 'fr'), surgery: { name: surgery!.nameFr } });
    const withPoster = en.data.find((v) => v.id === ids.mid)!;
    expect(withPoster.posterUrl).toMatch(new RegExp(`^/v1/media/[0-9a-f-]{36}\\?u=${lister.id}&exp=\\d+&sig=`));
    expect((await ctx.app.inject({ method: 'GET', url: withPoster.posterUrl! })).statusCode).toBe(200);
    // As a browser asks for it: media go as they are, never compressed, whole or by range.
    const asBrowser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const whole = await ctx.app.inject({ method: 'GET', url: withPoster.posterUrl!, headers: asBrowser });
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    const part = await ctx.app.inject({ method: 'GET', url: withPoster.posterUrl!, headers: { ...asBrowser, range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toHaveLength(10);
  });
});
