import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { NOTIFICATION_KINDS } from '@sutura/domain/notifications';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses, auditLog, bestCases, media, notifications, preparations, storageObjects, surgeries, videos } from '../src/db/schema.ts';
import pino from 'pino';
import { createMetrics } from '../src/metrics.ts';
import { createRetentionService } from '../src/modules/retention/retention.service.ts';
import { reconcileStorage } from '../src/modules/retention/storage-report.ts';
import { createStorageFromConfig } from '../src/storage/select.ts';
import type { Storage } from '../src/storage/storage.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { mailHeader, readableMail } from './mail-text.ts';
import { startS3Server } from './s3-server.ts';

/**
 * The retention rules and the accounting of what the storage holds (docs/data-lifecycle.md), on
 * local disk and on a real S3 server (s3rver): after the clock moves, a rule deletes exactly what it
 * names; a held case and a best case survive; the reconciliation finds a planted orphan and a
 * planted missing object.
 */
type Person = Awaited<ReturnType<TestContext['createUser']>>;
const DAY = 86_400_000;

/** A case whose prepared video was rendered now: its processed source and its rendered video, both stored. */
async function storeRenderedCase(ctx: TestContext, authorId: string, opts: { rendered?: boolean; surgeryId?: string } = {}) {
  const rendered = opts.rendered ?? true;
  const db = ctx.database.db;
  const [video] = await db
    .insert(videos)
    .values({
      authorId,
      surgeryId: opts.surgeryId ?? null,
      status: rendered ? 'pending_analysis' : 'pending_preparation',
      mediaStatus: 'ready',
    })
    .returning();
  const sourceKey = `videos/${video!.id}/video.mp4`;
  const sourceBytes = Buffer.alloc(3000 + Math.floor(Math.random() * 1000), 1);
  await ctx.storage.put(sourceKey, sourceBytes);
  const [source] = await db
    .insert(media)
    .values({
      ownerId: authorId,
      videoId: video!.id,
      kind: 'video',
      storageKey: sourceKey,
      contentType: 'video/mp4',
      size: sourceBytes.length,
    })
    .returning();
  let renderedKey: string | null = null;
  if (rendered) {
    renderedKey = `videos/${video!.id}/prepared-1/video.mp4`;
    const bytes = Buffer.alloc(1000, 2);
    await ctx.storage.put(renderedKey, bytes);
    const [out] = await db
      .insert(media)
      .values({
        ownerId: authorId,
        videoId: video!.id,
        kind: 'prepared-video',
        storageKey: renderedKey,
        contentType: 'video/mp4',
        size: bytes.length,
      })
      .returning();
    await db.update(videos).set({ sourceMediaId: source!.id, videoMediaId: out!.id }).where(eq(videos.id, video!.id));
    await db.insert(preparations).values({ videoId: video!.id, renderStatus: 'done', renderedAt: ctx.clock.now, phase: 'steps' });
  } else {
    await db.update(videos).set({ videoMediaId: source!.id }).where(eq(videos.id, video!.id));
  }
  return { id: video!.id, sourceKey, sourceBytes: sourceBytes.length, renderedKey };
}

describe.each(['local', 's3'] as const)('retention and storage accounting on %s', (store) => {
  let ctx: TestContext;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let raw: Storage;
  let admin: Person;
  let learner: Person;

  beforeAll(async () => {
    s3 = store === 's3' ? await startS3Server() : undefined;
    const env: Record<string, string> = s3
      ? {
          S3_ENDPOINT: s3.settings.endpoint!,
          S3_BUCKET: s3.settings.bucket,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          S3_FORCE_PATH_STYLE: 'true',
        }
      : {};
    ctx = await createTestContext({ workers: false, env });
    // The store without its accounting: what a crash or a hand in the bucket leaves.
    raw = await createStorageFromConfig(ctx.config);
    admin = await ctx.createUser('administrator');
    learner = await ctx.createUser('learner');
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await s3?.close();
  });

  const renderedCase = (opts: { rendered?: boolean } = {}) => storeRenderedCase(ctx, learner.id, opts);

  it('keeps the accounting as objects are written and deleted', async () => {
    const key = `videos/${randomUUID()}/pictures/${randomUUID()}.webp`;
    await ctx.storage.put(key, Buffer.alloc(1234));
    const [row] = await ctx.database.db.select().from(storageObjects).where(eq(storageObjects.key, key));
    expect(row).toMatchObject({ kind: 'pictures', size: 1234 });
    await ctx.storage.deletePrefix(key.split('/').slice(0, 2).join('/'));
    expect(await ctx.database.db.select().from(storageObjects).where(eq(storageObjects.key, key))).toEqual([]);
    expect(await raw.size(key)).toBeUndefined();
  });

  it('deletes after the clock moves exactly the sources the rule names, sparing held cases and best cases', async () => {
    const plain = await renderedCase();
    const held = await renderedCase();
    const best = await renderedCase();
    const unprepared = await renderedCase({ rendered: false });
    await ctx.database.db.insert(bestCases).values({
      videoId: best.id,
      origin: 'converted',
      titleFr: 'Cas de référence',
      titleEn: 'Reference case',
      descriptionFr: 'Description',
      descriptionEn: 'Description',
      consent: 'accepted',
      published: true,
    });
    const holdRes = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/retention/holds/${held.id}`,
      token: admin.token,
      body: { reason: 'Complaint under review by the hospital' },
    });
    expect(holdRes.statusCode).toBe(200);

    // Nothing is due before the rule's 30 days.
    const early = await ctx.inject({ method: 'GET', url: '/v1/admin/retention/preview', token: admin.token });
    expect(early.json().data.candidates.map((c: { videoId: string }) => c.videoId)).not.toContain(plain.id);

    ctx.clock.advance(31 * DAY);
    // Sessions do not last a month: the administrator signs in again.
    admin = await ctx.createUser('administrator');
    const preview = (await ctx.inject({ method: 'GET', url: '/v1/admin/retention/preview', token: admin.token })).json().data;
    const sourceCandidates = preview.candidates.filter((c: { rule: string }) => c.rule === 'source');
    expect(sourceCandidates).toEqual([expect.objectContaining({ videoId: plain.id, keys: [plain.sourceKey], bytes: plain.sourceBytes })]);
    expect(preview.byRule.find((r: { rule: string }) => r.rule === 'source')).toEqual({
      rule: 'source',
      count: 1,
      bytes: plain.sourceBytes,
    });
    // The dry run deleted nothing.
    expect(await raw.size(plain.sourceKey)).toBe(plain.sourceBytes);

    const run = await ctx.services.retention.apply();
    expect(run).toEqual({ deleted: 1, bytes: plain.sourceBytes });
    expect(await raw.size(plain.sourceKey)).toBeUndefined();
    expect(await raw.size(plain.renderedKey!)).toBe(1000);
    for (const kept of [held, best, unprepared]) expect(await raw.size(kept.sourceKey)).toBe(kept.sourceBytes);
    const [after] = await ctx.database.db.select().from(videos).where(eq(videos.id, plain.id));
    expect(after!.sourceMediaId).toBeNull();
    expect(await ctx.database.db.select().from(storageObjects).where(eq(storageObjects.key, plain.sourceKey))).toEqual([]);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'retention.deleted'), eq(auditLog.entityId, plain.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toMatchObject({ rule: 'source', keys: [plain.sourceKey], bytes: plain.sourceBytes });

    // A second run finds nothing more to do.
    expect(await ctx.services.retention.apply()).toEqual({ deleted: 0, bytes: 0 });

    // Released, the held case's source goes at the next run.
    const release = await ctx.inject({ method: 'DELETE', url: `/v1/admin/retention/holds/${held.id}`, token: admin.token });
    expect(release.statusCode).toBe(200);
    expect(await ctx.services.retention.apply()).toEqual({ deleted: 1, bytes: held.sourceBytes });
    expect(await raw.size(best.sourceKey)).toBe(best.sourceBytes);
  });

  it('applies the rules an administrator sets', async () => {
    admin = await ctx.createUser('administrator');
    learner = await ctx.createUser('learner');
    const res = await ctx.inject({
      method: 'PUT',
      url: '/v1/admin/retention/rules',
      token: admin.token,
      body: { sourceDays: 90, uploadDays: 14, analysedYears: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ sourceDays: 90, uploadDays: 14, analysedYears: null });
    const recent = await renderedCase();
    ctx.clock.advance(31 * DAY);
    expect((await ctx.services.retention.preview()).candidates.map((c) => c.videoId)).not.toContain(recent.id);
    ctx.clock.advance(60 * DAY);
    expect((await ctx.services.retention.preview()).candidates.map((c) => c.videoId)).toContain(recent.id);
    admin = await ctx.createUser('administrator');
    learner = await ctx.createUser('learner');
    const summary = await ctx.inject({ method: 'GET', url: '/v1/retention/summary', token: learner.token });
    expect(summary.json().data).toEqual({ sourceDays: 90, uploadDays: 14, analysedYears: null });
    const bad = await ctx.inject({
      method: 'PUT',
      url: '/v1/admin/retention/rules',
      token: admin.token,
      body: { sourceDays: 0, uploadDays: 14, analysedYears: null },
      headers: { 'accept-language': 'fr' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Cette valeur n'est pas autorisée");
    const learnerTry = await ctx.inject({
      method: 'PUT',
      url: '/v1/admin/retention/rules',
      token: learner.token,
      body: { sourceDays: 1, uploadDays: 1, analysedYears: 1 },
    });
    expect(learnerTry.statusCode).toBe(403);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'retention.rules_changed'));
    expect(audits).toHaveLength(1);
  });

  it('deletes failed uploads, abandoned uploads and, once turned on, analysed cases — each audited with its rule', async () => {
    admin = await ctx.createUser('administrator');
    learner = await ctx.createUser('learner');
    const db = ctx.database.db;
    await ctx.services.retentionRules.set({ sourceDays: 3650, uploadDays: 14, analysedYears: 1 }, admin.id, ctx.clock.now);

    // A case whose processing failed, its upload kept for a retry.
    const uploadId = randomUUID();
    const failedKey = `uploads/${uploadId}`;
    await ctx.storage.put(failedKey, Buffer.alloc(600));
    const [failed] = await db
      .insert(videos)
      .values({ authorId: learner.id, mediaStatus: 'failed', sourceKey: failedKey, sourceSize: 600 })
      .returning();
    // An upload that never received a byte.
    const [abandoned] = await db
      .insert(videos)
      .values({ authorId: learner.id, mediaStatus: 'uploading', uploadId: randomUUID() })
      .returning();
    // Two analysed cases, one of them held.
    const analysed = await renderedCase();
    const heldAnalysed = await renderedCase();
    for (const c of [analysed, heldAnalysed]) {
      await db.update(videos).set({ status: 'analysed' }).where(eq(videos.id, c.id));
      await db.insert(analyses).values({ videoId: c.id, status: 'submitted', submittedAt: ctx.clock.now });
    }
    const held = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/retention/holds/${heldAnalysed.id}`,
      token: admin.token,
      body: { reason: 'Inquiry' },
    });
    expect(held.statusCode).toBe(200);

    ctx.clock.advance(15 * DAY);
    expect(await ctx.services.housekeeping.expireUploads()).toMatchObject({ expired: 1 });
    const first = await ctx.services.retention.apply();
    expect(first).toEqual({ deleted: 1, bytes: 600 });
    expect(await raw.size(failedKey)).toBeUndefined();
    expect(await raw.size(analysed.sourceKey)).toBe(analysed.sourceBytes);

    ctx.clock.advance(366 * DAY);
    const second = await ctx.services.retention.apply();
    expect(second.deleted).toBe(1);
    expect(second.bytes).toBe(analysed.sourceBytes + 1000);
    expect(await db.select().from(videos).where(eq(videos.id, analysed.id))).toEqual([]);
    expect(await raw.size(analysed.sourceKey)).toBeUndefined();
    expect(await raw.size(analysed.renderedKey!)).toBeUndefined();
    expect(await raw.size(heldAnalysed.renderedKey!)).toBe(1000);

    const rows = await db.select().from(auditLog).where(eq(auditLog.action, 'retention.deleted'));
    const of = (id: string) => rows.filter((r) => r.entityId === id).map((r) => (r.details as { rule: string }).rule);
    expect(of(failed!.id)).toEqual(['uploads']);
    expect(of(abandoned!.id)).toEqual(['uploads']);
    expect(of(analysed.id)).toEqual(['analysed']);
    expect(of(heldAnalysed.id)).toEqual([]);
  });

  it('keeps a published best case when its author deletes their account, and deletes their other cases', async () => {
    admin = await ctx.createUser('administrator');
    const author = await ctx.createUser('learner');
    const db = ctx.database.db;
    learner = author;
    const kept = await renderedCase();
    const gone = await renderedCase();
    learner = await ctx.createUser('learner');
    await db.insert(bestCases).values({
      videoId: kept.id,
      origin: 'converted',
      titleFr: 'Cas de référence',
      titleEn: 'Reference case',
      descriptionFr: 'Description',
      descriptionEn: 'Description',
      consent: 'accepted',
      published: true,
      createdById: admin.id,
    });
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token: author.token,
      body: { password: author.password, confirmation: 'DELETE' },
    });
    expect(res.statusCode).toBe(200);
    const [video] = await db.select().from(videos).where(eq(videos.id, kept.id));
    expect(video).toMatchObject({ authorId: admin.id, purpose: 'best_case' });
    expect(await raw.size(kept.renderedKey!)).toBe(1000);
    expect((await db.select().from(media).where(eq(media.videoId, kept.id))).every((m) => m.ownerId === admin.id)).toBe(true);
    expect(await db.select().from(videos).where(eq(videos.id, gone.id))).toEqual([]);
    expect(await raw.size(gone.renderedKey!)).toBeUndefined();
  });

  it('refuses a hold without a reason or on an unknown case', async () => {
    admin = await ctx.createUser('administrator');
    const c = await renderedCase();
    const empty = await ctx.inject({ method: 'PUT', url: `/v1/admin/retention/holds/${c.id}`, token: admin.token, body: { reason: ' ' } });
    expect(empty.statusCode).toBe(400);
    const unknown = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/retention/holds/${randomUUID()}`,
      token: admin.token,
      body: { reason: 'Inquiry' },
    });
    expect(unknown.statusCode).toBe(404);
    const ok = await ctx.inject({
      method: 'PUT',
      url: `/v1/admin/retention/holds/${c.id}`,
      token: admin.token,
      body: { reason: 'Inquiry' },
    });
    expect(ok.json().data.find((h: { videoId: string }) => h.videoId === c.id)).toMatchObject({ reason: 'Inquiry' });
    // The list of cases shows the hold, with its reason; released, it shows none.
    const listed = async () =>
      (await ctx.inject({ method: 'GET', url: '/v1/admin/surgery-videos', token: admin.token }))
        .json()
        .data.data.find((v: { id: string }) => v.id === c.id);
    expect((await listed()).legalHold).toEqual({ reason: 'Inquiry', heldAt: expect.any(String) });
    const [audit] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'retention.hold_set'), eq(auditLog.entityId, c.id)));
    expect(audit!.details).toEqual({ reason: 'Inquiry' });
    await ctx.inject({ method: 'DELETE', url: `/v1/admin/retention/holds/${c.id}`, token: admin.token });
    expect((await listed()).legalHold).toBeNull();
  });

  /**
   * The store the run deletes through, stopped after `after` deletions: the deletion that stops it
   * is made in the store (the object is gone) before the error, as when the process dies between
   * the object and its row; or the job is stopped (its signal aborted) once it is made.
   */
  function stoppingStorage(after: number, how: 'error' | 'abort', controller: AbortController): Storage {
    let deletions = 0;
    return new Proxy(ctx.storage, {
      get(target, prop, receiver) {
        if (prop === 'delete')
          return async (key: string) => {
            await target.delete(key);
            deletions += 1;
            if (deletions === after) {
              if (how === 'error') throw new Error('storage unavailable');
              controller.abort();
            }
          };
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  it.each(['error', 'abort'] as const)(
    'resumes a run stopped mid-batch (%s) at the next run: deletes exactly what remains, audits and tells each case once',
    async (how) => {
      admin = await ctx.createUser('administrator');
      learner = await ctx.createUser('learner');
      const db = ctx.database.db;
      await ctx.services.retentionRules.set({ sourceDays: 30, uploadDays: 14, analysedYears: null }, admin.id, ctx.clock.now);
      // Whatever the earlier tests left due goes first: the run below sees only these cases.
      ctx.clock.advance(31 * DAY);
      await ctx.services.retention.apply();
      const cases: Awaited<ReturnType<typeof renderedCase>>[] = [];
      for (let i = 0; i < 5; i++) cases.push(await renderedCase());
      const notDue = await renderedCase();
      ctx.clock.advance(20 * DAY);
      await db
        .update(preparations)
        .set({ renderedAt: new Date(ctx.clock.now.getTime() - 31 * DAY) })
        .where(
          inArray(
            preparations.videoId,
            cases.map((c) => c.id),
          ),
        );

      const controller = new AbortController();
      const stopped = createRetentionService({
        db,
        storage: stoppingStorage(3, how, controller),
        uploads: ctx.services.uploads,
        rules: ctx.services.retentionRules,
        audit: ctx.services.audit,
        notifications: ctx.services.notifications,
        clock: () => ctx.clock.now,
        log: pino({ level: 'silent' }),
      });
      if (how === 'error') await expect(stopped.apply(controller.signal)).rejects.toThrow('storage unavailable');
      else expect((await stopped.apply(controller.signal)).deleted).toBe(3);

      const auditsOf = async (id: string) =>
        db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'retention.deleted'), eq(auditLog.entityId, id)));
      const state = async () =>
        Promise.all(
          cases.map(async (c) => ({
            object: (await raw.size(c.sourceKey)) !== undefined,
            row: (await db.select().from(videos).where(eq(videos.id, c.id)))[0]!.sourceMediaId !== null,
            audits: (await auditsOf(c.id)).length,
          })),
        );
      const first = await state();
      // Three objects gone; the first two deleted and audited; the third's row still names its object
      // when the store failed (it finished when the job was stopped); the last two untouched.
      expect(first.filter((c) => !c.object)).toHaveLength(3);
      expect(first.filter((c) => c.object).every((c) => c.row && c.audits === 0)).toBe(true);
      expect(first.filter((c) => c.audits === 1)).toHaveLength(how === 'error' ? 2 : 3);
      if (how === 'error') expect(first.filter((c) => !c.object && c.row && c.audits === 0)).toHaveLength(1);
      const left = cases.filter((_, i) => first[i]!.row);
      const leftBytes = left.reduce((n, c) => n + c.sourceBytes, 0);

      // The next run deletes exactly what remains, each once.
      expect(await ctx.services.retention.apply()).toEqual({ deleted: left.length, bytes: leftBytes });
      for (const c of cases) {
        expect(await raw.size(c.sourceKey)).toBeUndefined();
        expect(await raw.size(c.renderedKey!)).toBe(1000);
        expect(await auditsOf(c.id)).toHaveLength(1);
        expect(await db.select().from(storageObjects).where(eq(storageObjects.key, c.sourceKey))).toEqual([]);
        // Its owner told once, by the run that deleted it.
        const told = await db
          .select()
          .from(notifications)
          .where(eq(notifications.link, `/videos/${c.id}`));
        expect(told.map((n) => n.key)).toEqual(['retentionSourceDeleted']);
      }
      expect(await raw.size(notDue.sourceKey)).toBe(notDue.sourceBytes);
      expect(await auditsOf(notDue.id)).toEqual([]);
      // And a third run finds nothing.
      expect(await ctx.services.retention.apply()).toEqual({ deleted: 0, bytes: 0 });
    },
  );

  it('reports what the storage holds by kind, and a reconciliation finds a planted orphan and a planted missing object', async () => {
    admin = await ctx.createUser('administrator');
    const report = (await ctx.inject({ method: 'GET', url: '/v1/admin/storage', token: admin.token })).json().data;
    const rows = await ctx.database.db.select().from(storageObjects);
    expect(report.totalBytes).toBe(rows.reduce((n, r) => n + r.size, 0));
    const sources = rows.filter((r) => r.kind === 'sources').reduce((n, r) => n + r.size, 0);
    expect(report.byKind.find((k: { kind: string }) => k.kind === 'sources').bytes).toBe(sources);
    expect(report.months).toHaveLength(12);
    expect(report.projection).toHaveLength(12);

    // The same figures as /metrics gauges, read from the table at each scrape.
    const metrics = createMetrics({ pool: ctx.database.pool, defaults: false });
    const { body } = await metrics.render();
    expect(body).toContain(`sutura_storage_bytes{kind="sources"} ${sources}`);
    expect(body).toMatch(/sutura_storage_objects\{kind="sources"\} [1-9]/);

    const clean = await reconcileStorage({ db: ctx.database.db, storage: ctx.storage, uploads: ctx.services.uploads });
    expect(clean.orphans).toEqual([]);
    expect(clean.missing).toEqual([]);

    const orphan = `videos/${randomUUID()}/pictures/planted.webp`;
    await raw.put(orphan, Buffer.alloc(77));
    const gone = `videos/${randomUUID()}/prepared-1/video.mp4`;
    await ctx.storage.put(gone, Buffer.alloc(55));
    await raw.delete(gone);
    const found = await reconcileStorage({ db: ctx.database.db, storage: ctx.storage, uploads: ctx.services.uploads });
    expect(found.orphans).toEqual([{ key: orphan, size: 77 }]);
    expect(found.missing).toEqual([{ key: gone, size: 55 }]);
  });
});

/**
 * What a retention run tells the people whose files it deleted: one notification per case and
 * run, in their language, naming the case, what went, the rule, and what remains; mailed (over a
 * real SMTP listener) where their notification settings ask for it.
 */
describe('retention tells the owners', () => {
  let ctx: TestContext;
  let smtp: SMTPServer;
  const received: { to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    ctx = await createTestContext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  async function mailsTo(address: string, count: number, timeoutMs = 15_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.filter((m) => m.to.includes(address)).map((m) => readableMail(m.raw));
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`${found.length} mail(s) to ${address} within ${timeoutMs} ms, not ${count}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('tells each owner once per case, in their language, what was deleted, by which rule, and what remains', async () => {
    const db = ctx.database.db;
    const [surgery] = await db.select().from(surgeries).limit(1);
    const admin = await ctx.createUser('administrator');
    const english = await ctx.createUser('learner', { preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' } });
    const french = await ctx.createUser('learner', { preferences: { ...DEFAULT_PREFERENCES, langCode: 'fr' } });
    const quiet = await ctx.createUser('learner', {
      preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' },
      notificationSettings: { ...DEFAULT_NOTIFICATION_SETTINGS, videos: false },
    });
    await ctx.services.retentionRules.set({ sourceDays: 30, uploadDays: 14, analysedYears: 1 }, admin.id, ctx.clock.now);

    // An analysed case (its source goes, its analysis stays), a case not analysed yet, a case analysed
    // more than a year ago (its source and then the whole case go in the same run), a quiet person's.
    const analysed = await storeRenderedCase(ctx, english.id, { surgeryId: surgery!.id });
    await db.insert(analyses).values({ videoId: analysed.id, status: 'submitted', submittedAt: ctx.clock.now });
    await db.update(videos).set({ status: 'analysed' }).where(eq(videos.id, analysed.id));
    const waiting = await storeRenderedCase(ctx, french.id, { surgeryId: surgery!.id });
    const old = await storeRenderedCase(ctx, french.id, { surgeryId: surgery!.id });
    await db.insert(analyses).values({ videoId: old.id, status: 'submitted', submittedAt: new Date(ctx.clock.now.getTime() - 400 * DAY) });
    await db.update(videos).set({ status: 'analysed' }).where(eq(videos.id, old.id));
    const quietCase = await storeRenderedCase(ctx, quiet.id, { surgeryId: surgery!.id });
    const sentBefore = received.length;

    ctx.clock.advance(31 * DAY);
    const run = await ctx.services.retention.apply();
    expect(run.deleted).toBe(5);

    const rowsOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId));
    const [en] = await rowsOf(english.id);
    expect(await rowsOf(english.id)).toHaveLength(1);
    expect(en).toMatchObject({ key: 'retentionSourceDeleted', link: `/videos/${analysed.id}` });
    expect(en!.params).toMatchObject({
      surgery: { fr: surgery!.nameFr, en: surgery!.nameEn },
      period: { en: '30 days', fr: '30 jours' },
      remains: { en: 'The prepared video, its steps and its analysis remain.' },
    });

    // Two cases of the French owner: two notifications, the old case's one saying the case went.
    const fr = await rowsOf(french.id);
    expect(fr.map((n) => n.key).sort()).toEqual(['retentionCaseDeleted', 'retentionSourceDeleted']);
    expect(fr.find((n) => n.key === 'retentionSourceDeleted')!.params).toMatchObject({
      remains: { fr: 'La vidéo préparée et ses étapes demeurent.' },
    });
    expect(fr.find((n) => n.key === 'retentionCaseDeleted')).toMatchObject({
      link: null,
      params: { period: { fr: '1 an', en: '1 year' } },
    });
    expect((await rowsOf(quiet.id)).map((n) => n.key)).toEqual(['retentionSourceDeleted']);

    // The notifications read in each person's language.
    const list = await ctx.services.notifications.list(english.id, 'en', 1, 10);
    expect(list.data[0]!.content).toContain(`The original file of your case of ${surgery!.nameEn} (`);
    expect(list.data[0]!.content).toContain('original files are kept 30 days after the prepared video is rendered');
    expect(list.data[0]!.content).toContain('its analysis remain');

    // Mailed in their language where their settings ask for it; the quiet person gets none.
    const [enMail] = await mailsTo(english.email, 1);
    expect(mailHeader(enMail!, 'Subject')?.replace(/ \(\d+ \w+ \d{4}\)/, '')).toBe(
      `Sutura: the original file of your case of ${surgery!.nameEn} was deleted`,
    );
    expect(enMail).toContain('The prepared video, its steps and its analysis remain.');
    expect(enMail).toContain(`/videos/${analysed.id}`);
    const frMails = await mailsTo(french.email, 2);
    // The case is named by its surgery and the day it was added.
    const subjects = frMails.map((m) => mailHeader(m, 'Subject')?.replace(/ \(\d+ \S+ \d{4}\)/, '')).sort();
    expect(subjects).toEqual([
      `Sutura : le fichier original de votre cas de ${surgery!.nameFr} a été supprimé`,
      `Sutura : votre cas analysé de ${surgery!.nameFr} a été supprimé`,
    ]);
    expect(frMails.find((m) => m.includes('cas analysés'))).toContain('les cas analysés sont conservés 1 an après leur dernière analyse');
    expect(received.slice(sentBefore).some((m) => m.to.includes(quiet.email))).toBe(false);
    expect(NOTIFICATION_KINDS.retentionSourceDeleted.group).toBe('videos');

    // The next run deletes nothing and tells no one again.
    expect(await ctx.services.retention.apply()).toEqual({ deleted: 0, bytes: 0 });
    const all = await db
      .select()
      .from(notifications)
      .where(inArray(notifications.userId, [english.id, french.id, quiet.id]));
    expect(all).toHaveLength(4);
    for (const c of [waiting, quietCase]) expect(await db.select().from(videos).where(eq(videos.id, c.id))).toHaveLength(1);
  });
});
