import { z } from 'zod';
import { KPIS } from './analysis.ts';
import { LANGUAGES } from './i18n.ts';
import { textField } from './rules.ts';

/**
 * The double review (docs/double-review.md): a share of cases gets a second independent review;
 * two reviews differing by DISAGREEMENT_GAP levels or more on a KPI or a step flag the case.
 */
export const MAX_REVIEW_ROUNDS = 3;
export const DISAGREEMENT_GAP = 2;
/** The key of the installation's default share in `app_state`. */
export const SECOND_REVIEW_SHARE_KEY = 'review.secondShare';

/** A share of cases, in whole percent: 0 never, 100 always, anything between drawn at random. */
export const secondReviewShareSchema = z
  .number({ error: 'FIELD_REQUIRED' })
  .int({ error: 'INVALID_VALUE' })
  .min(0, { error: 'INVALID_VALUE' })
  .max(100, { error: 'INVALID_VALUE' });

export const reviewSettingsSchema = z.object({ secondReviewShare: secondReviewShareSchema });
export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;
export const reviewSettingsBody = reviewSettingsSchema.strict();
/** The administration's view: the default and each surgery's override (null follows the default). */
export const reviewSettingsViewSchema = reviewSettingsSchema.extend({
  surgeries: z.array(z.object({ id: z.string(), name: z.string(), secondReviewShare: z.number().nullable() })),
});
export type ReviewSettingsView = z.infer<typeof reviewSettingsViewSchema>;
export const surgeryShareSchema = z.object({ id: z.string(), secondReviewShare: z.number().nullable() });
export const discussedResponse = z.object({ videoId: z.string(), status: z.literal('discussed') });

/** Whether a case needs a second review: `draw` is uniform in [0, 1). */
export function drawsSecondReview(share: number, draw: number): boolean {
  return draw * 100 < share;
}

export const DISAGREEMENT_STATUSES = ['flagged', 'third_review', 'discussed'] as const;
export type DisagreementStatus = (typeof DISAGREEMENT_STATUSES)[number];

export interface ReviewRatings {
  round: number;
  kpiRatings: Record<string, number | null | undefined>;
  stepRatings: Record<string, number | null | undefined>;
}

export interface DisagreementFound {
  kind: 'kpi' | 'step';
  key: string;
  levels: Record<string, number>;
}

/**
 * Where the reviews disagree: every KPI (in KPIS order) and step (in `stepIds` order) rated in at
 * least two reviews whose highest and lowest levels differ by DISAGREEMENT_GAP or more. An item
 * left unrated in a review is not compared with it.
 */
export function disagreementsOf(reviews: readonly ReviewRatings[], stepIds: readonly string[]): DisagreementFound[] {
  const found: DisagreementFound[] = [];
  const check = (kind: 'kpi' | 'step', key: string, of: (r: ReviewRatings) => number | null | undefined) => {
    const levels: Record<string, number> = {};
    for (const r of reviews) {
      const level = of(r);
      if (typeof level === 'number') levels[String(r.round)] = level;
    }
    const values = Object.values(levels);
    if (values.length >= 2 && Math.max(...values) - Math.min(...values) >= DISAGREEMENT_GAP) found.push({ kind, key, levels });
  };
  for (const kpi of KPIS) check('kpi', kpi, (r) => r.kpiRatings[kpi]);
  for (const id of stepIds) check('step', id, (r) => r.stepRatings[id]);
  return found;
}

/** The largest gap over the items found (0 without). */
export function largestGap(items: readonly DisagreementFound[]): number {
  return items.reduce((gap, item) => {
    const values = Object.values(item.levels);
    return Math.max(gap, Math.max(...values) - Math.min(...values));
  }, 0);
}

/** An administrator asks another review: the second of any analysed case, a third of a flagged one. */
export const moreReviewBody = z.object({}).strict();
export const discussedBody = z.object({ note: textField(2000) }).strict();
export type DiscussedBody = z.infer<typeof discussedBody>;

export const disagreementListQuery = z
  .object({
    status: z.enum(DISAGREEMENT_STATUSES, { error: 'INVALID_VALUE' }).optional(),
    surgeryId: z.uuid({ error: 'INVALID_VALUE' }).optional(),
    langCode: z.enum(LANGUAGES, { error: 'INVALID_VALUE' }).optional(),
  })
  .strict();
export type DisagreementListQuery = z.infer<typeof disagreementListQuery>;

export const disagreementItemSchema = z.object({
  kind: z.enum(['kpi', 'step']),
  key: z.string(),
  /** The KPI's or step's name in the reader's language. */
  name: z.string(),
  levels: z.record(z.string(), z.number()),
});
export type DisagreementItem = z.infer<typeof disagreementItemSchema>;

export const disagreementSchema = z.object({
  videoId: z.string(),
  surgery: z.string().nullable(),
  /** The case's learner and the day it was added, so that administrators tell cases apart. */
  author: z.object({ firstName: z.string(), lastName: z.string() }),
  caseCreatedAt: z.string(),
  status: z.enum(DISAGREEMENT_STATUSES),
  maxGap: z.number(),
  items: z.array(disagreementItemSchema),
  flaggedAt: z.string(),
  resolvedAt: z.string().nullable(),
  note: z.string().nullable(),
});
export type Disagreement = z.infer<typeof disagreementSchema>;
export const disagreementListSchema = z.object({ items: z.array(disagreementSchema) });
export type DisagreementList = z.infer<typeof disagreementListSchema>;

/** The answer of an administrator's request of another review. */
export const moreReviewResponse = z.object({ videoId: z.string(), reviewsRequired: z.number(), status: z.string() });
export type MoreReviewResponse = z.infer<typeof moreReviewResponse>;
