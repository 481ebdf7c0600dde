import { z } from 'zod';
import { KPIS, type Kpi } from './analysis.ts';
import { NASA_TLX_DIMENSIONS, type NasaTlxDimension } from './videos.ts';

/**
 * A learner's statistics (SPEC §2, docs/statistics.md): the five KPIs against the average surgeon
 * and against their own past, and each KPI and the global rating month by month. All ratings.
 */

/** A point in time is the mean of the ratings of the analyses submitted in the window before it. */
export const STATS_WINDOW_DAYS = 90;
/** Fewer analyses than this in a window make no point: the chart says there is too little data. */
export const STATS_MIN_ANALYSES = 2;
/**
 * The average surgeon is the mean of each surgeon's own mean over the window (every surgeon weighs
 * the same, however many analyses they had): it needs this many surgeons with at least one
 * analysis (one case, for the NASA-TLX) in the window, and a skill this many surgeons rated.
 */
export const STATS_MIN_SURGEONS = 2;
/** The learner's own points: now, and 1, 3 and 6 months ago. */
export const STATS_PAST_MONTHS = [0, 1, 3, 6] as const;
/** Months shown by the KPI and global-rating timelines. */
export const STATS_TIMELINE_MONTHS = 12;

export const STATS_COMPARISONS = ['all', 'specialty'] as const;
export type StatsComparison = (typeof STATS_COMPARISONS)[number];

/** `filter=compare==specialty` (SPEC §7 query); all learners without it. */
export const statsComparisonSchema = z.enum(STATS_COMPARISONS, { error: 'INVALID_VALUE' });

const kpiMeans = z.object(Object.fromEntries(KPIS.map((k) => [k, z.number().nullable()])) as Record<Kpi, z.ZodNullable<z.ZodNumber>>);
export type KpiMeans = z.infer<typeof kpiMeans>;

/** One series of the radar: the KPI means over a window, or null for each when too little data. */
export const radarSeriesSchema = z.object({
  /** 'average' or the number of months ago (0 is now). */
  key: z.union([z.literal('average'), z.number()]),
  /** The end of the window. */
  at: z.string(),
  analyses: z.number(),
  /** The average only: the surgeons whose own means it averages (each with an analysis in the window). */
  surgeons: z.number().optional(),
  enoughData: z.boolean(),
  kpis: kpiMeans,
});
export type RadarSeries = z.infer<typeof radarSeriesSchema>;

export const timelinePointSchema = z.object({
  /** The first day of the month, YYYY-MM-01. */
  month: z.string(),
  analyses: z.number(),
  kpis: kpiMeans,
  global: z.number().nullable(),
});
export type TimelinePoint = z.infer<typeof timelinePointSchema>;

export const learnerStatsSchema = z.discriminatedUnion('ratingsShown', [
  /** With showRatings off the server sends no rating at all (the page offers to turn them on). */
  z.object({ ratingsShown: z.literal(false) }),
  z.object({
    ratingsShown: z.literal(true),
    compare: z.enum(STATS_COMPARISONS),
    /** False when the learner has no specialty: the comparison is then with all learners. */
    specialtyKnown: z.boolean(),
    windowDays: z.number(),
    minAnalyses: z.number(),
    minSurgeons: z.number(),
    radar: z.array(radarSeriesSchema),
    timeline: z.array(timelinePointSchema),
  }),
]);
export type LearnerStats = z.infer<typeof learnerStatsSchema>;

// ---- NASA-TLX: the learner's self-assessments (SPEC §3), 0 to 100 on six scales.

/** The statistics' tabs (`/my-stats?tab=…`), the first one by default. */
export const STATS_TABS = ['overview', 'kpis', 'nasaTlx', 'steps', 'curves'] as const;
export type StatsTab = (typeof STATS_TABS)[number];

const tlxMeans = z.object(
  Object.fromEntries(NASA_TLX_DIMENSIONS.map((d) => [d, z.number().nullable()])) as Record<NasaTlxDimension, z.ZodNullable<z.ZodNumber>>,
);
export type TlxMeans = z.infer<typeof tlxMeans>;

/** The mean of each scale over the cases sent in a window; null for each when too few cases. */
export const tlxSeriesSchema = z.object({
  key: z.enum(['mine', 'average']),
  cases: z.number(),
  /** The average only: the surgeons whose own means it averages (each with a case in the window). */
  surgeons: z.number().optional(),
  enoughData: z.boolean(),
  dimensions: tlxMeans,
  /** The mean raw score (the mean of the six scales). */
  raw: z.number().nullable(),
});
export type TlxSeries = z.infer<typeof tlxSeriesSchema>;

export const tlxMonthSchema = z.object({
  /** The first day of the month, YYYY-MM-01. */
  month: z.string(),
  cases: z.number(),
  dimensions: tlxMeans,
  raw: z.number().nullable(),
});
export type TlxMonth = z.infer<typeof tlxMonthSchema>;

/** GET /stats/me/nasa-tlx: not ratings of an expert, so shown whatever showRatings. */
export const learnerNasaTlxSchema = z.object({
  compare: z.enum(STATS_COMPARISONS),
  specialtyKnown: z.boolean(),
  windowDays: z.number(),
  minCases: z.number(),
  minSurgeons: z.number(),
  mine: tlxSeriesSchema,
  average: tlxSeriesSchema,
  timeline: z.array(tlxMonthSchema),
});
export type LearnerNasaTlx = z.infer<typeof learnerNasaTlxSchema>;

// ---- Step times of one surgery (SPEC §1 average duration, §3 step times, active and non-active).

/** `filter=surgeryId==…`; without it, the surgery of most of the learner's prepared cases. */
export const stepTimesSurgerySchema = z.uuid({ error: 'INVALID_VALUE' });

/** A mean over cases, null when too few (the learner's own: one case; an average: STATS_MIN_ANALYSES). */
export const meanOverCasesSchema = z.object({ cases: z.number(), mean: z.number().nullable() });
export type MeanOverCases = z.infer<typeof meanOverCasesSchema>;

/** A step of the surgery's vocabulary: its mean duration in seconds, mine and of all learners. */
export const stepTimeSchema = z.object({
  surgeryStepId: z.string(),
  name: z.string(),
  mine: meanOverCasesSchema,
  average: meanOverCasesSchema,
});
export type StepTime = z.infer<typeof stepTimeSchema>;

/** Means per case: rendered duration, active and non-active seconds, declared surgery minutes. */
export const caseTimesSchema = z.object({
  cases: z.number(),
  enoughData: z.boolean(),
  duration: z.number().nullable(),
  active: z.number().nullable(),
  nonActive: z.number().nullable(),
  /** Declared by the learner, in minutes (skin to skin); over the cases that declare it. */
  surgeryDuration: z.number().nullable(),
});
export type CaseTimes = z.infer<typeof caseTimesSchema>;

export const learnerStepTimesSchema = z.object({
  /** The surgeries of the learner's prepared cases, most cases first: the picker. */
  surgeries: z.array(z.object({ id: z.string(), name: z.string(), cases: z.number() })),
  /** The surgery shown; null when the learner has no prepared case. */
  surgeryId: z.string().nullable(),
  minCases: z.number(),
  steps: z.array(stepTimeSchema),
  mine: caseTimesSchema,
  average: caseTimesSchema,
});
export type LearnerStepTimes = z.infer<typeof learnerStepTimesSchema>;

/** Round a mean to one decimal, as shown. */
export function roundMean(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10) / 10;
}
