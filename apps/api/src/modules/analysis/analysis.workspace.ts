import { and, asc, count, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { KPIS, type AnalysisDraft, type ExpertListItem, type ExpertWorkspace, type SaveAnalysisBody } from '@sutura/domain/analysis';
import { CLAIM_STATUSES, leaseHoursLeft } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { ListQuery } from '@sutura/domain/query';
import { nasaTlxRawScore } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import { analyses, organs, specialties, surgeries, users, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims, ClaimsTx } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
import { releaseRatings } from '../self-assessment/ratings-release.ts';
import type { VoiceStore } from './voice.ts';

type VideoRow = typeof videos.$inferSelect;
import type { CaseReads } from '../cases/case-read.ts';
import { FIELD_KEYS } from '../cases/case-views.ts';
import { localName, surgeryNamesOf } from '../cases/names.ts';
import type { AnalysisDrafts } from './analysis.drafts.ts';

/** A case an expert holds: its first review, or a further one. */
const HELD: string[] = [CLAIM_STATUSES.analysis.held, CLAIM_STATUSES.review.held];

/** When the video entered the analysis pool: the end of its render, else when it was sent. */
const pendingSince = sql<Date>`coalesce((select p.rendered_at from preparations p where p.video_id = ${videos.id}), ${videos.sentAt}, ${videos.createdAt})`;
const stepCount = sql<number>`(select count(*)::int from video_steps s where s.video_id = ${videos.id})`;

/** The expert's lists, workspace, draft, submit and voice advice. */
export function createAnalysisWorkspace(deps: {
  db: Db;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  claims: Claims;
  voice: VoiceStore;
  cases: CaseReads;
  drafts: AnalysisDrafts;
  inPool: (now: Date) => SQL;
  /** In the submit's transaction, once the last required review of a case reviewed twice or more is in. */
  /** In the submit's transaction of the last required review of a case reviewed more than once: true when flagged. */
  onReviewsComplete: (tx: ClaimsTx, videoId: string, stepIds: string[]) => Promise<boolean>;
  /** Once the flagging submit is committed. */
  onFlagged: (videoId: string) => Promise<void>;
  /** Once a review is committed: the ratings of the case's learner may have changed (learning curves). */
  onReviewSubmitted?: (authorId: string) => void;
  clock: () => Date;
}) {
  const { db, mediaService, notifications, audit, claims, voice, cases, drafts, inPool, onReviewsComplete, onFlagged, clock } = deps;
  const { stepsOf, draftOf, holderDraft, fenced, fencedWrite } = drafts;

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
      HELD.includes(video.status) && video.claimHolderId === viewer.id && video.leaseEndsAt !== null && video.leaseEndsAt > now;
    if (holding) return { video, holding, analysis: await holderDraft(video.id, viewer.id, db, video.reviewRound) };
    // Their own submitted review only: never another expert's (docs/double-review.md, blind reviews).
    const [analysis] = await db
      .select()
      .from(analyses)
      .where(and(eq(analyses.videoId, video.id), eq(analyses.expertId, viewer.id), eq(analyses.status, 'submitted')))
      .orderBy(desc(analyses.round));
    if (analysis) return { video, holding, analysis };
    throw notFound();
  }

  return {
    // ---- The expert's lists

    async pool(viewer: RequestUser, query: ListQuery, lang: Language) {
      // A further review is independent: a case the expert already reviewed is not in their pool.
      const notReviewed = sql`not exists (select 1 from analyses x where x.video_id = ${videos.id} and x.expert_id = ${viewer.id} and x.status = 'submitted')`;
      // Nor is a further review of the expert's own case.
      const notOwnFurther = sql`not (${videos.status} in ('pending_review', 'in_review') and ${videos.authorId} = ${viewer.id})`;
      const where = and(inPool(clock()), notReviewed, notOwnFurther, ...poolFilters(query.filter))!;
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

    async held(viewer: RequestUser, query: ListQuery, lang: Language) {
      const where = and(
        inArray(videos.status, HELD),
        eq(videos.claimHolderId, viewer.id),
        gt(videos.leaseEndsAt, clock()),
        ...poolFilters(query.filter),
      )!;
      const rows = await db
        .select(listColumns)
        .from(videos)
        .leftJoin(surgeries, eq(surgeries.id, videos.surgeryId))
        .leftJoin(organs, eq(organs.id, videos.organId))
        .where(where)
        .orderBy(asc(videos.leaseEndsAt), asc(videos.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      const [total] = await db.select({ total: count() }).from(videos).where(where);
      return {
        data: rows.map((r) => listItem(r, viewer.id, lang, true)),
        total: total?.total ?? 0,
        page: query.page,
        limit: query.limit,
      };
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

    // ---- The workspace and the draft

    async workspace(viewer: RequestUser, videoId: string, lang: Language): Promise<ExpertWorkspace> {
      const { video, holding, analysis } = await expertVideo(viewer, videoId);
      const { surgery, organ, keySteps } = await cases.refs(video, lang);
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
      const pictures = await cases.pictures(video.id);
      const steps = await stepsOf(video.id, lang);
      const fields: Record<string, unknown> = {};
      // The case fields an expert reads: everything the learner gave about the case, nothing about the learner.
      for (const key of FIELD_KEYS) if (video[key] !== null) fields[key] = video[key];
      return {
        id: video.id,
        status: video.status,
        surgery,
        organ,
        priority: video.priority,
        fields,
        keySteps,
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
          .where(
            and(
              eq(analyses.videoId, videoId),
              eq(analyses.round, draft.round),
              eq(analyses.status, 'draft'),
              eq(analyses.expertId, viewer.id),
            ),
          )
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
      const { draft, stage } = await fenced(viewer, videoId, fencingToken);
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
      // The claim module moves the video on only under the live token; the review follows in the
      // same transaction (an analysed video always has its submitted reviews), and the dashboards
      // hear of it once both are committed. A case needing another review goes to the review pool
      // for its next round; the last required review releases the result (docs/double-review.md).
      const { video, submitted, complete, flagged } = await claims.transaction(async (tx) => {
        const [current] = await tx.select().from(videos).where(eq(videos.id, videoId));
        const complete = !current || draft.round >= current.reviewsRequired;
        let flagged = false;
        const video = await claims.finish(stage, videoId, viewer.id, fencingToken, complete ? 'analysed' : 'pending_review', tx);
        const [submitted] = await tx
          .update(analyses)
          .set({ status: 'submitted', submittedAt: clock(), updatedAt: clock() })
          .where(
            and(
              eq(analyses.videoId, videoId),
              eq(analyses.round, draft.round),
              eq(analyses.status, 'draft'),
              eq(analyses.expertId, viewer.id),
            ),
          )
          .returning();
        if (complete) {
          await tx
            .update(videos)
            .set({ resultReleasedAt: current?.resultReleasedAt ?? clock() })
            .where(eq(videos.id, videoId));
          // A learner who already answered (or skipped) their self-assessment gets the ratings now;
          // the others once they do (docs/self-assessment.md). The dashboards hear of it with the claim.
          await releaseRatings(tx, videoId, clock());
          if (draft.round > 1) {
            flagged = await onReviewsComplete(
              tx,
              videoId,
              steps.map((s) => s.id),
            );
          }
        } else {
          await tx
            .update(videos)
            .set({ reviewRound: draft.round + 1, claimHolderId: null, leaseEndsAt: null })
            .where(eq(videos.id, videoId));
        }
        return { video, submitted, complete, flagged };
      });
      await audit(viewer.id, stage === 'review' ? 'review.submitted' : 'analysis.submitted', 'video', videoId, ip, {
        unrated: unrated.length,
        round: draft.round,
      });
      if (flagged) await onFlagged(videoId);
      deps.onReviewSubmitted?.(video.authorId);
      if (complete) {
        const [expert] = await db
          .select({ firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, viewer.id));
        await notifications.notify(
          video.authorId,
          'analysisSubmitted',
          {
            ...aboutCase(await surgeryNamesOf(db, video.surgeryId), video),
            expert: `${expert?.firstName ?? ''} ${expert?.lastName ?? ''}`.trim(),
          },
          `/videos/${videoId}`,
        );
      }
      return draftOf(submitted ?? draft, steps, viewer.id);
    },

    // ---- Voice advice

    /** Before reading an upload: 404 unless the caller is the video's current holder. */
    async assertHolding(viewer: RequestUser, videoId: string): Promise<void> {
      const [video] = await db.select({ holderId: videos.claimHolderId, status: videos.status }).from(videos).where(eq(videos.id, videoId));
      if (!video || !HELD.includes(video.status) || video.holderId !== viewer.id) throw notFound();
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
          .where(and(eq(analyses.videoId, videoId), eq(analyses.round, draft.round)));
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
        await tx
          .update(analyses)
          .set({ voiceMediaId: null, voiceDuration: null, updatedAt: clock() })
          .where(and(eq(analyses.videoId, videoId), eq(analyses.round, draft.round)));
        return draft;
      });
      await mediaService.remove(draft.voiceMediaId!);
      await audit(viewer.id, 'analysis.voice_removed', 'video', videoId, ip, { mediaId: draft.voiceMediaId });
    },
  };
}
