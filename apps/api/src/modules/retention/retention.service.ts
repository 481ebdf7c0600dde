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
import { localName, surgeryNamesOf } from '../cases/names.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
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

/** The case a deletion touched, read before it: what its owner is told once the run is over. */
interface Deleted {
  videoId: string;
  authorId: string;
  surgeryId: string | null;
  createdAt: Date;
  purpose: string;
  what: 'source' | 'failed_upload' | 'case';
  /** Whether an analysis of the case was submitted (it remains after a source deletion). */
  analysed: boolean;
}

const both = (fr: string, en: string) => ({ fr, en });
const plural = (n: number, fr: [string, string], en: [string, string]) =>
  both(`${n} ${n > 1 ? fr[1] : fr[0]}`, `${n} ${n === 1 ? en[0] : en[1]}`);
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
  notifications: Pick<NotificationService, 'notify'>;
  clock: () => Date;
  log: Logger;
}) {
  const { db, storage, uploads, rules, audit, notifications, clock, log } = deps;

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

  /** The case as its owner is told about it, read before the deletion. */
  async function caseOf(videoId: string, what: Deleted['what']): Promise<Deleted | null> {
    const { rows } = await db.execute<Row>(sql`
      SELECT v.author_id, v.surgery_id, v.created_at, v.purpose,
        EXISTS (SELECT 1 FROM analyses a WHERE a.video_id = v.id AND a.submitted_at IS NOT NULL) AS analysed
      FROM videos v WHERE v.id = ${videoId}`);
    const row = rows[0];
    if (!row) return null;
    return {
      videoId,
      authorId: row.author_id as string,
      surgeryId: (row.surgery_id as string | null) ?? null,
      createdAt: new Date(row.created_at as string | Date),
      purpose: row.purpose as string,
      what,
      analysed: row.analysed === true,
    };
  }

  /**
   * Tells each owner, once per case, what the run deleted of it, by which rule, and what remains
   * (a deleted case supersedes a deletion of its source in the same run).
   */
  async function tell(deleted: Map<string, Deleted>, r: RetentionRules) {
    for (const d of deleted.values()) {
      try {
        const about = aboutCase(await surgeryNamesOf(db, d.surgeryId), d);
        const link = d.what !== 'case' && d.purpose === 'case' ? `/videos/${d.videoId}` : null;
        if (d.what === 'source') {
          await notifications.notify(
            d.authorId,
            'retentionSourceDeleted',
            {
              ...about,
              period: plural(r.sourceDays, ['jour', 'jours'], ['day', 'days']),
              remains: d.analysed
                ? both('La vidéo préparée, ses étapes et son analyse demeurent.', 'The prepared video, its steps and its analysis remain.')
                : both('La vidéo préparée et ses étapes demeurent.', 'The prepared video and its steps remain.'),
            },
            link,
          );
        } else if (d.what === 'failed_upload') {
          await notifications.notify(
            d.authorId,
            'retentionUploadDeleted',
            { ...about, period: plural(r.uploadDays, ['jour', 'jours'], ['day', 'days']) },
            link,
          );
        } else {
          await notifications.notify(
            d.authorId,
            'retentionCaseDeleted',
            { ...about, period: plural(r.analysedYears ?? 0, ['an', 'ans'], ['year', 'years']) },
            link,
          );
        }
      } catch (err) {
        // The deletion is made and audited: a notification that fails is logged, never retried into a second one.
        log.warn({ err, videoId: d.videoId }, 'retention: owner not told');
      }
    }
  }

  /** Deletes one candidate; null when its row changed meanwhile (another run, a user, a hold). */
  async function remove(c: Candidate): Promise<Deleted | null> {
    if (!(await stillUnprotected(c.videoId))) return null;
    switch (c.rule) {
      case 'source': {
        const [row] = await db.select({ sourceMediaId: videos.sourceMediaId }).from(videos).where(eq(videos.id, c.videoId));
        if (row?.sourceMediaId !== c.mediaId) return null;
        const told = await caseOf(c.videoId, 'source');
        // The object first: a run cut short after it finds the row again and finishes.
        await storage.delete(c.keys[0]!);
        const done = await db.transaction(async (tx) => {
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
        return done ? told : null;
      }
      case 'uploads': {
        const key = c.keys[0]!;
        const [row] = await db
          .select({ uploadId: videos.uploadId, sourceKey: videos.sourceKey, mediaStatus: videos.mediaStatus })
          .from(videos)
          .where(eq(videos.id, c.videoId));
        if (!row || row.mediaStatus !== 'failed' || row.sourceKey !== key) return null;
        const told = await caseOf(c.videoId, 'failed_upload');
        await removeUploadFilesOf({ storage, uploads }, { uploadId: null, sourceKey: key });
        const done = await db.transaction(async (tx) => {
          const [done] = await tx
            .update(videos)
            .set({ sourceKey: null, sourceSize: null })
            .where(and(eq(videos.id, c.videoId), eq(videos.sourceKey, key)))
            .returning({ id: videos.id });
          if (!done) return false;
          await tx.insert(auditLog).values(auditRow(c, 'failed_upload'));
          return true;
        });
        return done ? told : null;
      }
      case 'analysed': {
        const [row] = await db.select().from(videos).where(eq(videos.id, c.videoId));
        if (!row) return null;
        const told = await caseOf(c.videoId, 'case');
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
        return gone ? told : null;
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
      const told = new Map<string, Deleted>();
      try {
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
              const gone = await remove(c);
              if (gone) {
                deleted += 1;
                bytes += c.bytes;
                if (gone.what === 'case' || !told.has(gone.videoId)) told.set(gone.videoId, gone);
              }
            }
          }
        }
      } finally {
        // What was deleted is told, even when the run stops on an error (the rest is the next run's).
        await tell(told, r);
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
