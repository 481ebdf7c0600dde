// @database-server: claims and leases: one conditional UPDATE among 100 simultaneous claimers, row locks, fencing tokens
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CLAIM_STAGES, CLAIM_STATUSES, LEASE_MS, type ClaimStage } from '@sutura/domain/claims';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { claims as claimHistory, users, videos } from '../src/db/schema.ts';
import { AppError } from '../src/http/errors.ts';
import { createClaims, type ClaimChange } from '../src/modules/claims/claims.service.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
let author: string;
let people: string[];

/** A clock the test moves by hand: twelve hours pass in a line. */
function manualClock() {
  let now = new Date('2026-03-02T08:00:00Z').getTime();
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function pendingVideo(stage: ClaimStage) {
  const [row] = await ctx.database.db
    .insert(videos)
    .values({ authorId: author, kind: 'video', status: CLAIM_STATUSES[stage].pending, mediaStatus: 'ready', sentAt: new Date() })
    .returning();
  return row!.id;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  const rows = await ctx.database.db
    .insert(users)
    .values(
      Array.from({ length: 101 }, (_, i) => ({
        email: `claimer-${i}@example.org`,
        passwordHash: 'unused',
        roles: [i === 0 ? 'learner' : 'editor'],
        firstName: 'Claimer',
        lastName: String(i),
        preferences: DEFAULT_PREFERENCES,
        notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
      })),
    )
    .returning({ id: users.id });
  author = rows[0]!.id;
  people = rows.slice(1).map((r) => r.id);
}, 60_000);

afterAll(async () => {
  await ctx.close();
});

// The analysis stage runs the same suite: it is the same mechanism.
describe.each(CLAIM_STAGES)('claims of the %s stage', (stage) => {
  it('gives a video to exactly one of 100 simultaneous claimers, 20 rounds over', async () => {
    const claims = createClaims({ db: ctx.database.db, clock: () => new Date() });
    for (let round = 0; round < 20; round++) {
      const videoId = await pendingVideo(stage);
      const outcomes = await Promise.all(people.map((userId) => codeOf(claims.claim(stage, videoId, userId))));
      expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'CLAIM_TAKEN')).toHaveLength(99);
      const [video] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
      expect(video!.status).toBe(CLAIM_STATUSES[stage].held);
      expect(video!.fencingToken).toBe(1);
      expect(video!.claimHolderId).toBe(people[outcomes.indexOf('OK')]);
      const history = await ctx.database.db.select().from(claimHistory).where(eq(claimHistory.videoId, videoId));
      expect(history).toHaveLength(1);
    }
  }, 120_000);

  it('lets a lease run out after twelve hours, then anyone may claim at once and the sweep tidies the rest', async () => {
    const clock = manualClock();
    const claims = createClaims({ db: ctx.database.db, clock: clock.now });
    const [first, second] = people as [string, string];
    const videoId = await pendingVideo(stage);
    const claim = await claims.claim(stage, videoId, first);
    expect(new Date(claim.leaseEndsAt).getTime() - clock.now().getTime()).toBe(LEASE_MS);

    clock.advance(LEASE_MS - 1);
    expect(await codeOf(claims.claim(stage, videoId, second))).toBe('CLAIM_TAKEN');
    expect(await codeOf(claims.assertHolder(stage, videoId, first, claim.fencingToken))).toBe('OK');

    clock.advance(1);
    // Expired: the holder may no longer write, and the video is free before any sweep.
    expect(await codeOf(claims.assertHolder(stage, videoId, first, claim.fencingToken))).toBe('LEASE_LOST');
    const taken = await claims.claim(stage, videoId, second);
    expect(taken.fencingToken).toBe(claim.fencingToken + 1);
    expect(taken.previous).toEqual({ holderId: first, fencingToken: claim.fencingToken });

    // A second video left to expire is returned to the pool by the sweep, once.
    const other = await pendingVideo(stage);
    await claims.claim(stage, other, first);
    clock.advance(LEASE_MS);
    const swept = await claims.sweepExpired([stage]);
    expect(swept.map((s) => s.videoId).sort()).toEqual([videoId, other].sort());
    expect(swept.find((s) => s.videoId === other)!.holderId).toBe(first);
    expect(await claims.sweepExpired([stage])).toEqual([]);
    const [video] = await ctx.database.db.select().from(videos).where(eq(videos.id, other));
    expect(video!.status).toBe(CLAIM_STATUSES[stage].pending);
    expect(video!.claimHolderId).toBeNull();
  });

  it("refuses a stale holder's writes after a take-over, and tells nothing to someone who never held the video", async () => {
    const clock = manualClock();
    const claims = createClaims({ db: ctx.database.db, clock: clock.now });
    const [first, second, stranger] = people as [string, string, string];
    const videoId = await pendingVideo(stage);
    const stale = await claims.claim(stage, videoId, first);
    clock.advance(LEASE_MS + 1000);
    const fresh = await claims.claim(stage, videoId, second);

    expect(await codeOf(claims.assertHolder(stage, videoId, first, stale.fencingToken))).toBe('LEASE_LOST');
    // Replaying the new holder's token does not help the old one.
    expect(await codeOf(claims.assertHolder(stage, videoId, first, fresh.fencingToken))).toBe('NOT_FOUND');
    expect(await codeOf(claims.release(stage, videoId, first, stale.fencingToken))).toBe('LEASE_LOST');
    expect(await codeOf(claims.finish(stage, videoId, first, stale.fencingToken, 'processing'))).toBe('LEASE_LOST');
    expect(await codeOf(claims.assertHolder(stage, videoId, stranger, fresh.fencingToken))).toBe('NOT_FOUND');
    expect(await codeOf(claims.assertHolder(stage, videoId, second, fresh.fencingToken))).toBe('OK');

    // The holder's own second click answers its claim; a release gives the video back.
    expect((await claims.claim(stage, videoId, second)).fencingToken).toBe(fresh.fencingToken);
    await claims.release(stage, videoId, second, fresh.fencingToken);
    expect(await codeOf(claims.assertHolder(stage, videoId, second, fresh.fencingToken))).toBe('LEASE_LOST');
    const again = await claims.claim(stage, videoId, stranger);
    expect(again.fencingToken).toBe(fresh.fencingToken + 1);
  });

  it('moves a held video on only once, and never a video of another stage', async () => {
    const claims = createClaims({ db: ctx.database.db, clock: () => new Date() });
    const videoId = await pendingVideo(stage);
    const claim = await claims.claim(stage, videoId, people[0]!);
    const next = stage === 'preparation' ? 'processing' : 'analysed';
    const outcomes = await Promise.all([1, 2, 3].map(() => codeOf(claims.finish(stage, videoId, people[0]!, claim.fencingToken, next))));
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1);
    const otherStage: ClaimStage = stage === 'preparation' ? 'analysis' : 'preparation';
    expect(await codeOf(claims.claim(otherStage, videoId, people[1]!))).toBe('VIDEO_WRONG_STATUS');
  });

  it('commits a transition with the caller’s writes or not at all, and tells of it only once committed', async () => {
    const changes: ClaimChange[] = [];
    const claims = createClaims({ db: ctx.database.db, clock: () => new Date(), onChange: (c) => changes.push(c) });
    const videoId = await pendingVideo(stage);
    const claim = await claims.claim(stage, videoId, people[0]!);
    expect(changes).toHaveLength(1);
    const next = stage === 'preparation' ? 'processing' : 'analysed';
    const held = async () => (await ctx.database.db.select().from(videos).where(eq(videos.id, videoId)))[0]!;

    // A write after the transition fails: the transition is undone and nobody is told.
    await expect(
      claims.transaction(async (tx) => {
        await claims.finish(stage, videoId, people[0]!, claim.fencingToken, next, tx);
        expect(changes).toHaveLength(1);
        throw new Error('a later write failed');
      }),
    ).rejects.toThrow('a later write failed');
    await expect(
      claims.transaction(async (tx) => {
        await claims.forceRelease(videoId, tx);
        throw new Error('a later write failed');
      }),
    ).rejects.toThrow('a later write failed');
    expect(await held()).toMatchObject({ status: CLAIM_STATUSES[stage].held, claimHolderId: people[0]!, fencingToken: claim.fencingToken });
    const [history] = await ctx.database.db.select().from(claimHistory).where(eq(claimHistory.videoId, videoId));
    expect(history).toMatchObject({ endedAt: null, endReason: null });
    expect(changes).toHaveLength(1);

    // Committed: the change is told after the commit, when a reader sees the new state.
    const seen: string[] = [];
    const observed = createClaims({
      db: ctx.database.db,
      clock: () => new Date(),
      onChange: () => void held().then((row) => seen.push(row.status)),
    });
    await observed.transaction((tx) => observed.finish(stage, videoId, people[0]!, claim.fencingToken, next, tx));
    await expect.poll(() => seen).toEqual([next]);
    // A transaction the claim module did not open is refused, rather than telling before its commit.
    await expect(ctx.database.db.transaction((tx) => claims.release(stage, videoId, people[0]!, claim.fencingToken, tx))).rejects.toThrow(
      /claims\.transaction/,
    );
  });
});
