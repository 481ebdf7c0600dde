import { ANALYSIS_SOCKET_EVENTS } from '@sutura/domain/analysis';
import type { ClaimResponse } from '@sutura/domain/claims';
import type { Db } from '../../db/client.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Audit } from '../audit/audit.service.ts';
import { createCaseReads } from '../cases/case-read.ts';
import type { Claims, ClaimsTx } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService, RealtimeHub } from '../notifications/notifications.service.ts';
import { createStage, defineStage } from '../workflow/stage.ts';
import { createAnalysisComments } from './analysis.comments.ts';
import { createAnalysisDrafts } from './analysis.drafts.ts';
import { createAnalysisResult } from './analysis.result.ts';
import { createAnalysisWorkspace } from './analysis.workspace.ts';
import type { VoiceStore } from './voice.ts';

/**
 * The analysis stage: the experts' pool, a claim with a fresh draft, an abandon (release) dropping
 * it. The draft's voice file, deleted with its row, is removed once the release committed.
 */
export const analysisStage = (drafts: ReturnType<typeof createAnalysisDrafts>, mediaService: MediaService) =>
  defineStage<void, string | null>({
    name: 'analysis',
    pool: { role: 'expert', event: ANALYSIS_SOCKET_EVENTS.poolChanged },
    audit: { claimed: 'analysis.claimed', released: 'analysis.abandoned' },
    leaseExpired: { notification: 'analysisLeaseExpired', link: '/expert' },
    /** A draft left by another expert's expired lease is dropped; the holder's is made. */
    async onClaim(viewer, videoId) {
      await drafts.discardDraft(videoId, viewer.id);
      await drafts.holderDraft(videoId, viewer.id);
    },
    onRelease: (tx, videoId) => drafts.deleteDraft(tx, videoId),
    async afterRelease(_video, voiceMediaId) {
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
    },
    onExpired: (claim) => drafts.discardDraft(claim.videoId),
  });

export function createAnalysisService(deps: {
  db: Db;
  mediaService: MediaService;
  notifications: NotificationService;
  audit: Audit;
  claims: Claims;
  voice: VoiceStore;
  hub: RealtimeHub;
  clock: () => Date;
}) {
  const { db, mediaService, notifications, audit, claims, voice, hub, clock } = deps;
  const cases = createCaseReads(db);
  const drafts = createAnalysisDrafts({ db, mediaService, claims, cases, clock });
  const stage = createStage({ db, claims, audit, notifications, hub, clock }, analysisStage(drafts, mediaService));
  const workspace = createAnalysisWorkspace({
    db,
    mediaService,
    notifications,
    audit,
    claims,
    voice,
    cases,
    drafts,
    inPool: stage.inPool,
    clock,
  });

  return {
    /** For the periodic job: expired leases back to the pool, their drafts dropped, their experts told. */
    tidyExpiredLeases: () => stage.tidyExpiredLeases(),

    /** An administrator ended the expert's claim: the draft goes, the pool hears of the video. */
    async claimForceReleased(videoId: string, voiceMediaId: string | null): Promise<void> {
      if (voiceMediaId) await mediaService.remove(voiceMediaId);
      stage.poolChanged(videoId, 'returned');
    },

    /** The draft of a claim an administrator ends, deleted in that release's transaction. */
    draftReleased(tx: ClaimsTx, videoId: string): Promise<string | null> {
      return drafts.deleteDraft(tx, videoId);
    },

    /** Through the shared claim module (see analysisStage). */
    claim(viewer: RequestUser, videoId: string, ip: string): Promise<ClaimResponse> {
      return stage.claim(viewer, videoId, ip);
    },

    /** Abandon: the draft is discarded and the video goes back to the pool. */
    release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string) {
      return stage.release(viewer, videoId, fencingToken, ip);
    },

    ...workspace,
    ...createAnalysisComments({ audit, drafts, clock }),
    ...createAnalysisResult({ db, cases, drafts, clock }),
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
