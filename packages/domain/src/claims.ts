import { z } from 'zod';
import { LEASE_HOURS } from './limits.ts';

/**
 * One claim mechanism for the two workflow stages where one person holds a video: an editor
 * prepares it, then an expert analyses it. A claim is a lease of LEASE_HOURS; every claim bumps
 * the video's fencing token, and every write of the holder carries it, so that a holder whose
 * lease expired or was taken over is refused.
 */
export const CLAIM_STAGES = ['preparation', 'analysis', 'review'] as const;
export type ClaimStage = (typeof CLAIM_STAGES)[number];

/** The video status a stage claims from (the pool) and the one it holds in. */
export const CLAIM_STATUSES = {
  preparation: { pending: 'pending_preparation', held: 'in_preparation' },
  analysis: { pending: 'pending_analysis', held: 'in_analysis' },
  /** A second or third independent review of an analysed case (docs/double-review.md). */
  review: { pending: 'pending_review', held: 'in_review' },
} as const satisfies Record<ClaimStage, { pending: string; held: string }>;

export const LEASE_MS = LEASE_HOURS * 3600 * 1000;
/** How often the periodic job returns expired claims to their pool. */
export const LEASE_SWEEP_CRON = '*/5 * * * *';

export const fencingTokenSchema = z
  .number({ error: 'FIELD_REQUIRED' })
  .int({ error: 'INVALID_VALUE' })
  .min(1, { error: 'INVALID_VALUE' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'INVALID_VALUE' });

/** Every write of a holder carries the token its claim returned. */
export const fencedBody = z.object({ fencingToken: fencingTokenSchema }).strict();
export type FencedBody = z.infer<typeof fencedBody>;

/** Answer of a claim (and of every fenced write, so the client always knows its lease). */
export const claimResponse = z.object({
  videoId: z.string(),
  stage: z.enum(CLAIM_STAGES),
  fencingToken: z.number(),
  /** ISO date; after it the video counts as free for anyone of the stage. */
  leaseEndsAt: z.string(),
});
export type ClaimResponse = z.infer<typeof claimResponse>;

export const releaseResponse = z.object({ videoId: z.string(), released: z.literal(true) });
export type ReleaseResponse = z.infer<typeof releaseResponse>;

/** Whole hours left on a lease, as SPEC §9 shows it (rounded up; 0 once expired). */
export function leaseHoursLeft(leaseEndsAt: Date | string, now: Date): number {
  const ms = new Date(leaseEndsAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 3600_000);
}
