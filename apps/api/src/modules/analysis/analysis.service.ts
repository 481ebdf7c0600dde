import { and, eq, or } from 'drizzle-orm';
import { ANALYSIS_SOCKET_EVENTS } from '@sutura/domain/analysis';
import type { ClaimResponse } from '@sutura/domain/claims';
import type { Db } from '../../db/client.ts';
import { analyses, videos } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Audit } from '../audit/audit.service.ts';
import { createCaseReads } from '../cases/case-read.ts';
import type { Claims, ClaimsTx } from '../claims/claims.service.ts';
import type { DashboardEvents } from '../dashboard/dashboard.events.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService, RealtimeHub } from '../notifications/notifications.service.ts';
import { createStage, defineStage } from '../workflow/stage.ts';
import { createAnalysisComments } from './analysis.comments.ts';
import { createAnalysisDrafts } from './analysis.drafts.ts';
import { createAnalysisResult } from './analysis.result.ts';
import { createAnalysisWorkspace } from './analysis.workspace.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { VoiceStore } from './voice.ts';

/**
 * A review stage: round 1 is the analysis stage, rounds 2 and 3 (a second and third independent
 * review, docs/double-review.md) the review stage; each has its pool, a claim with a fresh draft
 * of the case's current round, an abandon (release) dropping it. The draft's voice file, deleted
 * with its row, is removed once the release committed.
 */
export const analysisStage = (drafts: ReturnType<typeof createAnalysisDrafts>, mediaService: MediaService, stage: 'analysis' | 'review') =>
  defineStage<void, string | null>({
    name: stage,
    pool: { role: 'expert', event: ANALYSIS_SOCKET_EVENTS.poolChanged },
    audit:
      stage === 'analysis'
        ? { claimed: 'analysis.claimed', released: 'analysis.abandoned' }
        : { claimed: 'review.claimed', released: 'review.abandoned' },
    leaseExpired: { notification: 'analysisLeaseExpired', link: '/expert' },
    /** A draft left by another expert's expired lease is dropped; the holder's is made. */
    async onClaim(viewer, videoId) {
      const { round } = await drafts.roundOf(videoId);
      await drafts.discardDraft(videoId, viewer.id, round);
      await drafts.holderDraft(videoId, viewer.id, undefined, round);
    },
    onRelease: async (tx, videoId) => drafts.deleteDraft(tx, videoId, undefined, (await drafts.roundOf(videoId, tx)).round),
    async afterRelease(_video, voiceMediaId) {
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
    },
    onExpired: async (claim) => drafts.discardDraft(claim.videoId, undefined, (await drafts.roundOf(claim.videoId)).round),
  });

export function createAnalysisService(deps: {
  db: Db;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  claims: Claims;
  voice: VoiceStore;
  hub: RealtimeHub;
  review: Pick<ReviewService, 'recordDisagreement' | 'tellFlagged' | 'ofCase'>;
  dashboardEvents: Pick<DashboardEvents, 'changed'>;
  /** A case's ratings reached its learner, or a review of a case already rated was submitted (modules/programmes). */
  onRatingsChanged?: (authorId: string) => void;
  clock: () => Date;
}) {
  const { db, mediaService, notifications, audit, claims, voice, hub, review: reviews, dashboardEvents, clock } = deps;
  const cases = createCaseReads(db);
  const drafts = createAnalysisDrafts({ db, mediaService, claims, cases, clock });
  const stageDeps = { db, claims, audit, notifications, hub, clock };
  const stage = createStage(stageDeps, analysisStage(drafts, mediaService, 'analysis'));
  const review = createStage(stageDeps, analysisStage(drafts, mediaService, 'review'));
  /** The stage a case is claimed at: the review stage once its first review is in. */
  async function stageOf(videoId: string) {
    return (await drafts.roundOf(videoId)).stage === 'review' ? review : stage;
  }
  const workspace = createAnalysisWorkspace({
    db,
    mediaService,
    notifications,
    audit,
    claims,
    voice,
    cases,
    drafts,
    inPool: (now: Date) => or(stage.inPool(now), review.inPool(now))!,
    onReviewsComplete: (tx, videoId, stepIds) => reviews.recordDisagreement(tx, videoId, stepIds),
    onFlagged: (videoId) => reviews.tellFlagged(videoId),
    ...(deps.onRatingsChanged ? { onReviewSubmitted: deps.onRatingsChanged } : {}),
    clock,
  });

  /** Whether the person is the case's author. */
  async function authorOf(userId: string, videoId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: videos.id })
      .from(videos)
      .where(and(eq(videos.id, videoId), eq(videos.authorId, userId)));
    return Boolean(row);
  }

  /** Whether the expert submitted a review of the case (any round). */
  async function reviewedBy(expertId: string, videoId: string): Promise<boolean> {
    const [row] = await db
      .select({ round: analyses.round })
      .from(analyses)
      .where(and(eq(analyses.videoId, videoId), eq(analyses.expertId, expertId), eq(analyses.status, 'submitted')));
    return Boolean(row);
  }

  return {
    /** For the periodic job: expired leases back to the pool, their drafts dropped, their experts told. */
    tidyExpiredLeases: async () => (await stage.tidyExpiredLeases()) + (await review.tidyExpiredLeases()),

    /** An administrator ended the expert's claim: the draft goes, the pool hears of the video. */
    async claimForceReleased(videoId: string, voiceMediaId: string | null): Promise<void> {
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
      (await stageOf(videoId)).poolChanged(videoId, 'returned');
    },

    /** The draft of a claim an administrator ends, deleted in that release's transaction. */
    async draftReleased(tx: ClaimsTx, videoId: string): Promise<string | null> {
      return drafts.deleteDraft(tx, videoId, undefined, (await drafts.roundOf(videoId, tx)).round);
    },

    /** Through the shared claim module (see analysisStage). */
    async claim(viewer: RequestUser, videoId: string, ip: string): Promise<ClaimResponse> {
      const at = await stageOf(videoId);
      // A further review is independent: never by an expert who already reviewed the case.
      if (at === review && (await reviewedBy(viewer.id, videoId))) throw new AppError('REVIEW_ALREADY_REVIEWED');
      // Nor by the case's author, whatever their roles.
      if (at === review && (await authorOf(viewer.id, videoId))) throw new AppError('REVIEW_OWN_CASE');
      return at.claim(viewer, videoId, ip);
    },

    /** Abandon: the draft is discarded and the video goes back to the pool. */
    async release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string) {
      return (await stageOf(videoId)).release(viewer, videoId, fencingToken, ip);
    },

    ...workspace,
    ...createAnalysisComments({ audit, drafts, clock }),
    ...createAnalysisResult({
      db,
      cases,
      drafts,
      review: reviews,
      mediaService,
      clock,
      onRatingsReleased: (authorId) => {
        dashboardEvents.changed({ users: [authorId] });
        deps.onRatingsChanged?.(authorId);
      },
    }),
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
