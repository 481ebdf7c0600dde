import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses, auditLog, bestCases, media, preparations, storageObjects, videos } from '../src/db/schema.ts';
import { createMetrics } from '../src/metrics.ts';
import { reconcileStorage } from '../src/modules/retention/storage-report.ts';
import { createStorageFromConfig } from '../src/storage/select.ts';
import type { Storage } from '../src/storage/storage.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { startS3Server } from './s3-server.ts';

/**
 * The retention rules and the accounting of what the storage holds (docs/data-lifecycle.md), on
 * local disk and on a real S3 server (s3rver): after the clock moves, a rule deletes exactly what it
 * names; a held case and a best case survive; the reconciliation finds a planted orphan and a
 * planted missing object.
 */
type Person = Awaited<ReturnType<TestContext['createUser']>>;
const DAY = 86_400_000;

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

  /** A case whose prepared video was rendered now: its processed source and its rendered video, both stored. */
  async function renderedCase(opts: { rendered?: boolean } = {}) {
    const rendered = opts.rendered ?? true;
    const db = ctx.database.db;
    const [video] = await db
      .insert(videos)
      .values({ authorId: learner.id, status: rendered ? 'pending_analysis' : 'pending_preparation', mediaStatus: 'ready' })
      .returning();
    const sourceKey = `videos/${video!.id}/video.mp4`;
    const sourceBytes = Buffer.alloc(3000 + Math.floor(Math.random() * 1000), 1);
    await ctx.storage.put(sourceKey, sourceBytes);
    const [source] = await db
      .insert(media)
      .values({
        ownerId: learner.id,
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
          ownerId: learner.id,
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
    const [audit] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'retention.hold_set'), eq(auditLog.entityId, c.id)));
    expect(audit!.details).toEqual({ reason: 'Inquiry' });
  });

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
