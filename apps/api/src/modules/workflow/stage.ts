import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@sutura/domain/audit';
import { CLAIM_STATUSES, type ClaimResponse, type ClaimStage } from '@sutura/domain/claims';
import type { NotificationKind } from '@sutura/domain/notifications';
import type { Role } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import { videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Audit } from '../audit/audit.service.ts';
import { surgeryNamesOf } from '../cases/names.ts';
import type { Claims, ClaimsTx, ExpiredClaim } from '../claims/claims.service.ts';
import { aboutCase, type NotificationService, type RealtimeHub } from '../notifications/notifications.service.ts';

export type VideoRow = typeof videos.$inferSelect;

/** Why a stage's pool changed: what its pool-changed event tells the pool's role. */
export type PoolChange = 'sent' | 'claimed' | 'returned';

/** A grant of the claim module: the new claim, and the one it took over from an expired lease. */
export type Granted = ClaimResponse & { previous: { holderId: string | null; fencingToken: number } | null };

/**
 * A stage of the workflow, declared once: which claim stage it is, whose pool it fills, what it
 * records and tells, and the stage's own work at each step of the shell. Everything else — the
 * pool's eligibility, the claim, the release, the lease sweep, the audit, the notifications and
 * the pool-changed events — is the shell's (`createStage`), the same for every stage.
 *
 * A declaration is a plain value, so a stage that exists in several instances (a review round)
 * is a function of its parameter returning one: `(round: number) => StageDeclaration`.
 */
export interface StageDeclaration<Claimed = void, Released = void> {
  /** The claim stage of modules/claims: its pending and held statuses. */
  name: ClaimStage;
  /** Who sees the pool, and the socket event telling them it changed. */
  pool: { role: Role; event: string };
  audit: { claimed: AuditAction; released: AuditAction };
  /** What a holder whose lease ran out (swept, or taken over) is told, and where it links. */
  leaseExpired: { notification: NotificationKind; link: string };
  /** The stage's own work once the claim is granted, before it is recorded. */
  onClaim?: (viewer: RequestUser, videoId: string, granted: Granted) => Promise<Claimed>;
  /** After the claim is recorded and told (the video as it is now). */
  afterClaim?: (viewer: RequestUser, video: VideoRow, claimed: Claimed) => Promise<void>;
  /** The stage's own writes of a release, in the release's transaction. */
  onRelease?: (tx: ClaimsTx, videoId: string) => Promise<Released>;
  /** After the release committed, before it is recorded. */
  afterRelease?: (video: VideoRow, released: Released) => Promise<void>;
  /** The stage's own tidying of a lease the sweep ended. */
  onExpired?: (claim: ExpiredClaim) => Promise<void>;
  /** After an expired lease is back in the pool (the video as it is now). */
  afterExpired?: (video: VideoRow) => Promise<void>;
}

/** Declares a stage (an identity, for the types: each hook sees what the previous one returned). */
export function defineStage<Claimed = void, Released = void>(declaration: StageDeclaration<Claimed, Released>) {
  return declaration;
}

export interface StageDeps {
  db: Db;
  claims: Claims;
  audit: Audit;
  notifications: NotificationService;
  hub: RealtimeHub;
  clock: () => Date;
}

/** The pool/claim/release/sweep shell of a declared stage, around the shared claim module. */
export function createStage<Claimed, Released>(deps: StageDeps, stage: StageDeclaration<Claimed, Released>) {
  const { db, claims, audit, notifications, hub, clock } = deps;
  const statuses = CLAIM_STATUSES[stage.name];

  function poolChanged(videoId: string, change: PoolChange) {
    hub.emitToRole(stage.pool.role, stage.pool.event, { videoId, change });
  }

  async function videoOf(videoId: string): Promise<VideoRow | undefined> {
    const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
    return video;
  }

  async function tellLeaseExpired(holderId: string, video: VideoRow) {
    const surgery = await surgeryNamesOf(db, video.surgeryId);
    await notifications.notify(holderId, stage.leaseExpired.notification, aboutCase(surgery, video), stage.leaseExpired.link);
  }

  return {
    name: stage.name,
    statuses,
    poolChanged,

    /** In the pool: a case waiting for the stage, or held under a lease that has run out (free at once). */
    inPool(now: Date = clock()): SQL {
      return and(
        eq(videos.kind, 'video'),
        // An administrator's best-case video is no case (modules/best-cases).
        eq(videos.purpose, 'case'),
        or(eq(videos.status, statuses.pending), and(eq(videos.status, statuses.held), lte(videos.leaseEndsAt, now))),
      )!;
    },

    /** Claims a case of the pool; a holder whose expired lease it took over is told. */
    async claim(viewer: RequestUser, videoId: string, ip: string | null): Promise<ClaimResponse> {
      const granted = await claims.claim(stage.name, videoId, viewer.id);
      const claimed = (await stage.onClaim?.(viewer, videoId, granted)) as Claimed;
      await audit(viewer.id, stage.audit.claimed, 'video', videoId, ip, { fencingToken: granted.fencingToken });
      poolChanged(videoId, 'claimed');
      const previousHolder = granted.previous?.holderId;
      if ((previousHolder && previousHolder !== viewer.id) || stage.afterClaim) {
        const video = (await videoOf(videoId))!;
        if (previousHolder && previousHolder !== viewer.id) await tellLeaseExpired(previousHolder, video);
        await stage.afterClaim?.(viewer, video, claimed);
      }
      return { videoId: granted.videoId, stage: granted.stage, fencingToken: granted.fencingToken, leaseEndsAt: granted.leaseEndsAt };
    },

    /** Gives a held case back to the pool, with the stage's own writes in the same transaction. */
    async release(viewer: RequestUser, videoId: string, fencingToken: number, ip: string | null) {
      const { video, released } = await claims.transaction(async (tx) => {
        const video = await claims.release(stage.name, videoId, viewer.id, fencingToken, tx);
        const released = (await stage.onRelease?.(tx, videoId)) as Released;
        return { video, released };
      });
      await stage.afterRelease?.(video, released);
      await audit(viewer.id, stage.audit.released, 'video', videoId, ip);
      poolChanged(videoId, 'returned');
      return { videoId, released: true as const };
    },

    /** For the periodic job: expired leases back to the pool, their holders told. */
    async tidyExpiredLeases(): Promise<number> {
      const expired = await claims.sweepExpired([stage.name]);
      for (const claim of expired) {
        await stage.onExpired?.(claim);
        const video = await videoOf(claim.videoId);
        if (!video) continue;
        poolChanged(video.id, 'returned');
        await stage.afterExpired?.(video);
        if (claim.holderId) await tellLeaseExpired(claim.holderId, video);
      }
      return expired.length;
    },
  };
}
export type Stage = ReturnType<typeof createStage>;
