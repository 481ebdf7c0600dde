import { z } from 'zod';
import { KPIS, type Kpi } from './analysis.ts';

/**
 * A learner's statistics (SPEC §2, docs/statistics.md): the five KPIs against the average surgeon
 * and against their own past, and each KPI and the global rating month by month. All ratings.
 */

/** A point in time is the mean of the ratings of the analyses submitted in the window before it. */
export const STATS_WINDOW_DAYS = 90;
/** Fewer analyses than this in a window make no point: the chart says there is too little data. */
export const STATS_MIN_ANALYSES = 2;
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
    radar: z.array(radarSeriesSchema),
    timeline: z.array(timelinePointSchema),
  }),
]);
export type LearnerStats = z.infer<typeof learnerStatsSchema>;

/** Round a mean to one decimal, as shown. */
export function roundMean(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10) / 10;
}
