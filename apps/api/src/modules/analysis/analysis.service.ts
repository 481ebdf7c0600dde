import { and, asc, count, desc, eq, gt, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  activeTimes,
  ANALYSIS_LIMITS,
  ANALYSIS_SOCKET_EVENTS,
  type AnalysisPoolChangedEvent,
  KPIS,
  type AnalysisComment,
  type AnalysisDraft,
  type AnalysisResult,
  type AnalysisStep,
  type CommentBody,
  type ExpertListItem,
  type ExpertWorkspace,
  type Kpi,
  type RatingLevel,
  type SaveAnalysisBody,
} from '@sutura/domain/analysis';
import { leaseHoursLeft, type ClaimResponse } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import { nasaTlxRawScore, type VideoFields } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  analysisComments,
  media,
  organs,
  specialties,
  surgeries,
  surgerySteps,
  users,
  videoPictures,
  videoSteps,
  videos,
} from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { ClaimsTx } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';
import type { VoiceStore } from './voice.ts';

type VideoRow = typeof videos.$inferSelect;
type AnalysisRow = typeof analyses.$inferSelect;

/** What the analysis stage needs of the shared claim module (modules/claims). */
export interface AnalysisClaims {
  claim(
    stage: 'analysis',
    videoId: string,
    userId: string,
  ): Promise<ClaimResponse & { previous: { holderId: string | null; fencingToken: number } | null }>;
  release(stage: 'analysis', videoId: string, userId: string, fencingToken: number, tx?: ClaimsTx): Promise<unknown>;
  assertHolder(stage: 'analysis', videoId: string, userId: string, fencingToken: number): Promise<VideoRow>;
  finish(
    stage: 'analysis',
    videoId: string,
    userId: string,
    fencingToken: number,
    nextStatus: 'analysed',
    tx?: ClaimsTx,
  ): Promise<VideoRow>;
  transaction<T>(work: (tx: ClaimsTx) => Promise<T>): Promise<T>;
  whileHolding<T>(
    stage: 'analysis',
    videoId: string,
    userId: string,
    fencingToken: number,
    write: (tx: ClaimsTx, video: VideoRow) => Promise<T>,
  ): Promise<T>;
  sweepExpired(stages: readonly 'analysis'[]): Promise<{ videoId: string; holderId: string | null }[]>;
}

const localName = (row: { nameFr: string; nameEn: string }, lang: Language) => (lang === 'fr' ? row.nameFr : row.nameEn);

/** The case fields an expert reads: everything the learner gave about the case, nothing about the learner. */
const CASE_FIELDS = [
  'surgeryId',
  'organId',
  'keyStepIds',
  'equipmentBrand',
  'equipmentUsed',
  'ageRange',
  'patientSex',
  'bmi',
  'complication',
  'surgicalHistory',
  'radiationHistory',
  'medicalBackground',
  'mainHand',
  'surgeryDuration',
  'messageToProctor',
  'nasaTlx',
] as const satisfies readonly (keyof VideoFields & keyof VideoRow)[];

/** When the video entered the analysis pool: the end of its render, else when it was sent. */
const pendingSince = sql<Date>`coalesce((select p.rendered_at from preparations p where p.video_id = ${videos.id}), ${videos.sentAt}, ${videos.createdAt})`;
const stepCount = sql<number>`(select count(*)::int from video_steps s where s.video_id = ${videos.id})`;

export function createAnalysisService(deps: {
  db: Db;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  claims: AnalysisClaims;
  voice: VoiceStore;
  hub: RealtimeHub;
  clock: () => Date;
}) {
  const { db, mediaService, notifications, audit, claims, voice, hub, clock } = deps;

  function poolChanged(videoId: string, change: AnalysisPoolChangedEvent['change']) {
    const payload: AnalysisPoolChangedEvent = { videoId, change };
    hub.emitToRole('expert', ANALYSIS_SOCKET_EVENTS.poolChanged, payload);
  }

  async function surgeryOf(video: Pick<VideoRow, 'surgeryId'>) {
    const [surgery] = video.surgeryId ? await db.select().from(surgeries).where(eq(surgeries.id, video.surgeryId)) : [];
    return surgery ? { fr: surgery.nameFr, en: surgery.nameEn } : { fr: 'chirurgie', en: 'surgery' };
  }

  /** In the pool: waiting for an expert, or held under a lease that has run out (free at once). */
  const inPool = (now: Date) =>
    and(
      eq(videos.kind, 'video'),
      // An administrator's best-case video is no case (modules/best-cases).
      eq(videos.purpose, 'case'),
      or(eq(videos.status, 'pending_analysis'), and(eq(videos.status, 'in_analysis'), lte(videos.leaseEndsAt, now))),
    )!;

  async function stepsOf(videoId: string, lang: Language): Promise<AnalysisStep[]> {
    const rows = await db
      .select({ step: videoSteps, vocabulary: { nameFr: surgerySteps.nameFr, nameEn: surgerySteps.nameEn } })
      .from(videoSteps)
      .leftJoin(surgerySteps, eq(surgerySteps.id, videoSteps.surgeryStepId))
      .where(eq(videoSteps.videoId, videoId))
      .orderBy(asc(videoSteps.position));
    return rows.map(({ step, vocabulary }) => ({
      id: step.id,
      name: vocabulary ? localName(vocabulary, lang) : step.name,
      start: step.start,
      end: step.end,
      position: step.position,
    }));
  }

  async function commentsOf(videoId: string): Promise<AnalysisComment[]> {
    const rows = await db
      .select()
      .from(analysisComments)
      .where(eq(analysisComments.videoId, videoId))
      .orderBy(asc(analysisComments.start), asc(analysisComments.createdAt));
    return rows.map(commentOut);
  }

  function voiceOf(row: AnalysisRow, viewerId: string) {
    if (!row.voiceMediaId) return null;
    return {
      mediaId: row.voiceMediaId,
      url: mediaService.urlFor(row.voiceMediaId, viewerId)!,
      duration: row.voiceDuration ?? 0,
      contentType: 'audio/mp4',
    };
  }

  async function draftOf(row: AnalysisRow, steps: AnalysisStep[], viewerId: string): Promise<AnalysisDraft> {
    const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, (row.kpiRatings[k] as RatingLevel | undefined) ?? null])) as Record<
      Kpi,
      RatingLevel | null
    >;
    return {
      videoId: row.videoId,
      status: row.status === 'submitted' ? 'submitted' : 'draft',
      stepRatings: steps.map((s) => ({ stepId: s.id, rating: (row.stepRatings[s.id] as RatingLevel | undefined) ?? null })),
      kpiRatings,
      globalRating: (row.globalRating as RatingLevel | null) ?? null,
      assessment: row.assessment,
      advice: row.advice,
      voice: voiceOf(row, viewerId),
      comments: await commentsOf(row.videoId),
      updatedAt: row.updatedAt.toISOString(),
      submittedAt: row.submittedAt?.toISOString() ?? null,
    };
  }

  async function analysisRow(videoId: string, tx: Db | ClaimsTx = db): Promise<AnalysisRow | undefined> {
    const [row] = await tx.select().from(analyses).where(eq(analyses.videoId, videoId));
    return row;
  }

  /** The draft of the holder, made at the claim (or now, for a claim older than this module). */
  async function holderDraft(videoId: string, expertId: string, tx: Db | ClaimsTx = db): Promise<AnalysisRow> {
    const existing = await analysisRow(videoId, tx);
    if (existing && existing.expertId === expertId && existing.status === 'draft') return existing;
    if (existing?.status === 'submitted') throw new AppError('ANALYSIS_SUBMITTED');
    const [row] = await tx
      .insert(analyses)
      .values({ videoId, expertId, createdAt: clock(), updatedAt: clock() })
      .onConflictDoUpdate({
        target: analyses.videoId,
        set: { expertId, stepRatings: {}, kpiRatings: {}, globalRating: null, assessment: '', advice: '', updatedAt: clock() },
        where: eq(analyses.status, 'draft'),
      })
      .returning();
    if (!row) throw new AppError('ANALYSIS_SUBMITTED');
    return row;
  }

  /** Drops a draft with its comments and its voice file. */
  /** Deletes the video's draft (but `keepExpertId`'s); returns its voice comment, to remove once committed. */
  async function deleteDraft(tx: Db | ClaimsTx, videoId: string, keepExpertId?: string): Promise<string | null> {
    const conditions: SQL[] = [eq(analyses.videoId, videoId), eq(analyses.status, 'draft')];
    if (keepExpertId) conditions.push(or(ne(analyses.expertId, keepExpertId), sql`${analyses.expertId} is null`)!);
    const [removed] = await tx
      .delete(analyses)
      .where(and(...conditions))
      .returning();
    return removed?.voiceMediaId ?? null;
  }

  async function discardDraft(videoId: string, keepExpertId?: string) {
    const voiceMediaId = await deleteDraft(db, videoId, keepExpertId);
    if (voiceMediaId) await mediaService.remove(voiceMediaId);
  }

  /** The holder's write: the claim module checks the token, then the draft must still be a draft. */
  async function fenced(viewer: RequestUser, videoId: string, fencingToken: number) {
    const video = await claims.assertHolder('analysis', videoId, viewer.id, fencingToken);
    const draft = await holderDraft(videoId, viewer.id);
    return { video, draft };
  }

  /** The holder's write, in one transaction with the claim checked and held (see claims.whileHolding). */
  async function fencedWrite<T>(
    viewer: RequestUser,
    videoId: string,
    fencingToken: number,
    write: (tx: ClaimsTx, held: { video: VideoRow; draft: AnalysisRow }) => Promise<T>,
  ): Promise<T> {
    return claims.whileHolding('analysis', videoId, viewer.id, fencingToken, async (tx, video) =>
      write(tx, { video, draft: await holderDraft(videoId, viewer.id, tx) }),
    );
  }

  function listItem(
    r: {
      video: VideoRow;
      surgery: { id: string; nameFr: string; nameEn: string } | null;
      organ: { id: string; nameFr: string; nameEn: string; icon: string } | null;
      stepCount: number;
      pendingSince: Date | string;
      submittedAt?: Date | null;
    },
    viewerId: string,
    lang: Language,
    held: boolean,
  ): ExpertListItem {
    const now = clock();
    const since = new Date(r.pendingSince);
    return {
      id: r.video.id,
      surgery: r.surgery ? { id: r.surgery.id, name: localName(r.surgery, lang) } : null,
      organ: r.organ ? { id: r.organ.id, name: localName(r.organ, lang), icon: r.organ.icon } : null,
      priority: r.video.priority,
      duration: r.video.duration,
      stepCount: Number(r.stepCount),
      posterUrl: mediaService.urlFor(r.video.posterMediaId, viewerId),
      pendingSince: since.toISOString(),
      waitingHours: Math.max(0, Math.floor((now.getTime() - since.getTime()) / 3600_000)),
      leaseEndsAt: held && r.video.leaseEndsAt ? r.video.leaseEndsAt.toISOString() : null,
      hoursLeft: held && r.video.leaseEndsAt ? leaseHoursLeft(r.video.leaseEndsAt, now) : null,
      submittedAt: r.submittedAt ? r.submittedAt.toISOString() : null,
    };
  }

  const listColumns = {
    video: videos,
    surgery: { id: surgeries.id, nameFr: surgeries.nameFr, nameEn: surgeries.nameEn },
    organ: { id: organs.id, nameFr: organs.nameFr, nameEn: organs.nameEn, icon: organs.icon },
    stepCount,
    pendingSince,
  };

  function poolFilters(filter: ListQuery['filter']): SQL[] {
    const out: SQL[] = [];
    for (const [key, value] of Object.entries(filter)) {
      const ok = /^[0-9a-f-]{36}$/i.test(value);
      if ((key !== 'surgeryId' && key !== 'organId') || !ok) {
        throw new AppError('VALIDATION', {}, [{ path: `filter.${key}`, code: 'INVALID_VALUE' }]);
      }
      out.push(eq(key === 'surgeryId' ? videos.surgeryId : videos.organId, value));
    }
    return out;
  }

  /** The video of an expert's workspace: held by them under a live lease, or analysed by them. */
  async function expertVideo(viewer: RequestUser, videoId: string) {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    if (!video) throw notFound();
    const now = clock();
    const holding =
      video.status === 'in_analysis' && video.claimHolderId === viewer.id && video.leaseEndsAt !== null && video.leaseEndsAt > now;
    if (holding) return { video, holding, analysis: await holderDraft(video.id, viewer.id) };
    const analysis = await analysisRow(video.id);
    if (video.status === 'analysed' && analysis?.status === 'submitted' && analysis.expertId === viewer.id) {
      return { video, holding, analysis };
    }
    throw notFound();
  }

  /** Who may read a submitted analysis: its learner, and administrators; 404 for anyone else. */
  async function readableResult(viewer: RequestUser, videoId: string) {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    const isAuthor = video?.authorId === viewer.id;
    const isAdmin = viewer.roles.includes('administrator');
    if (!video || (!isAuthor && !isAdmin)) throw notFound();
    const analysis = await analysisRow(video.id);
    if (video.status !== 'analysed' || analysis?.status !== 'submitted') throw new AppError('ANALYSIS_NOT_READY');
    return { video, analysis, isAuthor };
  }

  return {
    /** For the periodic job: expired leases back to the pool, their drafts dropped, their experts told. */
    async tidyExpiredLeases(): Promise<number> {
      const expired = await claims.sweepExpired(['analysis']);
      for (const claim of expired) {
        await discardDraft(claim.videoId);
        poolChanged(claim.videoId, 'returned');
        const [video] = await db.select().from(videos).where(eq(videos.id, claim.videoId));
        if (video && claim.holderId) {
          await notifications.notify(claim.holderId, 'analysisLeaseExpired', aboutCase(await surgeryOf(video), video), '/expert');
        }
      }
      return expired.length;
    },

    /** An administrator ended the expert's claim: the draft goes, the pool hears of the video. */
    async claimForceReleased(videoId: string, voiceMediaId: string | null): Promise<void> {
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
      poolChanged(videoId, 'returned');
    },

    /** The draft of a claim an administrator ends, deleted in that release's transaction. */
    draftReleased(tx: ClaimsTx, videoId: string): Promise<string | null> {
      return deleteDraft(tx, videoId);
    },

    // ---- The expert's lists

    async pool(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(inPool(clock()), ...poolFilters(query.filter))!;
      const rows = await db
        .select(listColumns)
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(videos.priority), asc(pendingSince), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(videos).where(where);
      return {
        data: rows.map((r) => listItem(r, viewer.id, lang, false)),
        total: total?.total ?? 0,
        page: query.page,
        limit: query.limit,
      };
    },

    async held(viewer: RequestUser, lang: Language) {
      const rows = await db
        .select(listColumns)
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(and(eq(videos.status, 'in_analysis'), eq(videos.claimHolderId, viewer.id), gt(videos.leaseEndsAt, clock())))
        .orderBy(asc(videos.leaseEndsAt));
      return { data: rows.map((r) => listItem(r, viewer.id, lang, true)) };
    },

    async analysed(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(eq(analyses.expertId, viewer.id), eq(analyses.status, 'submitted'))!;
      const rows = await db
        .select({ ...listColumns, submittedAt: analyses.submittedAt })
        .from(analyses)
        .innerJoin(videos, eq(videos.id, analyses.videoId))
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(desc(analyses.submittedAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(analyses).where(where);
      return {
        data: rows.map((r) => listItem(r, viewer.id, lang, false)),
        total: total?.total ?? 0,
        page: query.page,
        limit: query.limit,
      };
    },

    // ---- Claim, release (abandon)

    /** Through the shared claim module; a draft left by another expert's expired lease is dropped. */
    async claim(viewer: RequestUser, videoId: string, ip: string): Promise<ClaimResponse> {
      const granted = await claims.claim('analysis', videoId, viewer.id);
      await discardDraft(videoId, viewer.id);
      await holderDraft(videoId, viewer.id);
      await audit(viewer.id, 'analysis.claimed', 'video', videoId, ip, { fencingToken: granted.fencingToken });
      poolChanged(videoId, 'claimed');
      // Taken over from an expired lease the sweep had not tidied yet: its expert is told.
      if (granted.previous?.holderId && granted.previous.holderId !== viewer.id) {
        const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
        await notifications.notify(
          granted.previous.holderId,
          'analysisLeaseExpired',
          aboutCase(await surgeryOf(video!), video!),
          '/expert',
        );
      }
      return { videoId, stage: 'analysis', fencingToken: granted.fencingToken, leaseEndsAt: granted.leaseEndsAt };
    },

    /** Abandon: the draft is discarded and the video goes back to the pool. */
    async release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string) {
      // The video back in the pool and its draft gone, together.
      const voiceMediaId = await claims.transaction(async (tx) => {
        await claims.release('analysis', videoId, viewer.id, fencingToken, tx);
        return deleteDraft(tx, videoId);
      });
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
      await audit(viewer.id, 'analysis.abandoned', 'video', videoId, ip);
      poolChanged(videoId, 'returned');
      return { videoId, released: true as const };
    },

    // ---- The workspace and the draft

    async workspace(viewer: RequestUser, videoId: string, lang: Language): Promise<ExpertWorkspace> {
      const { video, holding, analysis } = await expertVideo(viewer, videoId);
      const [surgery] = video.surgeryId ? await db.select().from(surgeries).where(eq(surgeries.id, video.surgeryId)) : [];
      const [organ] = video.organId ? await db.select().from(organs).where(eq(organs.id, video.organId)) : [];
      const keySteps = video.keyStepIds.length
        ? await db.select().from(surgerySteps).where(inArray(surgerySteps.id, video.keyStepIds)).orderBy(asc(surgerySteps.position))
        : [];
      const [learner] = await db
        .select({
          specialtyFr: specialties.nameFr,
          specialtyEn: specialties.nameEn,
          yearsOfExperience: users.yearsOfExperience,
          yearsOfRoboticExperience: users.yearsOfRoboticExperience,
          robot: users.robot,
        })
        .from(users)
        .leftJoin(specialties, eq(specialties.id, users.specialtyId))
        .where(eq(users.id, video.authorId));
      const pictures = await db
        .select({ id: videoPictures.id, mediaId: videoPictures.mediaId, width: media.width, height: media.height })
        .from(videoPictures)
        .innerJoin(media, eq(media.id, videoPictures.mediaId))
        .where(eq(videoPictures.videoId, video.id))
        .orderBy(asc(videoPictures.position), asc(videoPictures.createdAt));
      const steps = await stepsOf(video.id, lang);
      const fields: Record<string, unknown> = {};
      for (const key of CASE_FIELDS) if (video[key] !== null) fields[key] = video[key];
      return {
        id: video.id,
        status: video.status,
        surgery: surgery ? { id: surgery.id, name: localName(surgery, lang) } : null,
        organ: organ ? { id: organ.id, name: localName(organ, lang), icon: organ.icon } : null,
        priority: video.priority,
        fields,
        keySteps: keySteps.map((s) => ({ id: s.id, name: localName(s, lang) })),
        nasaTlx: video.nasaTlx,
        nasaTlxRawScore: video.nasaTlx ? nasaTlxRawScore(video.nasaTlx) : null,
        learner: {
          specialty: learner?.specialtyFr ? (lang === 'fr' ? learner.specialtyFr : (learner.specialtyEn ?? null)) : null,
          yearsOfExperience: learner?.yearsOfExperience ?? null,
          yearsOfRoboticExperience: learner?.yearsOfRoboticExperience ?? null,
          robot: learner?.robot ?? null,
        },
        videoUrl: mediaService.urlFor(video.videoMediaId, viewer.id),
        posterUrl: mediaService.urlFor(video.posterMediaId, viewer.id),
        duration: video.duration,
        pictures: pictures.map((p) => ({ id: p.id, url: mediaService.urlFor(p.mediaId, viewer.id)!, width: p.width, height: p.height })),
        steps,
        fencingToken: holding ? video.fencingToken : null,
        leaseEndsAt: holding && video.leaseEndsAt ? video.leaseEndsAt.toISOString() : null,
        hoursLeft: holding && video.leaseEndsAt ? leaseHoursLeft(video.leaseEndsAt, clock()) : null,
        draft: await draftOf(analysis, steps, viewer.id),
      };
    },

    /** Autosave: only the fields sent change; a step that is not on the video is refused. */
    async save(
      viewer: RequestUser,
      videoId: string,
      body: SaveAnalysisBody,
      lang: Language,
      ip: string | null = null,
    ): Promise<AnalysisDraft> {
      const steps = await stepsOf(videoId, lang);
      const saved = await fencedWrite(viewer, videoId, body.fencingToken, async (tx, { draft }) => {
        const changes: Partial<typeof analyses.$inferInsert> = { updatedAt: clock() };
        if (body.stepRatings) {
          const known = new Set(steps.map((s) => s.id));
          const unknown = body.stepRatings.findIndex((r) => !known.has(r.stepId));
          if (unknown >= 0) throw new AppError('VALIDATION', {}, [{ path: `stepRatings.${unknown}.stepId`, code: 'INVALID_VALUE' }]);
          const merged = { ...draft.stepRatings };
          for (const r of body.stepRatings) merged[r.stepId] = r.rating;
          changes.stepRatings = merged;
        }
        if (body.kpiRatings) changes.kpiRatings = { ...draft.kpiRatings, ...body.kpiRatings };
        if (body.globalRating !== undefined) changes.globalRating = body.globalRating;
        if (body.assessment !== undefined) changes.assessment = body.assessment;
        if (body.advice !== undefined) changes.advice = body.advice;
        const [saved] = await tx
          .update(analyses)
          .set(changes)
          .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'draft'), eq(analyses.expertId, viewer.id)))
          .returning();
        if (!saved) throw new AppError('ANALYSIS_SUBMITTED');
        return saved;
      });
      // What was saved, never its text (advice and assessment are the expert's words).
      const fields = Object.keys(body).filter((k) => k !== 'fencingToken');
      await audit(viewer.id, 'analysis.saved', 'video', videoId, ip, { fields });
      return draftOf(saved, steps, viewer.id);
    },

    /**
     * Submits: without confirmAnyway, any unrated step or KPI refuses it (SPEC §5) with the list
     * in the error's details. The video becomes analysed and the learner is told.
     */
    async finalize(viewer: RequestUser, videoId: string, fencingToken: number, confirmAnyway: boolean, ip: string, lang: Language) {
      const { draft } = await fenced(viewer, videoId, fencingToken);
      const steps = await stepsOf(videoId, lang);
      const unrated = [
        ...steps.filter((s) => !draft.stepRatings[s.id]).map((s) => `stepRatings.${s.id}`),
        ...KPIS.filter((k) => !draft.kpiRatings[k]).map((k) => `kpiRatings.${k}`),
      ];
      if (unrated.length && !confirmAnyway) {
        throw new AppError(
          'ANALYSIS_UNRATED',
          {},
          unrated.map((path) => ({ path, code: 'FIELD_REQUIRED' as const })),
        );
      }
      // The claim module moves the video on only under the live token; the analysis follows in
      // the same transaction (an analysed video always has its submitted analysis), and the
      // dashboards hear of it once both are committed.
      const { video, submitted } = await claims.transaction(async (tx) => {
        const video = await claims.finish('analysis', videoId, viewer.id, fencingToken, 'analysed', tx);
        const [submitted] = await tx
          .update(analyses)
          .set({ status: 'submitted', submittedAt: clock(), updatedAt: clock() })
          .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'draft'), eq(analyses.expertId, viewer.id)))
          .returning();
        return { video, submitted };
      });
      await audit(viewer.id, 'analysis.submitted', 'video', videoId, ip, { unrated: unrated.length });
      const [expert] = await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, viewer.id));
      await notifications.notify(
        video.authorId,
        'analysisSubmitted',
        {
          ...aboutCase(await surgeryOf(video), video),
          expert: `${expert?.firstName ?? ''} ${expert?.lastName ?? ''}`.trim(),
        },
        `/videos/${videoId}`,
      );
      return draftOf(submitted ?? draft, steps, viewer.id);
    },

    // ---- Time-coded comments (the holder's own analysis only)

    async addComment(viewer: RequestUser, videoId: string, body: CommentBody, ip: string | null = null): Promise<AnalysisComment> {
      const row = await fencedWrite(viewer, videoId, body.fencingToken, async (tx, { video }) => {
        checkCommentTimes(body, video.duration);
        const [n] = await tx.select({ n: count() }).from(analysisComments).where(eq(analysisComments.videoId, videoId));
        if ((n?.n ?? 0) >= ANALYSIS_LIMITS.commentsMax) throw new AppError('COMMENTS_LIMIT', { max: ANALYSIS_LIMITS.commentsMax });
        const [row] = await tx
          .insert(analysisComments)
          .values({
            videoId,
            start: body.start,
            end: body.end ?? null,
            text: body.text,
            drawing: body.drawing ?? null,
            createdAt: clock(),
            updatedAt: clock(),
          })
          .returning();
        return row;
      });
      await audit(viewer.id, 'analysis.comment_added', 'video', videoId, ip, { commentId: row!.id });
      return commentOut(row!);
    },

    async updateComment(
      viewer: RequestUser,
      videoId: string,
      commentId: string,
      body: CommentBody,
      ip: string | null = null,
    ): Promise<AnalysisComment> {
      const row = await fencedWrite(viewer, videoId, body.fencingToken, async (tx, { video }) => {
        checkCommentTimes(body, video.duration);
        const [row] = await tx
          .update(analysisComments)
          // A drawing left out stays as it is; null removes it.
          .set({
            start: body.start,
            end: body.end ?? null,
            text: body.text,
            ...(body.drawing !== undefined && { drawing: body.drawing }),
            updatedAt: clock(),
          })
          .where(and(eq(analysisComments.id, commentId), eq(analysisComments.videoId, videoId)))
          .returning();
        if (!row) throw notFound();
        return row;
      });
      await audit(viewer.id, 'analysis.comment_updated', 'video', videoId, ip, { commentId });
      return commentOut(row);
    },

    async removeComment(
      viewer: RequestUser,
      videoId: string,
      commentId: string,
      fencingToken: number,
      ip: string | null = null,
    ): Promise<void> {
      await fencedWrite(viewer, videoId, fencingToken, async (tx) => {
        const [row] = await tx
          .delete(analysisComments)
          .where(and(eq(analysisComments.id, commentId), eq(analysisComments.videoId, videoId)))
          .returning({ id: analysisComments.id });
        if (!row) throw notFound();
      });
      await audit(viewer.id, 'analysis.comment_removed', 'video', videoId, ip, { commentId });
    },

    // ---- Voice advice

    /** Before reading an upload: 404 unless the caller is the video's current holder. */
    async assertHolding(viewer: RequestUser, videoId: string): Promise<void> {
      const [video] = await db.select({ holderId: videos.claimHolderId, status: videos.status }).from(videos).where(eq(videos.id, videoId));
      if (!video || video.status !== 'in_analysis' || video.holderId !== viewer.id) throw notFound();
    },

    /** Checked and transcoded by the voice store; replaces the previous recording. */
    async setVoice(viewer: RequestUser, videoId: string, fencingToken: number, file: string, ip: string | null = null) {
      await fenced(viewer, videoId, fencingToken);
      const stored = await voice.store(viewer.id, videoId, file);
      // Checked again after the transcode: the lease may have ended meanwhile.
      const draft = await fencedWrite(viewer, videoId, fencingToken, async (tx, { draft }) => {
        await tx
          .update(analyses)
          .set({ voiceMediaId: stored.mediaId, voiceDuration: stored.duration, updatedAt: clock() })
          .where(eq(analyses.videoId, videoId));
        return draft;
      }).catch(async (err: unknown) => {
        await mediaService.remove(stored.mediaId);
        throw err;
      });
      if (draft.voiceMediaId) await mediaService.remove(draft.voiceMediaId);
      await audit(viewer.id, 'analysis.voice_set', 'video', videoId, ip, { mediaId: stored.mediaId, duration: stored.duration });
      return {
        mediaId: stored.mediaId,
        url: mediaService.urlFor(stored.mediaId, viewer.id)!,
        duration: stored.duration,
        contentType: 'audio/mp4',
      };
    },

    async removeVoice(viewer: RequestUser, videoId: string, fencingToken: number, ip: string | null = null): Promise<void> {
      const draft = await fencedWrite(viewer, videoId, fencingToken, async (tx, { draft }) => {
        if (!draft.voiceMediaId) throw notFound();
        await tx.update(analyses).set({ voiceMediaId: null, voiceDuration: null, updatedAt: clock() }).where(eq(analyses.videoId, videoId));
        return draft;
      });
      await mediaService.remove(draft.voiceMediaId!);
      await audit(viewer.id, 'analysis.voice_removed', 'video', videoId, ip, { mediaId: draft.voiceMediaId });
    },

    // ---- The learner's result

    /** Once submitted, for its learner (ratings only with their showRatings on) and administrators. */
    async result(viewer: RequestUser, videoId: string, lang: Language): Promise<AnalysisResult> {
      const { video, analysis, isAuthor } = await readableResult(viewer, videoId);
      const ratingsShown = isAuthor ? viewer.preferences.showRatings : true;
      const rating = (value: number | null | undefined) => (ratingsShown && value ? (value as RatingLevel) : null);
      const steps = await stepsOf(video.id, lang);
      const [expert] = analysis.expertId
        ? await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, analysis.expertId))
        : [];
      const times = activeTimes(steps, video.duration ?? 0);
      return {
        videoId: video.id,
        ratingsShown,
        expert: expert ?? { id: analysis.expertId ?? '', firstName: '', lastName: '' },
        submittedAt: analysis.submittedAt!.toISOString(),
        globalRating: rating(analysis.globalRating),
        assessment: analysis.assessment,
        advice: analysis.advice,
        voice: voiceOf(analysis, viewer.id),
        kpis: KPIS.map((kpi) => ({ kpi, rating: rating(analysis.kpiRatings[kpi]) })),
        steps: steps.map((s) => ({ ...s, duration: Math.round((s.end - s.start) * 10) / 10, rating: rating(analysis.stepRatings[s.id]) })),
        activeTime: times.active,
        nonActiveTime: times.nonActive,
        comments: await commentsOf(video.id),
        reportUrl: `/v1/videos/${video.id}/analysis/report`,
      };
    },

    /** What the PDF report needs, with the same reading rules as the result. */
    async reportData(viewer: RequestUser, videoId: string, lang: Language) {
      const result = await this.result(viewer, videoId, lang);
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      const [surgery] = video!.surgeryId ? await db.select().from(surgeries).where(eq(surgeries.id, video!.surgeryId)) : [];
      const [organ] = video!.organId ? await db.select().from(organs).where(eq(organs.id, video!.organId)) : [];
      return { result, video: video!, surgery: surgery ? localName(surgery, lang) : null, organ: organ ? localName(organ, lang) : null };
    },
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;

function commentOut(c: typeof analysisComments.$inferSelect): AnalysisComment {
  return {
    id: c.id,
    start: c.start,
    end: c.end,
    text: c.text,
    drawing: c.drawing ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A comment lies on the rendered video. */
function checkCommentTimes(body: CommentBody, duration: number | null) {
  if (duration === null) return;
  // A playhead may sit a frame past the last one.
  const limit = duration + 0.5;
  if (body.start > limit) throw new AppError('VALIDATION', {}, [{ path: 'start', code: 'INVALID_VALUE' }]);
  if (body.end != null && body.end > limit) throw new AppError('VALIDATION', {}, [{ path: 'end', code: 'INVALID_VALUE' }]);
  if (body.drawing && body.drawing.time > limit) throw new AppError('VALIDATION', {}, [{ path: 'drawing.time', code: 'INVALID_VALUE' }]);
}
