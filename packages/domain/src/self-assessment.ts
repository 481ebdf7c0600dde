import { z } from 'zod';
import { KPIS, ratingSchema, type Kpi, type RatingLevel } from './analysis.ts';
import { STATS_TIMELINE_MONTHS } from './stats.ts';

/**
 * The surgeon's self-assessment of a case (docs/self-assessment.md): the five KPIs on the
 * expert's scale, and the global rating if they wish, given between sending the case and the
 * moment its ratings reach its author (its result shown and the self-assessment answered, skipped
 * or the result read); then compared with the expert's ratings, and read-only.
 */

/** Open: neither rated nor skipped; skipped can still be rated until the ratings are released. */
export const SELF_ASSESSMENT_STATES = ['open', 'submitted', 'skipped'] as const;
export type SelfAssessmentState = (typeof SELF_ASSESSMENT_STATES)[number];

/** PUT /videos/{id}/self-assessment: every KPI rated; the global rating optional. */
export const saveSelfAssessmentBody = z
  .object({
    kpiRatings: z
      .object(Object.fromEntries(KPIS.map((k) => [k, ratingSchema])) as Record<Kpi, z.ZodType<RatingLevel, RatingLevel>>, {
        error: 'FIELD_REQUIRED',
      })
      .strict(),
    globalRating: ratingSchema.nullable().optional(),
  })
  .strict();
export type SaveSelfAssessmentBody = z.infer<typeof saveSelfAssessmentBody>;

/** One KPI (or the global rating) of the comparison: the learner's level against the expert's (the mean of the reviews). */
export const selfVsExpertItemSchema = z.object({
  kpi: z.union([z.enum(KPIS), z.literal('global')]),
  self: z.number().nullable(),
  expert: z.number().nullable(),
  /** self − expert, null when either is missing: positive when the learner rated themselves higher. */
  gap: z.number().nullable(),
});
export type SelfVsExpertItem = z.infer<typeof selfVsExpertItemSchema>;

/** GET /videos/{id}/self-assessment: the author's own only. */
export const selfAssessmentSchema = z.object({
  videoId: z.string(),
  state: z.enum(SELF_ASSESSMENT_STATES),
  /** The case was sent and its ratings have not reached its author yet: rating and skipping are open. */
  canRate: z.boolean(),
  /** The author's first reading of the result. */
  resultSeenAt: z.string().nullable(),
  /**
   * When the case's ratings reached its author (its result shown, and this self-assessment
   * answered, skipped or the result read): from then on nothing changes. Null before.
   */
  ratingsReleasedAt: z.string().nullable(),
  /** An analysed case whose ratings are not released and which is still open: the web invites first. */
  invite: z.boolean(),
  kpiRatings: z.record(z.enum(KPIS), ratingSchema).nullable(),
  globalRating: ratingSchema.nullable(),
  submittedAt: z.string().nullable(),
  skippedAt: z.string().nullable(),
  /**
   * Once the ratings are released and the self-assessment submitted, with the learner's
   * showRatings on: each KPI and the global rating, self against the expert.
   */
  comparison: z.array(selfVsExpertItemSchema).nullable(),
});
export type SelfAssessment = z.infer<typeof selfAssessmentSchema>;

/** Under this absolute gap (in levels), the learner and the expert agree on a KPI. */
export const SELF_GAP_AGREE = 0.5;

/** The gap of a KPI in words: 'agree', 'higher' (the learner rated themselves higher) or 'lower'. */
export function gapWord(gap: number | null): 'agree' | 'higher' | 'lower' | null {
  if (gap === null) return null;
  if (Math.abs(gap) < SELF_GAP_AGREE) return 'agree';
  return gap > 0 ? 'higher' : 'lower';
}

// ---- Statistics: self against expert, month by month

const kpiGaps = z.object(Object.fromEntries(KPIS.map((k) => [k, z.number().nullable()])) as Record<Kpi, z.ZodNullable<z.ZodNumber>>);
const kpiCounts = z.object(Object.fromEntries(KPIS.map((k) => [k, z.number()])) as Record<Kpi, z.ZodNumber>);

export const selfVsExpertMonthSchema = z.object({
  /** The first day of the month of the expert's result, YYYY-MM-01, installation time zone. */
  month: z.string(),
  /** Self-assessed cases with an expert result that month. */
  cases: z.number(),
  /** The mean absolute difference per KPI (levels), and the number of cases it is over. */
  kpis: kpiGaps,
  kpiCounts,
  /** Over every (case, KPI) pair of the month. */
  overall: z.number().nullable(),
  pairs: z.number(),
  /**
   * The signed mean difference self − expert, per KPI (over `kpiCounts`) and over every pair:
   * positive when the learner rated themselves higher than the experts.
   */
  signedKpis: kpiGaps,
  signedOverall: z.number().nullable(),
});
export type SelfVsExpertMonth = z.infer<typeof selfVsExpertMonthSchema>;

export const SELF_VS_EXPERT_TRENDS = ['closer', 'further', 'steady'] as const;
export type SelfVsExpertTrend = (typeof SELF_VS_EXPERT_TRENDS)[number];

/** GET /stats/me/self-assessment. */
export const learnerSelfVsExpertSchema = z.discriminatedUnion('ratingsShown', [
  z.object({ ratingsShown: z.literal(false) }),
  z.object({
    ratingsShown: z.literal(true),
    months: z.array(selfVsExpertMonthSchema),
    /** The latest month with data against the first one; null with fewer than two months with data. */
    trend: z.enum(SELF_VS_EXPERT_TRENDS).nullable(),
    /** The overall gap of the first and the latest month with data. */
    first: z.number().nullable(),
    last: z.number().nullable(),
  }),
]);
export type LearnerSelfVsExpert = z.infer<typeof learnerSelfVsExpertSchema>;

export const SELF_VS_EXPERT_MONTHS = STATS_TIMELINE_MONTHS;
/** A change of the overall gap under this (levels) is steady. */
export const SELF_TREND_STEP = 0.1;

/** The trend over the months with data: the latest overall gap against the first. */
export function selfVsExpertTrend(months: readonly { overall: number | null }[]): {
  trend: SelfVsExpertTrend | null;
  first: number | null;
  last: number | null;
} {
  const known = months.map((m) => m.overall).filter((v): v is number => v !== null);
  if (known.length < 2) return { trend: null, first: known[0] ?? null, last: known.at(-1) ?? null };
  const first = known[0]!;
  const last = known.at(-1)!;
  // In hundredths, so that 0.1 exactly is a change whatever the floating point.
  const change = Math.round((last - first) * 100);
  const trend = Math.abs(change) < SELF_TREND_STEP * 100 ? 'steady' : change < 0 ? 'closer' : 'further';
  return { trend, first, last };
}

/** Under this signed mean difference (levels, either way), the learner rates themselves in line with the experts. */
export const SELF_BIAS_IN_LINE = 0.25;

/**
 * Which way the learner's self-ratings lean over the months given: the signed mean difference
 * self − expert over every (case, KPI) pair of those months, overall and per KPI (each month
 * weighed by its pairs), and its word: 'higher', 'lower' or 'inLine'; null without a pair.
 */
export function selfVsExpertDirection(months: readonly Pick<SelfVsExpertMonth, 'pairs' | 'signedOverall' | 'kpiCounts' | 'signedKpis'>[]): {
  overall: number | null;
  word: 'higher' | 'lower' | 'inLine' | null;
  kpis: Record<Kpi, number | null>;
} {
  const mean = (parts: { n: number; value: number | null }[]) => {
    const counted = parts.filter((p) => p.n > 0 && p.value !== null);
    const n = counted.reduce((sum, p) => sum + p.n, 0);
    return n ? roundGap(counted.reduce((sum, p) => sum + p.n * p.value!, 0) / n) : null;
  };
  const overall = mean(months.map((m) => ({ n: m.pairs, value: m.signedOverall })));
  const word = overall === null ? null : Math.abs(overall) < SELF_BIAS_IN_LINE ? 'inLine' : overall > 0 ? 'higher' : 'lower';
  const kpis = Object.fromEntries(KPIS.map((k) => [k, mean(months.map((m) => ({ n: m.kpiCounts[k], value: m.signedKpis[k] })))]));
  return { overall, word, kpis: kpis as Record<Kpi, number | null> };
}

/** Rounded to two decimals (gaps are small numbers: one decimal would hide most of a trend). */
export function roundGap(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}
