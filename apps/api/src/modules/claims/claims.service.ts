import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { CLAIM_STATUSES, LEASE_MS, type ClaimResponse, type ClaimStage } from '@sutura/domain/claims';
import type { Db } from '../../db/client.ts';
import { claims, videos } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';

export type ClaimEndReason = 'released' | 'expired' | 'submitted' | 'taken_over' | 'force_released';

/**
 * A change of a claimed case: who it concerns (its author, the holders) and whether the stage's
 * pool changed (a case entered or left it). Every claim transition of both stages passes here.
 */
export interface ClaimChange {
  stage: ClaimStage;
  videoId: string;
  authorId: string;
  holderIds: (string | null)[];
  poolChanged: boolean;
}

/** A claim that the sweep returned to its pool. */
export interface ExpiredClaim {
  videoId: string;
  stage: ClaimStage;
  holderId: string | null;
  fencingToken: number;
}

/**
 * The one claim mechanism of the workflow, for editors (preparation) and experts (analysis).
 * The live claim sits on the video row (holder, lease end, fencing token) so that a claim is a
 * single conditional UPDATE: of any number of simultaneous claimers, PostgreSQL's row lock lets
 * exactly one match the WHERE clause. `claims` keeps every grant, so that a stale holder is told
 * their lease is lost while anyone else learns nothing (404).
 */
/** A transaction opened by `claims.transaction`, in which the caller's own writes join a claim transition. */
export type ClaimsTx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function createClaims(deps: { db: Db; clock: () => Date; leaseMs?: number; onChange?: (change: ClaimChange) => void }) {
  const { db, clock } = deps;
  const changed = (change: ClaimChange) => deps.onChange?.(change);
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  /** The changes each open transaction made, told once it commits (never when it rolls back). */
  const pendingChanges = new WeakMap<ClaimsTx, ClaimChange[]>();

  /**
   * Runs `work` in one transaction: the claim transitions given its `tx` and the caller's own
   * writes commit together or not at all, and their change events go out only after the commit,
   * so that whoever refetches on them reads the new state.
   */
  async function transaction<T>(work: (tx: ClaimsTx) => Promise<T>): Promise<T> {
    const pending: ClaimChange[] = [];
    const result = await db.transaction(async (tx) => {
      pendingChanges.set(tx, pending);
      return work(tx);
    });
    for (const change of pending) changed(change);
    return result;
  }

  /** In the caller's transaction (opened by `transaction`), else in one of its own. */
  function within<T>(tx: ClaimsTx | undefined, work: (tx: ClaimsTx, emit: (change: ClaimChange) => void) => Promise<T>): Promise<T> {
    if (!tx) return transaction((own) => within(own, work));
    const pending = pendingChanges.get(tx);
    if (!pending) throw new Error('claims: the transaction was not opened by claims.transaction');
    return work(tx, (change) => pending.push(change));
  }

  /** The video is in the stage's pool, or held under a lease that has run out. */
  const free = (stage: ClaimStage, now: Date) =>
    or(eq(videos.status, CLAIM_STATUSES[stage].pending), and(eq(videos.status, CLAIM_STATUSES[stage].held), lte(videos.leaseEndsAt, now)));

  async function endHistory(tx: ClaimsTx, videoId: string, fencingToken: number, reason: ClaimEndReason, at: Date) {
    await tx
      .update(claims)
      .set({ endedAt: at, endReason: reason })
      .where(and(eq(claims.videoId, videoId), eq(claims.fencingToken, fencingToken), sql`${claims.endedAt} is null`));
  }

  /**
   * Gives the video to `userId` from `fromStatus` (`free`: the pool or an expired lease) with a
   * fresh lease and the next fencing token. Returns null when someone else was faster.
   */
  async function grant(
    stage: ClaimStage,
    videoId: string,
    userId: string,
    from: 'free' | string,
    outer?: ClaimsTx,
  ): Promise<(ClaimResponse & { previous: { holderId: string | null; fencingToken: number } | null }) | null> {
    const now = clock();
    const leaseEndsAt = new Date(now.getTime() + leaseMs);
    return within(outer, async (tx, emit) => {
      const [before] = await tx
        .select({ status: videos.status, holderId: videos.claimHolderId, fencingToken: videos.fencingToken })
        .from(videos)
        .where(eq(videos.id, videoId));
      const [row] = await tx
        .update(videos)
        .set({
          status: CLAIM_STATUSES[stage].held,
          claimHolderId: userId,
          leaseEndsAt,
          fencingToken: sql`${videos.fencingToken} + 1`,
          updatedAt: now,
        })
        .where(and(eq(videos.id, videoId), eq(videos.kind, 'video'), from === 'free' ? free(stage, now) : eq(videos.status, from)))
        .returning({ fencingToken: videos.fencingToken, authorId: videos.authorId });
      if (!row) return null;
      // Taken over from an expired lease the sweep had not tidied yet.
      const previous =
        before && before.status === CLAIM_STATUSES[stage].held && before.fencingToken === row.fencingToken - 1
          ? { holderId: before.holderId, fencingToken: before.fencingToken }
          : null;
      if (previous) {
        await tx
          .update(claims)
          .set({ endedAt: now, endReason: 'taken_over' })
          .where(and(eq(claims.videoId, videoId), eq(claims.fencingToken, previous.fencingToken), sql`${claims.endedAt} is null`));
      }
      await tx.insert(claims).values({ videoId, fencingToken: row.fencingToken, stage, holderId: userId, claimedAt: now, leaseEndsAt });
      // From the pool (or an expired lease): the pool changed; a reopen comes from elsewhere.
      emit({ stage, videoId, authorId: row.authorId, holderIds: [userId, previous?.holderId ?? null], poolChanged: from === 'free' });
      return { videoId, stage, fencingToken: row.fencingToken, leaseEndsAt: leaseEndsAt.toISOString(), previous };
    });
  }

  /**
   * Refuses any write but the current holder's, under a live lease, with the token of the
   * current claim. Someone who never held the video gets 404; a stale holder LEASE_LOST.
   */
  async function assertHolder(
    stage: ClaimStage,
    videoId: string,
    userId: string,
    fencingToken: number,
    tx: Db | ClaimsTx = db,
    lock = false,
  ) {
    const now = clock();
    const query = tx.select().from(videos).where(eq(videos.id, videoId));
    const [video] = lock ? await query.for('share') : await query;
    if (!video) throw notFound();
    if (
      video.status === CLAIM_STATUSES[stage].held &&
      video.claimHolderId === userId &&
      video.fencingToken === fencingToken &&
      video.leaseEndsAt !== null &&
      video.leaseEndsAt > now
    ) {
      return video;
    }
    const [held] = await tx
      .select({ holderId: claims.holderId })
      .from(claims)
      .where(and(eq(claims.videoId, videoId), eq(claims.fencingToken, fencingToken), eq(claims.stage, stage)));
    if (held?.holderId === userId) throw new AppError('LEASE_LOST');
    throw notFound();
  }

  /**
   * Ends the holder's lease in one conditional update on the token, so that a write racing an
   * expiry or a take-over can never both succeed: `submitted` moves the video on (the holder stays
   * recorded), `released` gives it back to the pool.
   */
  /** Ends the holder's live lease (submit or release) under the current token, within `tx` if given. */
  async function endLease(
    stage: ClaimStage,
    videoId: string,
    userId: string,
    fencingToken: number,
    next: { status: string; claimHolderId?: null },
    reason: 'submitted' | 'released',
    tx?: ClaimsTx,
  ) {
    const now = clock();
    return within(tx, async (tx, emit) => {
      const [row] = await tx
        .update(videos)
        .set({ ...next, leaseEndsAt: null, updatedAt: now })
        .where(
          and(
            eq(videos.id, videoId),
            eq(videos.status, CLAIM_STATUSES[stage].held),
            eq(videos.claimHolderId, userId),
            eq(videos.fencingToken, fencingToken),
            gt(videos.leaseEndsAt, now),
          ),
        )
        .returning();
      if (!row) {
        await assertHolder(stage, videoId, userId, fencingToken, tx);
        throw new AppError('LEASE_LOST');
      }
      await endHistory(tx, videoId, fencingToken, reason, now);
      emit({ stage, videoId, authorId: row.authorId, holderIds: [userId], poolChanged: reason === 'released' });
      return row;
    });
  }

  return {
    leaseMs,
    assertHolder,
    transaction,

    /**
     * Runs the holder's write in one transaction with the video row locked (FOR SHARE) once the
     * claim is checked: a release, take-over or submit waits for the write to commit, and a write
     * that waited for one sees it and gets LEASE_LOST, never a half-gone draft.
     */
    async whileHolding<T>(
      stage: ClaimStage,
      videoId: string,
      userId: string,
      fencingToken: number,
      write: (tx: ClaimsTx, video: typeof videos.$inferSelect) => Promise<T>,
    ): Promise<T> {
      return transaction(async (tx) => write(tx, await assertHolder(stage, videoId, userId, fencingToken, tx, true)));
    },

    /** Whether someone ever held the video at this stage (a former holder is told, not ignored). */
    async heldBefore(stage: ClaimStage, videoId: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ videoId: claims.videoId })
        .from(claims)
        .where(and(eq(claims.videoId, videoId), eq(claims.stage, stage), eq(claims.holderId, userId)))
        .limit(1);
      return Boolean(row);
    },

    /**
     * Claims a video of the stage's pool (or one whose lease ran out). The losers get
     * CLAIM_TAKEN while someone holds it, VIDEO_WRONG_STATUS when it left the stage, 404 when
     * it does not exist.
     */
    async claim(stage: ClaimStage, videoId: string, userId: string) {
      const granted = await grant(stage, videoId, userId, 'free');
      if (granted) return granted;
      const [row] = await db.select().from(videos).where(eq(videos.id, videoId));
      if (!row || row.kind !== 'video') throw notFound();
      if (row.status === CLAIM_STATUSES[stage].held) {
        // A second click of the holder answers the claim it already has.
        if (row.claimHolderId === userId && row.leaseEndsAt && row.leaseEndsAt > clock()) {
          return { videoId, stage, fencingToken: row.fencingToken, leaseEndsAt: row.leaseEndsAt.toISOString(), previous: null };
        }
        throw new AppError('CLAIM_TAKEN');
      }
      throw new AppError('VIDEO_WRONG_STATUS');
    },

    /** Gives a video back to the same person from another status (a failed render reopens it). */
    async reopen(stage: ClaimStage, videoId: string, userId: string, fromStatus: string, tx?: ClaimsTx) {
      return grant(stage, videoId, userId, fromStatus, tx);
    },

    /**
     * Moves a held video on (submit) in one conditional update on the token, so that a write
     * racing an expiry or a take-over can never both succeed. The holder stays recorded. Given
     * `tx` (of `transaction`), the caller's own writes of the submit commit with it.
     */
    async finish(stage: ClaimStage, videoId: string, userId: string, fencingToken: number, nextStatus: string, tx?: ClaimsTx) {
      return endLease(stage, videoId, userId, fencingToken, { status: nextStatus }, 'submitted', tx);
    },

    /** Gives a held video back to the pool; only its holder, with the current token. */
    async release(stage: ClaimStage, videoId: string, userId: string, fencingToken: number, tx?: ClaimsTx) {
      return endLease(stage, videoId, userId, fencingToken, { status: CLAIM_STATUSES[stage].pending, claimHolderId: null }, 'released', tx);
    },

    /**
     * An administrator ends whoever holds the video (docs/admin-catalog.md): back to its stage's
     * pool in one conditional update on the token, so that the holder's next write is LEASE_LOST.
     * Returns the claim that ended, or null when nobody held it (any more).
     */
    async forceRelease(videoId: string, tx?: ClaimsTx): Promise<ExpiredClaim | null> {
      const now = clock();
      return within(tx, async (tx, emit) => {
        const [video] = await tx
          .select({ status: videos.status, holderId: videos.claimHolderId, fencingToken: videos.fencingToken, authorId: videos.authorId })
          .from(videos)
          .where(eq(videos.id, videoId));
        if (!video) throw notFound();
        const stage = (Object.keys(CLAIM_STATUSES) as ClaimStage[]).find((s) => CLAIM_STATUSES[s].held === video.status);
        if (!stage) return null;
        const [row] = await tx
          .update(videos)
          .set({ status: CLAIM_STATUSES[stage].pending, claimHolderId: null, leaseEndsAt: null, updatedAt: now })
          .where(and(eq(videos.id, videoId), eq(videos.status, video.status), eq(videos.fencingToken, video.fencingToken)))
          .returning({ id: videos.id });
        if (!row) return null;
        await endHistory(tx, videoId, video.fencingToken, 'force_released', now);
        emit({ stage, videoId, authorId: video.authorId, holderIds: [video.holderId], poolChanged: true });
        return { videoId, stage, holderId: video.holderId, fencingToken: video.fencingToken };
      });
    },

    /**
     * Returns every expired claim of the stages to its pool, each by a conditional update on
     * its token (safe to run twice, or beside a claim that takes it over meanwhile).
     */
    async sweepExpired(stages: readonly ClaimStage[] = ['preparation', 'analysis']): Promise<ExpiredClaim[]> {
      const now = clock();
      const held = stages.map((s) => CLAIM_STATUSES[s].held);
      const due = await db
        .select({
          id: videos.id,
          status: videos.status,
          holderId: videos.claimHolderId,
          fencingToken: videos.fencingToken,
          authorId: videos.authorId,
        })
        .from(videos)
        .where(and(inArray(videos.status, held), lte(videos.leaseEndsAt, now)));
      const expired: ExpiredClaim[] = [];
      for (const video of due) {
        const stage = stages.find((s) => CLAIM_STATUSES[s].held === video.status)!;
        // Each lease in its own transaction: its return and its history go together.
        const ended = await within(undefined, async (tx, emit) => {
          const [row] = await tx
            .update(videos)
            .set({ status: CLAIM_STATUSES[stage].pending, claimHolderId: null, leaseEndsAt: null, updatedAt: now })
            .where(
              and(
                eq(videos.id, video.id),
                eq(videos.status, video.status),
                eq(videos.fencingToken, video.fencingToken),
                lte(videos.leaseEndsAt, now),
              ),
            )
            .returning({ id: videos.id });
          if (!row) return false;
          await endHistory(tx, video.id, video.fencingToken, 'expired', now);
          emit({ stage, videoId: video.id, authorId: video.authorId, holderIds: [video.holderId], poolChanged: true });
          return true;
        });
        if (!ended) continue;
        expired.push({ videoId: video.id, stage, holderId: video.holderId, fencingToken: video.fencingToken });
      }
      return expired;
    },
  };
}
export type Claims = ReturnType<typeof createClaims>;
