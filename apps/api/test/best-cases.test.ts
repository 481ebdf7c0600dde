import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminBestCase, AdminBestCaseDetail, BestCaseDetail, BestCaseRequest, BestCaseSummary } from '@sutura/domain/best-cases';
import type { Role } from '@sutura/domain/roles';
import { bestCases, media, notifications, surgeries, surgerySteps, videoSteps, videos } from '../src/db/schema.ts';
import { seedDemoBestCase } from '../src/demo/best-cases.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makeClip, tusMetadata } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let base: string;
let work: string;
let clip: Buffer;
const people = {} as Record<Role | 'author' | 'other', Person>;
let surgery: typeof surgeries.$inferSelect;
let otherSurgery: typeof surgeries.$inferSelect;
let steps: (typeof surgerySteps.$inferSelect)[];

async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const texts = {
  titleFr: 'Pyéloplastie exemplaire',
  titleEn: 'A model pyeloplasty',
  descriptionFr: 'Dissection soigneuse de la jonction.',
  descriptionEn: 'Careful dissection of the junction.',
};

/** An analysed case of `author`, with a playable file, a poster and two steps (as the workflow leaves it). */
async function analysedCase(author: Person, surgeryRow = surgery) {
  const db = ctx.database.db;
  const [video] = await db
    .insert(videos)
    .values({
      authorId: author.id,
      status: 'analysed',
      mediaStatus: 'ready',
      surgeryId: surgeryRow.id,
      organId: surgeryRow.organId,
      duration: 4,
      ageRange: '45_59',
      patientSex: 'man',
    })
    .returning();
  await ctx.storage.put(`videos/${video!.id}/video.mp4`, clip);
  const [file] = await db
    .insert(media)
    .values({
      ownerId: author.id,
      videoId: video!.id,
      kind: 'video',
      storageKey: `videos/${video!.id}/video.mp4`,
      contentType: 'video/mp4',
      size: clip.length,
    })
    .returning();
  await db.update(videos).set({ videoMediaId: file!.id }).where(eq(videos.id, video!.id));
  await db.insert(videoSteps).values([
    { videoId: video!.id, position: 0, surgeryStepId: steps[0]!.id, name: steps[0]!.nameEn, start: 0, end: 2 },
    { videoId: video!.id, position: 1, surgeryStepId: steps[1]!.id, name: steps[1]!.nameEn, start: 2, end: 4 },
  ]);
  return { ...video!, videoMediaId: file!.id };
}

async function call<T>(person: Person | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await ctx.inject({ method, url, token: person?.token, ...(body === undefined ? {} : { body }) });
  return {
    status: res.statusCode,
    body: res.json() as { success: boolean; data: T; error?: { code: string; details?: unknown } },
    raw: res.body,
  };
}

function tus(method: string, url: string, person: Person, headers: Record<string, string> = {}, body?: Buffer) {
  return fetch(new URL(url, base), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${person.token}`, ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}

beforeAll(async () => {
  // Workers on: the uploaded file goes through the real media pipeline.
  ctx = await createTestContext({ listen: true });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  work = await mkdtemp(path.join(tmpdir(), 'sutura-best-cases-'));
  makeClip(path.join(work, 'clip.mp4'));
  clip = await readFile(path.join(work, 'clip.mp4'));
  for (const role of ['learner', 'editor', 'expert', 'administrator', 'copil'] as const) people[role] = await ctx.createUser(role);
  people.author = await ctx.createUser('learner');
  people.other = await ctx.createUser('learner');
  const db = ctx.database.db;
  const withOrgan = await db.select().from(surgeries).where(isNotNull(surgeries.organId)).orderBy(asc(surgeries.position));
  surgery = withOrgan[0]!;
  otherSurgery = withOrgan.find((s) => s.organId !== surgery.organId) ?? withOrgan[1]!;
  steps = await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, surgery.id)).orderBy(asc(surgerySteps.position));
});
afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('turning an analysed case into a best case', () => {
  let source: Awaited<ReturnType<typeof analysedCase>>;
  let id: string;

  it('keeps its steps, asks its author, and shows nothing to learners until they accept', async () => {
    source = await analysedCase(people.author);
    // Nothing asked yet: an expected state the author's page reads on every visit, not an error.
    const nothingAsked = await call<BestCaseRequest | null>(people.author, 'GET', `/v1/videos/${source.id}/best-case`);
    expect(nothingAsked.status).toBe(200);
    expect(nothingAsked.body.data).toBeNull();
    expect((await call(people.other, 'GET', `/v1/videos/${source.id}/best-case`)).status).toBe(404);
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: source.id,
      surgeryId: surgery.id,
      organId: surgery.organId,
      ...texts,
    });
    expect(created.status, created.raw).toBe(201);
    id = created.body.data.id;
    expect(created.body.data).toMatchObject({ origin: 'converted', consent: 'pending', published: false, visible: false, stepCount: 2 });
    expect(created.body.data.steps.map((s) => s.start)).toEqual([0, 2]);

    // The same video twice: refused.
    const again = await call(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: source.id,
      surgeryId: surgery.id,
      ...texts,
    });
    expect(again.status).toBe(409);
    expect(again.body.error!.code).toBe('BEST_CASE_EXISTS');

    // The author is asked, in the app (and by mail), with a link to their case.
    const [asked] = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, people.author.id), eq(notifications.key, 'bestCaseRequested')));
    expect(asked?.link).toBe(`/videos/${source.id}`);
    const request = await call<BestCaseRequest>(people.author, 'GET', `/v1/videos/${source.id}/best-case`);
    expect(request.body.data).toMatchObject({ id, consent: 'pending', titleEn: texts.titleEn });
    // Nobody else reads the request.
    expect((await call(people.other, 'GET', `/v1/videos/${source.id}/best-case`)).status).toBe(404);
    expect((await call(people.other, 'PUT', `/v1/videos/${source.id}/best-case/consent`, { accept: true })).status).toBe(404);

    // Published before the answer: still invisible.
    const published = await call<AdminBestCaseDetail>(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/published`, {
      published: true,
    });
    expect(published.body.data).toMatchObject({ published: true, visible: false });
    expect((await call(people.learner, 'GET', `/v1/best-cases/${id}`)).status).toBe(404);
    expect((await call<{ total: number }>(people.learner, 'GET', '/v1/best-cases')).body.data.total).toBe(0);
  });

  it('shows once the author accepts: the video and its steps, never the author or the patient', async () => {
    const accepted = await call<BestCaseRequest>(people.author, 'PUT', `/v1/videos/${source.id}/best-case/consent`, { accept: true });
    expect(accepted.body.data.consent).toBe('accepted');
    const [answered] = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, people.administrator.id), eq(notifications.key, 'bestCaseAnswered')));
    expect(answered).toBeDefined();

    for (const role of ['learner', 'editor', 'expert'] as const) {
      const seen = await call<BestCaseDetail>(people[role], 'GET', `/v1/best-cases/${id}?langCode=fr`);
      expect(seen.status, `${role}: ${seen.raw}`).toBe(200);
      expect(seen.body.data).toMatchObject({ id, title: texts.titleFr, description: texts.descriptionFr, duration: 4 });
      expect(seen.body.data.steps.map((s) => [s.start, s.end])).toEqual([
        [0, 2],
        [2, 4],
      ]);
      expect(seen.raw).not.toContain(people.author.email);
      expect(seen.raw).not.toContain(people.author.id);
      expect(seen.raw).not.toContain('45_59');
      // The signed URL plays for them.
      const file = await fetch(new URL(seen.body.data.videoUrl!, base));
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(clip)).toBe(true);
    }
  });

  it('is unpublished when the author withdraws, and may not be published again', async () => {
    const withdrawn = await call<BestCaseRequest>(people.author, 'PUT', `/v1/videos/${source.id}/best-case/consent`, { accept: false });
    expect(withdrawn.body.data).toMatchObject({ consent: 'withdrawn', published: false });
    expect((await call(people.learner, 'GET', `/v1/best-cases/${id}`)).status).toBe(404);
    const refused = await call(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/published`, { published: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error!.code).toBe('BEST_CASE_CONSENT_REFUSED');
  });

  it('refuses a case that is not analysed, and goes away with its source case', async () => {
    const [draft] = await ctx.database.db
      .insert(videos)
      .values({ authorId: people.author.id, status: 'saved', mediaStatus: 'ready' })
      .returning();
    const notAnalysed = await call(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: draft!.id,
      surgeryId: surgery.id,
      ...texts,
    });
    expect(notAnalysed.status).toBe(409);
    expect(notAnalysed.body.error!.code).toBe('BEST_CASE_NOT_ANALYSED');

    const second = await analysedCase(people.author);
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: second.id,
      surgeryId: surgery.id,
      ...texts,
    });
    expect((await call(people.author, 'DELETE', `/v1/videos/${second.id}`)).status).toBe(200);
    expect((await call(people.administrator, 'GET', `/v1/admin/best-cases/${created.body.data.id}`)).status).toBe(404);
  });
});

describe('uploading a video as a best case', () => {
  let id: string;
  let videoId: string;

  it('goes through tus and the media pipeline to ready, in nobody’s videos and in no pool', async () => {
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'upload',
      surgeryId: surgery.id,
      organId: surgery.organId,
      ...texts,
    });
    expect(created.status, created.raw).toBe(201);
    id = created.body.data.id;
    videoId = created.body.data.videoId;
    expect(created.body.data).toMatchObject({ origin: 'uploaded', consent: 'not_needed', mediaStatus: 'uploading' });

    expect(created.body.data.mine).toBe(true);
    // Another administrator's upload, or a learner's: refused.
    const otherAdmin = await ctx.createUser('administrator');
    for (const who of [people.learner, otherAdmin]) {
      const foreign = await tus('POST', '/v1/uploads/', who, {
        'upload-length': String(clip.length),
        'upload-metadata': tusMetadata({ videoId }),
      });
      expect(foreign.status).toBe(404);
    }
    const seenByOther = await call<AdminBestCaseDetail>(otherAdmin, 'GET', `/v1/admin/best-cases/${id}`);
    expect(seenByOther.body.data.mine).toBe(false);

    const started = await tus(
      'POST',
      '/v1/uploads/',
      people.administrator,
      {
        'upload-length': String(clip.length),
        'upload-metadata': tusMetadata({ videoId, filetype: 'video/mp4' }),
        'content-type': 'application/offset+octet-stream',
      },
      clip,
    );
    expect(started.status, await started.text()).toBe(201);
    expect(started.headers.get('upload-offset')).toBe(String(clip.length));

    const ready = await waitFor(async () => {
      const res = await call<AdminBestCaseDetail>(people.administrator, 'GET', `/v1/admin/best-cases/${id}`);
      return res.body.data.mediaStatus === 'ready' ? res.body.data : undefined;
    });
    expect(ready.duration).toBeGreaterThan(3);
    expect(ready.videoUrl).toBeTruthy();
    expect(ready.posterUrl).toBeTruthy();

    // Not a case: no one's list (an administrator's "all" included), no detail, no pool.
    const db = ctx.database.db;
    const [row] = await db.select().from(videos).where(eq(videos.id, videoId));
    expect(row).toMatchObject({ purpose: 'best_case', status: 'saved' });
    const all = await call<{ data: { id: string }[] }>(people.administrator, 'GET', '/v1/videos?filter=tab==all&limit=100');
    expect(all.body.data.data.map((v) => v.id)).not.toContain(videoId);
    const mine = await call<{ data: { id: string }[] }>(people.administrator, 'GET', '/v1/videos?limit=100');
    expect(mine.body.data.data.map((v) => v.id)).not.toContain(videoId);
    expect((await call(people.administrator, 'GET', `/v1/videos/${videoId}`)).status).toBe(404);
    expect((await call(people.administrator, 'POST', `/v1/videos/${videoId}/send`, { priority: false })).status).toBe(404);
    for (const [who, url] of [
      [people.editor, '/v1/editor/pool?limit=100'],
      [people.expert, '/v1/expert/pool?limit=100'],
    ] as const) {
      const pool = await call(who, 'GET', url);
      expect(pool.status, url).toBe(200);
      expect(pool.raw).not.toContain(videoId);
    }
    // Even marked as sent, a best case's video never reaches a pool: it is no case.
    await db.update(videos).set({ status: 'pending_preparation' }).where(eq(videos.id, videoId));
    expect((await call(people.editor, 'GET', '/v1/editor/pool?limit=100')).raw).not.toContain(videoId);
    await db.update(videos).set({ status: 'saved' }).where(eq(videos.id, videoId));
    // Its notification leads to the administration, not to a case page.
    const [told] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, people.administrator.id), eq(notifications.key, 'videoReady')));
    expect(told?.link).toBe('/admin/best-cases');
  });

  it('takes the steps the administrator marks, ending where the next starts', async () => {
    const bad = await call(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/steps`, {
      steps: [{ surgeryStepId: steps[0]!.id, start: 60 }],
    });
    expect(bad.status).toBe(400);
    const [foreignStep] = await ctx.database.db.select().from(surgerySteps).where(ne(surgerySteps.surgeryId, surgery.id)).limit(1);
    const foreign = await call(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/steps`, {
      steps: [{ surgeryStepId: foreignStep!.id, start: 0 }],
    });
    expect(foreign.status).toBe(400);
    const set = await call<AdminBestCaseDetail>(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/steps`, {
      steps: [
        { surgeryStepId: steps[1]!.id, start: 1.5 },
        { surgeryStepId: steps[0]!.id, start: 0 },
      ],
    });
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data.steps.map((s) => [s.surgeryStepId, s.start])).toEqual([
      [steps[0]!.id, 0],
      [steps[1]!.id, 1.5],
    ]);
    expect(set.body.data.steps[1]!.end).toBeCloseTo(set.body.data.duration!, 3);
  });

  it('is readable by learners once published, through signed URLs; unpublished media only by administrators', async () => {
    // Unpublished: the administrator's URL works, a learner gets no URL at all.
    const admin = await call<AdminBestCaseDetail>(people.copil, 'GET', `/v1/admin/best-cases/${id}`);
    expect(admin.status).toBe(200);
    expect((await fetch(new URL(admin.body.data.videoUrl!, base))).status).toBe(200);
    expect((await call(people.learner, 'GET', `/v1/best-cases/${id}`)).status).toBe(404);
    // A URL names the person it was issued to: another person's signature does not open it.
    const forged = admin.body.data.videoUrl!.replace(/u=[^&]+/, `u=${people.learner.id}`);
    expect((await fetch(new URL(forged, base))).status).toBe(404);

    await call(people.administrator, 'PUT', `/v1/admin/best-cases/${id}/published`, { published: true });
    const seen = await call<BestCaseDetail>(people.learner, 'GET', `/v1/best-cases/${id}?langCode=en`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.title).toBe(texts.titleEn);
    expect(seen.body.data.steps).toHaveLength(2);
    const file = await fetch(new URL(seen.body.data.videoUrl!, base), { headers: { range: 'bytes=0-99' } });
    expect(file.status).toBe(206);
    expect((await fetch(new URL(seen.body.data.posterUrl!, base))).status).toBe(200);
  });

  it('browses by surgery and organ', async () => {
    // A second published one on another surgery.
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: (await analysedCase(people.other, otherSurgery)).id,
      surgeryId: otherSurgery.id,
      organId: otherSurgery.organId,
      ...texts,
    });
    await call(people.other, 'PUT', `/v1/videos/${created.body.data.videoId}/best-case/consent`, { accept: true });
    await call(people.administrator, 'PUT', `/v1/admin/best-cases/${created.body.data.id}/published`, { published: true });

    type Page = { data: BestCaseSummary[]; total: number };
    const all = await call<Page>(people.learner, 'GET', '/v1/best-cases');
    expect(all.body.data.data.map((c) => c.id).sort()).toEqual([id, created.body.data.id].sort());
    const bySurgery = await call<Page>(people.expert, 'GET', `/v1/best-cases?filter=surgeryId==${surgery.id}`);
    expect(bySurgery.body.data.data.map((c) => c.id)).toEqual([id]);
    expect(bySurgery.body.data.data[0]).toMatchObject({ surgery: { id: surgery.id }, organ: { id: surgery.organId } });
    expect(bySurgery.body.data.data[0]!.posterUrl).toBeTruthy();
    const byOrgan = await call<Page>(people.editor, 'GET', `/v1/best-cases?filter=organId==${otherSurgery.organId}`);
    expect(byOrgan.body.data.data.map((c) => c.id)).toContain(created.body.data.id);
    expect(byOrgan.body.data.data.map((c) => c.id)).not.toContain(id);
    const paged = await call<Page>(people.learner, 'GET', '/v1/best-cases?limit=1&page=2');
    expect(paged.body.data).toMatchObject({ total: 2 });
    expect(paged.body.data.data).toHaveLength(1);
    const invalid = await call(people.learner, 'GET', '/v1/best-cases?filter=surgeryId==nope');
    expect(invalid.status).toBe(400);
    const unknown = await call(people.learner, 'GET', '/v1/best-cases?filter=published==false');
    expect(unknown.status).toBe(400);
  });

  it('is deleted with its video and every file of it', async () => {
    const del = await call(people.administrator, 'DELETE', `/v1/admin/best-cases/${id}`);
    expect(del.status).toBe(200);
    expect(await ctx.database.db.select().from(videos).where(eq(videos.id, videoId))).toEqual([]);
    expect(await ctx.database.db.select().from(bestCases).where(eq(bestCases.id, id))).toEqual([]);
    expect(await ctx.storage.size(`videos/${videoId}/video.mp4`)).toBeUndefined();
  });
});

describe('who may write', () => {
  it('refuses every write to copil, learners, editors, experts and anonymous callers; copil reads', async () => {
    const source = await analysedCase(people.author);
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'video',
      videoId: source.id,
      surgeryId: surgery.id,
      ...texts,
    });
    const id = created.body.data.id;
    const writes: [method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['POST', '/v1/admin/best-cases', { source: 'upload', surgeryId: surgery.id, ...texts }],
      ['PUT', `/v1/admin/best-cases/${id}`, { titleEn: 'Changed' }],
      ['PUT', `/v1/admin/best-cases/${id}/published`, { published: true }],
      ['PUT', `/v1/admin/best-cases/${id}/steps`, { steps: [] }],
      ['DELETE', `/v1/admin/best-cases/${id}`],
    ];
    for (const who of [people.copil, people.learner, people.editor, people.expert, undefined]) {
      for (const [method, url, body] of writes) {
        const res = await call(who, method, url, body);
        expect(res.status, `${method} ${url}`).toBe(who ? 403 : 401);
      }
    }
    const [row] = await ctx.database.db.select().from(bestCases).where(eq(bestCases.id, id));
    expect(row).toMatchObject({ titleEn: texts.titleEn, published: false });
    expect((await call(people.copil, 'GET', '/v1/admin/best-cases')).status).toBe(200);
    expect((await call(people.learner, 'GET', '/v1/admin/best-cases')).status).toBe(403);
    // The best cases of learners are not for the admin area's roles.
    expect((await call(people.copil, 'GET', '/v1/best-cases')).status).toBe(403);
  });

  it('validates texts in both languages and the vocabularies', async () => {
    const missing = await call<never>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'upload',
      surgeryId: surgery.id,
      titleFr: 'Titre',
      descriptionFr: 'Texte',
      descriptionEn: 'Text',
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body.error)).toContain('titleEn');
    const unknownSurgery = await call(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'upload',
      surgeryId: '00000000-0000-4000-8000-000000000000',
      ...texts,
    });
    expect(unknownSurgery.status).toBe(400);
    const count = await ctx.database.db.select().from(videos).where(eq(videos.purpose, 'best_case'));
    expect(count).toHaveLength(0);
  });
});

describe('the demo', () => {
  it('publishes the analysed demo case as a best case, its author’s consent recorded', async () => {
    const db = ctx.database.db;
    const admin = await ctx.createUser('administrator', { email: 'admin@sutura.local' });
    const source = await analysedCase(people.author);
    const [saved] = await db.insert(videos).values({ authorId: people.author.id, status: 'saved', mediaStatus: 'ready' }).returning();
    const log = { info: () => {} } as never;
    await seedDemoBestCase({ db, log, videoIds: [saved!.id, source.id] });
    // Once only, whatever happens next.
    await seedDemoBestCase({ db, log, videoIds: [saved!.id, source.id] });
    const rows = await db.select().from(bestCases).where(eq(bestCases.videoId, source.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ origin: 'converted', consent: 'accepted', published: true, createdById: admin.id });
    expect(rows[0]!.consentAt).toBeInstanceOf(Date);
    expect((await call(people.learner, 'GET', `/v1/best-cases/${rows[0]!.id}`)).status).toBe(200);
    expect(await db.select().from(bestCases).where(eq(bestCases.videoId, saved!.id))).toEqual([]);
  });
});

describe('an interrupted best-case upload', () => {
  it('resumes like a learner’s: the list tells its creator where it stopped, and the same file goes on from there', async () => {
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'upload',
      surgeryId: surgery.id,
      ...texts,
    });
    expect(created.status, created.raw).toBe(201);
    const videoId = created.body.data.videoId;
    const fingerprint = `sha256:${clip.length}:${createHash('sha256').update(clip).digest('hex')}`;
    const started = await tus('POST', '/v1/uploads/', people.administrator, {
      'upload-length': String(clip.length),
      'upload-metadata': tusMetadata({ videoId, filetype: 'video/mp4', fingerprint }),
    });
    expect(started.status).toBe(201);
    const location = started.headers.get('location')!;
    const half = Math.floor(clip.length / 2);
    const first = await tus(
      'PATCH',
      location,
      people.administrator,
      { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      clip.subarray(0, half),
    );
    expect(first.status).toBe(204);

    // The tab closed: the page, opened again, learns the upload and its offset from the list.
    const listed = async () => {
      const list = await call<{ data: AdminBestCase[] }>(people.administrator, 'GET', '/v1/admin/best-cases?limit=100');
      return list.body.data.data.find((b) => b.videoId === videoId)!;
    };
    expect((await listed()).upload).toEqual({ id: location.split('/').pop(), offset: half, size: clip.length, fingerprint });
    const head = await tus('HEAD', location, people.administrator);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const rest = await tus(
      'PATCH',
      location,
      people.administrator,
      { 'upload-offset': String(half), 'content-type': 'application/offset+octet-stream' },
      clip.subarray(half),
    );
    expect(rest.status).toBe(204);
    expect((await listed()).upload).toBeNull();
    const [row] = await ctx.database.db
      .select({ sourceSize: videos.sourceSize, mediaStatus: videos.mediaStatus })
      .from(videos)
      .where(eq(videos.id, videoId));
    expect(row!.sourceSize).toBe(clip.length);
    expect(row!.mediaStatus).not.toBe('uploading');
  });
});

describe('an abandoned upload', () => {
  it('warns, then expires, pointing the administrator to the best cases (last: it moves the clock)', async () => {
    const created = await call<AdminBestCaseDetail>(people.administrator, 'POST', '/v1/admin/best-cases', {
      source: 'upload',
      surgeryId: surgery.id,
      ...texts,
    });
    const started = await tus('POST', '/v1/uploads/', people.administrator, {
      'upload-length': String(clip.length),
      'upload-metadata': tusMetadata({ videoId: created.body.data.videoId }),
    });
    expect(started.status).toBe(201);
    ctx.clock.advance((ctx.config.uploadExpiryHours + 1) * 3600_000);
    const { expired } = await ctx.services.housekeeping.expireUploads();
    expect(expired).toBeGreaterThanOrEqual(1);
    const [told] = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, people.administrator.id), eq(notifications.key, 'uploadExpired')));
    expect(told?.link).toBe('/admin/best-cases');
  });
});
