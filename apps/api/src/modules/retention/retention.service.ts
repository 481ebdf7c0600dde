import { and, asc, eq, isNotNull, notExists, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Language } from '@sutura/domain/i18n';
import type {
  LegalHold,
  RetentionCandidate,
  RetentionPreview,
  RetentionRule,
  RetentionRules,
  RetentionView,
} from '@sutura/domain/retention';
import type { Db } from '../../db/client.ts';
import { appState, auditLog, bestCases, legalHolds, media, surgeries, users, videos } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { RequestUser } from '../../http/access.ts';
import { UPLOADS_PREFIX, type Storage } from '../../storage/storage.ts';
import type { UploadStore } from '../../storage/uploads.ts';
import type { Audit } from '../audit/audit.service.ts';
import { localName } from '../cases/names.ts';
import { removeUploadFilesOf } from '../videos/upload-files.ts';
import type { RetentionRulesStore } from './retention-rules.ts';

/** How many deletions one batch makes before it looks again (a run resumes from what is left). */
export const RETENTION_BATCH = 100;
const LAST_RUN_KEY = 'retention.lastRun';
const DAY_MS = 86_400_000;

interface Candidate extends RetentionCandidate {
  /** What the deletion checks again as it deletes (the row changed meanwhile: skipped). */
  mediaId?: string;
}

type Row = Record<string, unknown>;
const iso = (value: unknown) => new Date(value as string | Date).toISOString();

/**
 * The retention rules applied (docs/data-lifecycle.md). Each rule names what it deletes, and
 * nothing else is deleted: a best case and a case under legal hold are never touched. A run works
 * in batches and looks again after each, so that a run cut short resumes where it stopped, and a
 * deletion made twice finds nothing to do the second time. Every deletion writes one audit row
 * with its rule, the keys it removed and the bytes it freed.
 */
export function createRetentionService(deps: {
  db: Db;
  storage: Storage;
  uploads: UploadStore;
  rules: RetentionRulesStore;
  audit: Audit;
  clock: () => Date;
  log: Logger;
}) {
  const { db, storage, uploads, rules, audit, clock, log } = deps;

  const protectedCase = sql`NOT EXISTS (SELECT 1 FROM best_cases b WHERE b.video_id = v.id)
    AND NOT EXISTS (SELECT 1 FROM legal_holds h WHERE h.video_id = v.id)`;

  /** Sources of rendered cases, `sourceDays` after the render. */
  async function sourceCandidates(r: RetentionRules, limit: number): Promise<Candidate[]> {
    const cutoff = new Date(clock().getTime() - r.sourceDays * DAY_MS);
    const { rows } = await db.execute<Row>(sql`
      SELECT v.id, m.id AS media_id, m.storage_key, m.size, p.rendered_at
      FROM videos v
      JOIN preparations p ON p.video_id = v.id
      JOIN media m ON m.id = v.source_media_id
      WHERE v.source_media_id IS DISTINCT FROM v.video_media_id
        AND p.rendered_at IS NOT NULL AND p.rendered_at <= ${cutoff.toISOString()}
        AND ${protectedCase}
      ORDER BY p.rendered_at, v.id
      LIMIT ${limit}`);
    return rows.map((row) => ({
      rule: 'source',
      videoId: row.id as string,
      mediaId: row.media_id as string,
      keys: [row.storage_key as string],
      bytes: Number(row.size),
      since: iso(row.rendered_at),
    }));
  }

  /** Sources kept for a retry of a case whose processing failed, `uploadDays` after the failure. */
  async function failedUploadCandidates(r: RetentionRules, limit: number): Promise<Candidate[]> {
    const cutoff = new Date(clock().getTime() - r.uploadDays * DAY_MS);
    const { rows } = await db.execute<Row>(sql`
      SELECT v.id, v.source_key, v.source_size, v.updated_at
      FROM videos v
      WHERE v.media_status = 'failed' AND v.source_key IS NOT NULL
        AND v.updated_at <= ${cutoff.toISOString()}
        AND ${protectedCase}
      ORDER BY v.updated_at, v.id
      LIMIT ${limit}`);
    return rows.map((row) => ({
      rule: 'uploads',
      videoId: row.id as string,
      keys: [row.source_key as string],
      bytes: Number(row.source_size ?? 0),
      since: iso(row.updated_at),
    }));
  }

  /** Unfinished uploads idle for longer than the rule (removed hourly by the upload housekeeping). */
  async function abandonedUploadCandidates(limit: number): Promise<Candidate[]> {
    const now = clock().getTime();
    const expiryMs = (await rules.uploadExpiryHours()) * 3600_000;
    const rows = await db
      .select({ id: videos.id, uploadId: videos.uploadId, updatedAt: videos.updatedAt })
      .from(videos)
      .where(
        and(
          eq(videos.mediaStatus, 'uploading'),
          isNotNull(videos.uploadId),
          notExists(db.select().from(legalHolds).where(eq(legalHolds.videoId, videos.id))),
        ),
      )
      .orderBy(asc(videos.updatedAt))
      .limit(limit);
    const out: Candidate[] = [];
    for (const row of rows) {
      const written = Math.max((await uploads.lastWrite(row.uploadId!))?.getTime() ?? 0, row.updatedAt.getTime());
      if (now - written < expiryMs) continue;
      out.push({
        rule: 'uploads',
        videoId: row.id,
        keys: [`${UPLOADS_PREFIX}/${row.uploadId}`],
        bytes: (await uploads.offset(row.uploadId!)) ?? 0,
        since: new Date(written).toISOString(),
      });
    }
    return out;
  }

  /** Analysed cases, `analysedYears` after their last submitted analysis (off when null). */
  async function analysedCandidates(r: RetentionRules, limit: number): Promise<Candidate[]> {
    if (r.analysedYears === null) return [];
    const cutoff = new Date(clock());
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - r.analysedYears);
    const { rows } = await db.execute<Row>(sql`
      SELECT v.id, a.analysed_at,
        coalesce((SELECT sum(o.size) FROM storage_objects o WHERE o.video_id = v.id), 0) AS bytes
      FROM videos v
      JOIN LATERAL (SELECT max(submitted_at) AS analysed_at FROM analyses WHERE video_id = v.id) a ON true
      WHERE v.purpose = 'case' AND v.status = 'analysed'
        AND a.analysed_at IS NOT NULL AND a.analysed_at <= ${cutoff.toISOString()}
        AND ${protectedCase}
      ORDER BY a.analysed_at, v.id
      LIMIT ${limit}`);
    return rows.map((row) => ({
      rule: 'analysed',
      videoId: row.id as string,
      keys: [`videos/${row.id as string}/`],
      bytes: Number(row.bytes),
      since: iso(row.analysed_at),
    }));
  }

  /** Writes the deletion's audit row in the transaction that records it, so that neither goes without the other. */
  function auditRow(c: Candidate, what: string) {
    return {
      actorId: null,
      action: 'retention.deleted' as const,
      entity: 'video',
      entityId: c.videoId,
      ip: null,
      details: { rule: c.rule, what, keys: c.keys, bytes: c.bytes, since: c.since },
    };
  }

  /** Whether the case is still free of a best case and a legal hold, just before a deletion. */
  async function stillUnprotected(videoId: string): Promise<boolean> {
    const { rows } = await db.execute<Row>(sql`SELECT 1 FROM videos v WHERE v.id = ${videoId} AND ${protectedCase}`);
    return rows.length > 0;
  }

  /** Deletes one candidate; false when its row changed meanwhile (another run, a user, a hold). */
  async function remove(c: Candidate): Promise<boolean> {
    if (!(await stillUnprotected(c.videoId))) return false;
    switch (c.rule) {
      case 'source': {
        const [row] = await db.select({ sourceMediaId: videos.sourceMediaId }).from(videos).where(eq(videos.id, c.videoId));
        if (row?.sourceMediaId !== c.mediaId) return false;
        // The object first: a run cut short after it finds the row again and finishes.
        await storage.delete(c.keys[0]!);
        return db.transaction(async (tx) => {
          const [done] = await tx
            .update(videos)
            .set({ sourceMediaId: null })
            .where(and(eq(videos.id, c.videoId), eq(videos.sourceMediaId, c.mediaId!)))
            .returning({ id: videos.id });
          if (!done) return false;
          await tx.delete(media).where(eq(media.id, c.mediaId!));
          await tx.insert(auditLog).values(auditRow(c, 'source'));
          return true;
        });
      }
      case 'uploads': {
        const key = c.keys[0]!;
        const [row] = await db
          .select({ uploadId: videos.uploadId, sourceKey: videos.sourceKey, mediaStatus: videos.mediaStatus })
          .from(videos)
          .where(eq(videos.id, c.videoId));
        if (!row || row.mediaStatus !== 'failed' || row.sourceKey !== key) return false;
        await removeUploadFilesOf({ storage, uploads }, { uploadId: null, sourceKey: key });
        return db.transaction(async (tx) => {
          const [done] = await tx
            .update(videos)
            .set({ sourceKey: null, sourceSize: null })
            .where(and(eq(videos.id, c.videoId), eq(videos.sourceKey, key)))
            .returning({ id: videos.id });
          if (!done) return false;
          await tx.insert(auditLog).values(auditRow(c, 'failed_upload'));
          return true;
        });
      }
      case 'analysed': {
        const [row] = await db.select().from(videos).where(eq(videos.id, c.videoId));
        if (!row) return false;
        const gone = await db.transaction(async (tx) => {
          const [done] = await tx
            .delete(videos)
            .where(
              and(
                eq(videos.id, c.videoId),
                eq(videos.status, 'analysed'),
                notExists(tx.select().from(bestCases).where(eq(bestCases.videoId, videos.id))),
                notExists(tx.select().from(legalHolds).where(eq(legalHolds.videoId, videos.id))),
              ),
            )
            .returning({ id: videos.id });
          if (!done) return false;
          await tx.insert(auditLog).values({ ...auditRow(c, 'case'), details: { ...auditRow(c, 'case').details, authorId: row.authorId } });
          return true;
        });
        // The row is gone, so nothing serves these files any more; a sweep removes what a crash leaves.
        if (gone) {
          await storage.deletePrefix(`videos/${c.videoId}`);
          await removeUploadFilesOf({ storage, uploads }, row);
        }
        return gone;
      }
      default: {
        const never: never = c.rule;
        throw new Error(`unknown retention rule ${String(never)}`);
      }
    }
  }

  async function candidatesOf(rule: RetentionRule, r: RetentionRules, limit: number): Promise<Candidate[]> {
    switch (rule) {
      case 'source':
        return sourceCandidates(r, limit);
      case 'uploads':
        return [...(await failedUploadCandidates(r, limit)), ...(await abandonedUploadCandidates(limit))];
      case 'analysed':
        return analysedCandidates(r, limit);
      default: {
        const never: never = rule;
        throw new Error(`unknown retention rule ${String(never)}`);
      }
    }
  }

  const RULES: RetentionRule[] = ['source', 'uploads', 'analysed'];

  return {
    /** What the next run would delete, and the bytes it would free (nothing is deleted). */
    async preview(limit = 100): Promise<RetentionPreview> {
      const r = await rules.get();
      const all: Candidate[] = [];
      for (const rule of RULES) all.push(...(await candidatesOf(rule, r, 10_000)));
      const byRule = RULES.map((rule) => {
        const of = all.filter((c) => c.rule === rule);
        return { rule, count: of.length, bytes: of.reduce((n, c) => n + c.bytes, 0) };
      });
      return {
        candidates: all.slice(0, limit).map(({ mediaId: _mediaId, ...c }) => c),
        total: all.length,
        bytes: all.reduce((n, c) => n + c.bytes, 0),
        byRule,
      };
    },

    /**
     * The daily run: each rule in batches until it names nothing more (or the job is stopped, the
     * next run going on from there). Abandoned uploads are the hourly upload housekeeping's.
     */
    async apply(signal?: AbortSignal): Promise<{ deleted: number; bytes: number }> {
      const r = await rules.get();
      let deleted = 0;
      let bytes = 0;
      for (const rule of RULES) {
        const tried = new Set<string>();
        for (;;) {
          if (signal?.aborted) break;
          const batch = (
            rule === 'uploads' ? await failedUploadCandidates(r, RETENTION_BATCH) : await candidatesOf(rule, r, RETENTION_BATCH)
          ).filter((c) => !tried.has(`${c.videoId}:${c.keys[0]}`));
          if (!batch.length) break;
          for (const c of batch) {
            if (signal?.aborted) break;
            tried.add(`${c.videoId}:${c.keys[0]}`);
            if (await remove(c)) {
              deleted += 1;
              bytes += c.bytes;
            }
          }
        }
      }
      const at = clock();
      await db
        .insert(appState)
        .values({ key: LAST_RUN_KEY, value: { at: at.toISOString(), deleted, bytes }, updatedAt: at })
        .onConflictDoUpdate({ target: appState.key, set: { value: { at: at.toISOString(), deleted, bytes }, updatedAt: at } });
      if (deleted) log.info({ deleted, bytes }, 'retention: deletions made');
      return { deleted, bytes };
    },

    async view(lang: Language): Promise<RetentionView> {
      const [current, holds, [lastRun]] = await Promise.all([
        rules.get(),
        this.holds(lang),
        db.select().from(appState).where(eq(appState.key, LAST_RUN_KEY)),
      ]);
      return { rules: current, defaults: rules.defaults, holds, lastRun: (lastRun?.value as RetentionView['lastRun']) ?? null };
    },

    async setRules(actor: RequestUser, next: RetentionRules, ip: string): Promise<RetentionRules> {
      const before = await rules.get();
      await rules.set(next, actor.id, clock());
      await audit(actor.id, 'retention.rules_changed', 'retention', null, ip, { before, after: next });
      return rules.get();
    },

    async holds(lang: Language): Promise<LegalHold[]> {
      const rows = await db
        .select({
          videoId: legalHolds.videoId,
          reason: legalHolds.reason,
          heldAt: legalHolds.heldAt,
          heldById: legalHolds.heldById,
          surgeryFr: surgeries.nameFr,
          surgeryEn: surgeries.nameEn,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(legalHolds)
        .innerJoin(videos, eq(videos.id, legalHolds.videoId))
        .innerJoin(users, eq(users.id, videos.authorId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .orderBy(asc(legalHolds.heldAt));
      const heldBy = new Map<string, string>();
      for (const id of new Set(rows.map((r) => r.heldById).filter((id): id is string => id !== null))) {
        const [person] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id));
        if (person) heldBy.set(id, `${person.firstName} ${person.lastName}`);
      }
      return rows.map((r) => ({
        videoId: r.videoId,
        reason: r.reason,
        heldAt: r.heldAt.toISOString(),
        heldBy: r.heldById ? (heldBy.get(r.heldById) ?? null) : null,
        surgery: r.surgeryFr !== null && r.surgeryEn !== null ? localName({ nameFr: r.surgeryFr, nameEn: r.surgeryEn }, lang) : null,
        author: `${r.firstName} ${r.lastName}`,
      }));
    },

    async hold(actor: RequestUser, videoId: string, reason: string, ip: string): Promise<void> {
      const [video] = await db.select({ id: videos.id }).from(videos).where(eq(videos.id, videoId));
      if (!video) throw new AppError('NOT_FOUND');
      const now = clock();
      await db
        .insert(legalHolds)
        .values({ videoId, reason, heldById: actor.id, heldAt: now })
        .onConflictDoUpdate({ target: legalHolds.videoId, set: { reason, heldById: actor.id, heldAt: now } });
      await audit(actor.id, 'retention.hold_set', 'video', videoId, ip, { reason });
    },

    async release(actor: RequestUser, videoId: string, ip: string): Promise<void> {
      const [gone] = await db.delete(legalHolds).where(eq(legalHolds.videoId, videoId)).returning();
      if (!gone) throw new AppError('NOT_FOUND');
      await audit(actor.id, 'retention.hold_released', 'video', videoId, ip, { reason: gone.reason });
    },
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;
