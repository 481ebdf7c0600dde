import { and, asc, count, desc, eq, gt, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { leaseHoursLeft, type ClaimResponse, type ReleaseResponse } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import {
  MAX_STEPS,
  MIN_STEPS,
  MIN_TRIM_SECONDS,
  PREPARATION_SOCKET_EVENTS,
  snapToFrame,
  type DraftStep,
  type HeldItem,
  type PoolChangedEvent,
  type PoolItem,
  type PreparationDetail,
  type PreparationDraft,
  type PreparationPhase,
  type PreparedItem,
  type RenderStatus,
  type Trim,
  type VideoStatusChangedEvent,
} from '@sutura/domain/preparation';
import type { ListQuery } from '@sutura/domain/query';
import type { MediaStatus, VideoStatus } from '@sutura/domain/videos';
import type { OrganIcon } from '@sutura/domain/vocabularies';
import type { Db } from '../../db/client.ts';
import { organs, preparations, surgeries, surgerySteps, videos, type StoredDraftStep } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';
import { localName, surgeryNamesOf } from '../cases/names.ts';
import { createStage, defineStage } from '../workflow/stage.ts';

type VideoRow = typeof videos.$inferSelect;
type PreparationRow = typeof preparations.$inferSelect;

const STAGE = 'preparation';
/** Half a frame: what separates two times that snap to the same frame. */
const halfFrame = (frameRate: number) => 0.5 / frameRate;
const uuid = z.uuid();

/** The frame rate the editor works at: the processed source's (always known once processed). */
export const frameRateOf = (video: Pick<VideoRow, 'frameRate'>) => video.frameRate ?? 25;

/** Video statuses after a submit: the work is the editor's, read-only. */
const SUBMITTED: readonly VideoStatus[] = ['processing', 'pending_analysis', 'in_analysis', 'analysed'];

/**
 * Checks and snaps kept ranges to the source's frames: inside the source, sorted, not
 * overlapping, each at least MIN_TRIM_SECONDS long.
 */
export function validateTrims(trims: readonly Trim[], duration: number, frameRate: number): Trim[] {
  const snapped = trims.map((t) => ({ start: snapToFrame(t.start, frameRate), end: snapToFrame(t.end, frameRate) }));
  let previousEnd = 0;
  for (const t of snapped) {
    if (t.end > duration + halfFrame(frameRate) || t.start < previousEnd - 1e-9) throw new AppError('TRIM_POSITION');
    if (t.end - t.start < MIN_TRIM_SECONDS - halfFrame(frameRate)) throw new AppError('TRIM_TOO_SHORT', { min: MIN_TRIM_SECONDS });
    previousEnd = t.end;
  }
  return snapped.map((t) => ({ start: t.start, end: Math.min(t.end, snapToFrame(duration, frameRate)) }));
}

/** A step's start and end must each fall inside a kept range, the end after the start. */
export function validateSteps(steps: readonly DraftStep[], trims: readonly Trim[], frameRate: number): DraftStep[] {
  if (steps.length > MAX_STEPS) throw new AppError('STEPS_MAX');
  const eps = 1e-6;
  const within = (time: number, edge: 'start' | 'end') =>
    trims.some((t) => (edge === 'start' ? time >= t.start - eps && time < t.end - eps : time > t.start + eps && time <= t.end + eps));
  return steps.map((step) => {
    const start = snapToFrame(step.start, frameRate);
    const end = snapToFrame(step.end, frameRate);
    if (end <= start) throw new AppError('STEP_ORDER');
    if (!within(start, 'start') || !within(end, 'end')) throw new AppError('STEP_OUTSIDE_TRIMS');
    return { ...step, start, end, name: step.surgeryStepId ? '' : step.name.trim() };
  });
}

export function createPreparationService(deps: {
  db: Db;
  claims: Claims;
  mediaService: MediaService;
  notifications: NotificationService;
  hub: RealtimeHub;
  queue: Queue;
  audit: Audit;
  clock: () => Date;
}) {
  const { db, claims, mediaService, notifications, hub, queue, audit, clock } = deps;

  function poolChanged(videoId: string, change: PoolChangedEvent['change']) {
    stage.poolChanged(videoId, change);
  }

  /** The author, and the editor working on it, follow the video's status live. */
  function statusChanged(video: Pick<VideoRow, 'id' | 'authorId'>, status: VideoStatus, editorId?: string | null) {
    const payload: VideoStatusChangedEvent = { videoId: video.id, status };
    hub.emitToUser(video.authorId, PREPARATION_SOCKET_EVENTS.videoStatusChanged, payload);
    if (editorId) hub.emitToUser(editorId, PREPARATION_SOCKET_EVENTS.videoStatusChanged, payload);
  }

  const surgeryNames = (surgeryId: string | null) => surgeryNamesOf(db, surgeryId);

  async function preparationOf(videoId: string): Promise<PreparationRow | undefined> {
    const [row] = await db.select().from(preparations).where(eq(preparations.videoId, videoId));
    return row;
  }

  /** Names of vocabulary steps in the reader's language; free names as they are. */
  async function namedSteps(steps: readonly StoredDraftStep[], lang: Language) {
    const ids = steps.map((s) => s.surgeryStepId).filter((id): id is string => id !== null);
    const vocabulary = ids.length ? await db.select().from(surgerySteps).where(inArray(surgerySteps.id, ids)) : [];
    const names = new Map(vocabulary.map((s) => [s.id, localName(s, lang)]));
    return steps.map((s) => ({ ...s, name: s.surgeryStepId ? (names.get(s.surgeryStepId) ?? s.name) : s.name }));
  }

  async function draftOf(video: VideoRow, prep: PreparationRow, lang: Language): Promise<PreparationDraft> {
    return {
      videoId: video.id,
      phase: prep.phase as PreparationPhase,
      trims: prep.trims,
      steps: await namedSteps(prep.steps, lang),
      fencingToken: video.fencingToken,
      leaseEndsAt: (video.leaseEndsAt ?? clock()).toISOString(),
      savedAt: prep.savedAt?.toISOString() ?? null,
    };
  }

  /** A fenced write: the holder's video and draft, or LEASE_LOST / 404. */
  async function held(viewer: RequestUser, videoId: string, fencingToken: number) {
    const video = await claims.assertHolder(STAGE, videoId, viewer.id, fencingToken);
    const prep = await preparationOf(videoId);
    if (!prep || prep.editorId !== viewer.id) throw new AppError('LEASE_LOST');
    return { video, prep };
  }

  function requirePhase(prep: PreparationRow, phase: PreparationPhase) {
    if (prep.phase !== phase) throw new AppError('PREPARATION_WRONG_PHASE');
  }

  /**
   * Writes the holder's draft under the claim, checked again with the video row locked: an
   * administrator ending the hold meanwhile makes it LEASE_LOST rather than a write after the end.
   */
  async function save(viewer: RequestUser, video: VideoRow, values: Partial<typeof preparations.$inferInsert>, lang: Language) {
    const [prep] = await claims.whileHolding(STAGE, video.id, viewer.id, video.fencingToken, (tx) =>
      tx
        .update(preparations)
        .set({ ...values, savedAt: clock() })
        .where(and(eq(preparations.videoId, video.id), eq(preparations.editorId, viewer.id)))
        .returning(),
    );
    if (!prep) throw new AppError('LEASE_LOST');
    return draftOf(video, prep, lang);
  }

  /** What the pool, held and prepared lists share. */
  const listColumns = {
    video: videos,
    surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
    organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
  };
  type ListRow = {
    video: VideoRow;
    surgery: { id: string; nameFr: string; nameEn: string } | null;
    organ: { id: string; nameFr: string; nameEn: string; icon: string } | null;
  };

  function poolItemOf(row: ListRow, viewerId: string, lang: Language): PoolItem {
    const { video } = row;
    const sentAt = video.sentAt ?? video.createdAt;
    return {
      id: video.id,
      surgery: row.surgery ? { id: row.surgery.id, name: localName(row.surgery, lang) } : null,
      organ: row.organ ? { id: row.organ.id, name: localName(row.organ, lang), icon: row.organ.icon as OrganIcon } : null,
      duration: video.duration,
      priority: video.priority,
      posterUrl: mediaService.urlFor(video.posterMediaId, viewerId),
      sentAt: sentAt.toISOString(),
      waitingSeconds: Math.max(0, Math.floor((clock().getTime() - sentAt.getTime()) / 1000)),
    };
  }

  function poolFilter(filter: Record<string, string>): SQL[] {
    const conditions: SQL[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (key !== 'surgeryId' && key !== 'organId') continue;
      if (!uuid.safeParse(value).success) throw new AppError('VALIDATION', {}, [{ path: `filter.${key}`, code: 'INVALID_VALUE' }]);
      conditions.push(eq(key === 'surgeryId' ? videos.surgeryId : videos.organId, value));
    }
    return conditions;
  }

  /** The preparation stage: the editors' pool, each claim with its draft, a release dropping it. */
  const stage = createStage(
    { db, claims, audit, notifications, hub, clock },
    defineStage<boolean>({
      name: STAGE,
      pool: { role: 'editor', event: PREPARATION_SOCKET_EVENTS.poolChanged },
      audit: { claimed: 'preparation.claimed', released: 'preparation.released' },
      leaseExpired: { notification: 'preparationLeaseExpired', link: '/editor' },
      /** The holder's draft: made at the first claim; another editor's is started afresh. Returns whether it is the first. */
      async onClaim(viewer, videoId) {
        const prep = await preparationOf(videoId);
        if (!prep) {
          await db.insert(preparations).values({ videoId, editorId: viewer.id }).onConflictDoNothing();
        } else if (prep.editorId !== viewer.id) {
          // Nobody sees another editor's draft: a new editor starts afresh.
          await db
            .update(preparations)
            .set({
              editorId: viewer.id,
              phase: 'trim',
              trims: [],
              steps: [],
              savedAt: null,
              submittedAt: null,
              renderStatus: 'idle',
              renderError: null,
            })
            .where(eq(preparations.videoId, videoId));
        }
        return !prep;
      },
      async afterClaim(_viewer, video, firstClaim) {
        // Sources sent before this stage existed have none yet.
        if (video.cutSuggestions === null) await queue.send('preparation.suggest', { videoId: video.id });
        statusChanged(video, 'in_preparation');
        if (firstClaim) {
          await notifications.notify(
            video.authorId,
            'videoInPreparation',
            aboutCase(await surgeryNames(video.surgeryId), video),
            `/videos/${video.id}`,
          );
        }
      },
      async onRelease(tx, videoId) {
        await tx
          .update(preparations)
          .set({ phase: 'trim', trims: [], steps: [], savedAt: null, submittedAt: null, renderStatus: 'idle', renderError: null })
          .where(eq(preparations.videoId, videoId));
      },
      async afterRelease(video) {
        statusChanged(video, 'pending_preparation');
      },
      async afterExpired(video) {
        statusChanged(video, 'pending_preparation');
      },
    }),
  );

  const service = {
    /** Videos waiting for an editor: the pool, and held ones whose lease ran out (free at once). */
    async pool(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(stage.inPool(clock()), ...poolFilter(query.filter));
      const rows = await db
        .select(listColumns)
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(videos.priority), sql`${videos.sentAt} asc nulls last`, asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(videos).where(where);
      return { data: rows.map((r) => poolItemOf(r, viewer.id, lang)), total: total?.total ?? 0, page: query.page, limit: query.limit };
    },

    /** The videos I hold under a live lease. */
    async held(viewer: RequestUser, lang: Language): Promise<{ data: HeldItem[] }> {
      const now = clock();
      const rows = await db
        .select({ ...listColumns, prep: preparations })
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .leftJoin(preparations, eq(preparations.videoId, videos.id))
        .where(and(eq(videos.status, 'in_preparation'), eq(videos.claimHolderId, viewer.id), gt(videos.leaseEndsAt, now)))
        .orderBy(asc(videos.leaseEndsAt));
      return {
        data: rows.map((r) => ({
          ...poolItemOf(r, viewer.id, lang),
          leaseEndsAt: r.video.leaseEndsAt!.toISOString(),
          hoursLeft: leaseHoursLeft(r.video.leaseEndsAt!, now),
          fencingToken: r.video.fencingToken,
          phase: (r.prep?.phase ?? 'trim') as PreparationPhase,
          renderStatus: (r.prep?.renderStatus ?? 'idle') as RenderStatus,
        })),
      };
    },

    /** The videos I submitted, newest first. */
    async prepared(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(eq(preparations.editorId, viewer.id), isNotNull(preparations.submittedAt), inArray(videos.status, [...SUBMITTED]));
      const rows = await db
        .select({ ...listColumns, prep: preparations })
        .from(preparations)
        .innerJoin(videos, eq(videos.id, preparations.videoId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(preparations.submittedAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db
        .select({ total: count() })
        .from(preparations)
        .innerJoin(videos, eq(videos.id, preparations.videoId))
        .where(where);
      const data: PreparedItem[] = rows.map((r) => ({
        ...poolItemOf(r, viewer.id, lang),
        status: r.video.status as VideoStatus,
        submittedAt: r.prep.submittedAt!.toISOString(),
        renderStatus: r.prep.renderStatus as RenderStatus,
        stepCount: r.prep.steps.length,
      }));
      return { data, total: total?.total ?? 0, page: query.page, limit: query.limit };
    },

    async claim(viewer: RequestUser, videoId: string, ip: string | null = null): Promise<ClaimResponse> {
      return stage.claim(viewer, videoId, ip);
    },

    /**
     * Gives the video back to the pool and drops its draft (docs/preparation.md): whoever claims it
     * next — another editor or the same one — starts from the untouched source. Both in one
     * transaction, so a refused release (LEASE_LOST) keeps the draft.
     */
    async release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string | null = null): Promise<ReleaseResponse> {
      return stage.release(viewer, videoId, fencingToken, ip);
    },

    /**
     * The page /editor/[id]: for the live holder, or the editor who submitted it (read-only).
     * A holder whose lease ran out is told so; anyone else gets 404.
     */
    async detail(viewer: RequestUser, videoId: string, lang: Language): Promise<PreparationDetail> {
      const now = clock();
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      const prep = video ? await preparationOf(videoId) : undefined;
      if (!video || !prep) throw notFound();
      if (prep.editorId !== viewer.id) {
        // Taken over after the lease ran out: its former holder is told, anyone else learns nothing.
        const stillInStage = video.status === 'pending_preparation' || video.status === 'in_preparation';
        if (stillInStage && (await claims.heldBefore(STAGE, videoId, viewer.id))) throw new AppError('LEASE_LOST');
        throw notFound();
      }
      const holding =
        video.status === 'in_preparation' && video.claimHolderId === viewer.id && video.leaseEndsAt !== null && video.leaseEndsAt > now;
      const submitted = SUBMITTED.includes(video.status as VideoStatus) && prep.submittedAt !== null;
      if (!holding && !submitted) {
        if (video.status === 'pending_preparation' || video.status === 'in_preparation') throw new AppError('LEASE_LOST');
        throw notFound();
      }
      const [surgery] = video.surgeryId ? await db.select().from(surgeries).where(eq(surgeries.id, video.surgeryId)) : [];
      const [organ] = video.organId ? await db.select().from(organs).where(eq(organs.id, video.organId)) : [];
      const vocabulary = video.surgeryId
        ? await db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, video.surgeryId)).orderBy(asc(surgerySteps.position))
        : [];
      const keySteps = vocabulary.filter((s) => video.keyStepIds.includes(s.id));
      const url = (id: string | null) => mediaService.urlFor(id, viewer.id);
      return {
        id: video.id,
        status: video.status as VideoStatus,
        mediaStatus: video.mediaStatus as MediaStatus,
        surgery: surgery ? { id: surgery.id, name: localName(surgery, lang) } : null,
        organ: organ ? { id: organ.id, name: localName(organ, lang), icon: organ.icon as OrganIcon } : null,
        priority: video.priority,
        keySteps: keySteps.map((s) => ({ id: s.id, name: localName(s, lang) })),
        // The source only to its holder; once rendered, the editor sees what experts will see.
        sourceUrl: holding ? url(video.videoMediaId) : null,
        renderedUrl: prep.renderStatus === 'done' && !holding ? url(video.videoMediaId) : null,
        posterUrl: url(video.posterMediaId),
        storyboard: mediaService.storyboardFor(video.storyboard, viewer.id),
        frameRate: frameRateOf(video),
        duration: video.duration ?? 0,
        width: video.width,
        height: video.height,
        phase: prep.phase as PreparationPhase,
        trims: prep.trims,
        steps: await namedSteps(prep.steps, lang),
        suggestions: video.cutSuggestions,
        leaseEndsAt: holding ? video.leaseEndsAt!.toISOString() : null,
        fencingToken: holding ? video.fencingToken : null,
        savedAt: prep.savedAt?.toISOString() ?? null,
        renderStatus: prep.renderStatus as RenderStatus,
        renderError: prep.renderError,
        // The names the editor may pick: retired steps (docs/admin-catalog.md) keep naming the drafts that have them.
        vocabulary: vocabulary.filter((s) => !s.retiredAt).map((s) => ({ id: s.id, name: localName(s, lang), position: s.position })),
      };
    },

    async saveTrims(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; trims: Trim[] },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      requirePhase(prep, 'trim');
      const trims = validateTrims(body.trims, video.duration ?? 0, frameRateOf(video));
      const draft = await save(viewer, video, { trims }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'trims', count: trims.length });
      return draft;
    },

    /** To steps once something is kept; back to trim drops every step (SPEC §5). */
    async setPhase(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; phase: PreparationPhase },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      if (body.phase === 'steps' && prep.trims.length === 0) throw new AppError('TRIMS_REQUIRED');
      const draft = await save(viewer, video, body.phase === 'steps' ? { phase: 'steps' } : { phase: 'trim', steps: [] }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'phase', phase: body.phase });
      return draft;
    },

    async saveSteps(
      viewer: RequestUser,
      videoId: string,
      body: { fencingToken: number; steps: DraftStep[] },
      lang: Language,
      ip: string | null = null,
    ) {
      const { video, prep } = await held(viewer, videoId, body.fencingToken);
      requirePhase(prep, 'steps');
      const steps = validateSteps(body.steps, prep.trims, frameRateOf(video));
      const vocabularyIds = steps.map((s) => s.surgeryStepId).filter((id): id is string => id !== null);
      if (vocabularyIds.length) {
        const known = video.surgeryId
          ? await db
              .select({ id: surgerySteps.id, retiredAt: surgerySteps.retiredAt })
              .from(surgerySteps)
              .where(and(eq(surgerySteps.surgeryId, video.surgeryId), inArray(surgerySteps.id, vocabularyIds)))
          : [];
        // A retired step (docs/admin-catalog.md) keeps naming the draft that already has it, nothing new.
        const drafted = new Set(prep.steps.map((s) => s.surgeryStepId));
        const ids = new Set(known.filter((k) => !k.retiredAt || drafted.has(k.id)).map((k) => k.id));
        const details = steps.flatMap((s, i) =>
          s.surgeryStepId && !ids.has(s.surgeryStepId) ? [{ path: `steps.${i}.surgeryStepId`, code: 'INVALID_VALUE' as const }] : [],
        );
        if (details.length) throw new AppError('VALIDATION', {}, details);
      }
      const draft = await save(viewer, video, { steps }, lang);
      await audit(viewer.id, 'preparation.saved', 'video', videoId, ip, { part: 'steps', count: steps.length });
      return draft;
    },

    /**
     * Hands the work to the render job: the video moves to processing in one conditional
     * update on the fencing token, so a stale holder's submit can never go through.
     */
    async submit(
      viewer: RequestUser,
      videoId: string,
      fencingToken: number,
      lang: Language,
      ip: string | null = null,
    ): Promise<PreparationDetail> {
      const { video, prep } = await held(viewer, videoId, fencingToken);
      requirePhase(prep, 'steps');
      if (prep.trims.length === 0) throw new AppError('TRIMS_REQUIRED');
      if (prep.steps.length < MIN_STEPS) throw new AppError('STEPS_MIN');
      if (prep.steps.some((s) => !s.surgeryStepId && !s.name.trim())) throw new AppError('STEPS_UNNAMED');
      validateSteps(prep.steps, prep.trims, frameRateOf(video));
      // The video moves to processing, its preparation to rendering and its render job into the
      // queue in one transaction: a processing video always has the render it waits for, even
      // when the process dies right after the commit.
      const updated = await claims.transaction(async (tx) => {
        await claims.finish(STAGE, videoId, viewer.id, fencingToken, 'processing', tx);
        const [updated] = await tx
          .update(preparations)
          .set({
            submittedAt: clock(),
            renderStatus: 'rendering',
            renderError: null,
            renderAttempt: sql`${preparations.renderAttempt} + 1`,
          })
          .where(eq(preparations.videoId, videoId))
          .returning({ attempt: preparations.renderAttempt });
        await queue.send('preparation.render', { videoId, attempt: updated!.attempt }, { tx });
        return updated;
      });
      await audit(viewer.id, 'preparation.submitted', 'video', videoId, ip, { steps: prep.steps.length, attempt: updated!.attempt });
      statusChanged(video, 'processing', viewer.id);
      return service.detail(viewer, videoId, lang);
    },

    /** For the periodic job: expired leases back to the pool, their editors told. */
    tidyExpiredLeases: () => stage.tidyExpiredLeases(),

    /** A video the learner just sent enters every editor's pool; its cuts are looked for. */
    async videoSent(videoId: string) {
      poolChanged(videoId, 'sent');
      await queue.send('preparation.suggest', { videoId });
    },

    poolChanged,
    statusChanged,
    surgeryNames,
  };
  return service;
}
export type PreparationService = ReturnType<typeof createPreparationService>;
