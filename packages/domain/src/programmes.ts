import { z } from 'zod';
import {
  DEFAULT_LEARNING_CURVE_SETTINGS,
  FAILURE_RULES,
  LEARNING_CURVE_STATES,
  learningCurveSchema,
  learningCurveSettingsSchema,
  MOVING_AVERAGE_CASES,
  type LearningCurve,
  type LearningCurveState,
} from './learning-curves.ts';
import { textField } from './rules.ts';
import { isCalendarDay } from './videos.ts';

/**
 * Training programmes (docs/learning-curves.md): an administrator's programme of learners and its
 * directors, the cohort view (learners × procedures) and a learner's curves, as the API answers
 * them and the web reads them.
 */

export const PROGRAMME_NAME_MAX = 120;

const day = z.string({ error: 'INVALID_VALUE' }).refine(isCalendarDay, { error: 'INVALID_DATE' });

/** POST and PUT /admin/programmes: the settings are the defaults when left out. */
export const programmeBody = z
  .object({
    name: textField(PROGRAMME_NAME_MAX),
    specialtyId: z.uuid({ error: 'INVALID_VALUE' }).nullable().optional(),
    startsOn: day.nullable().optional(),
    endsOn: day.nullable().optional(),
    settings: learningCurveSettingsSchema.optional(),
  })
  .strict()
  .refine((p) => !(p.startsOn && p.endsOn && p.endsOn < p.startsOn), { path: ['endsOn'], error: 'PROGRAMME_DATES_ORDER' });
export type ProgrammeBody = z.infer<typeof programmeBody>;

/** POST /admin/programmes/{id}/members and /directors. */
export const programmePersonBody = z.object({ userId: z.uuid({ error: 'INVALID_VALUE' }) }).strict();

export const programmePersonSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type ProgrammePerson = z.infer<typeof programmePersonSchema>;

const settingsSchema = z.object({
  p0: z.number(),
  p1: z.number(),
  alpha: z.number(),
  beta: z.number(),
  failureRule: z.enum(FAILURE_RULES),
});

export const programmeSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  specialty: z.object({ id: z.string(), name: z.string() }).nullable(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  settings: settingsSchema,
  memberCount: z.number(),
  directorCount: z.number(),
});
export type ProgrammeSummary = z.infer<typeof programmeSummarySchema>;

export const programmeDetailSchema = programmeSummarySchema.extend({
  members: z.array(programmePersonSchema),
  directors: z.array(programmePersonSchema),
});
export type ProgrammeDetail = z.infer<typeof programmeDetailSchema>;

/** GET /programmes: the programmes the caller directs, and those they are a learner of with who directs them. */
export const myProgrammesSchema = z.object({
  directed: z.array(programmeSummarySchema),
  memberOf: z.array(programmeSummarySchema.extend({ directors: z.array(programmePersonSchema) })),
});
export type MyProgrammes = z.infer<typeof myProgrammesSchema>;

// ---- Trend

export const TRENDS = ['up', 'steady', 'down'] as const;
export type Trend = (typeof TRENDS)[number];

/** A change of the moving average of the global rating smaller than this is steady. */
export const TREND_STEADY_BELOW = 0.25;

/**
 * How the global rating moves: the latest moving average against the one MOVING_AVERAGE_CASES
 * rated cases before (or the first one, earlier on the curve); null with fewer than two rated cases.
 */
export function trendDelta(curve: Pick<LearningCurve, 'points'>): number | null {
  const averages = curve.points.map((p) => p.globalAverage).filter((a): a is number => a !== null);
  if (averages.length < 2) return null;
  const latest = averages[averages.length - 1]!;
  const before = averages[Math.max(0, averages.length - 1 - MOVING_AVERAGE_CASES)]!;
  return latest - before;
}

export function trendOf(delta: number | null): Trend | null {
  if (delta === null) return null;
  if (delta >= TREND_STEADY_BELOW) return 'up';
  if (delta <= -TREND_STEADY_BELOW) return 'down';
  return 'steady';
}

// ---- The cohort

export const cohortRowSchema = z.object({
  learnerId: z.string(),
  surgery: z.object({ id: z.string(), name: z.string() }),
  cases: z.number(),
  judged: z.number(),
  failures: z.number(),
  state: z.enum(LEARNING_CURVE_STATES),
  proficientAt: z.number().nullable(),
  relapseAt: z.number().nullable(),
  unacceptableAt: z.number().nullable(),
  /** The global rating of the latest case (a mean for a case reviewed several times). */
  latestRating: z.number().nullable(),
  /** The moving average of the global rating at the latest case. */
  latestAverage: z.number().nullable(),
  trend: z.enum(TRENDS).nullable(),
  trendDelta: z.number().nullable(),
  /** The day of the latest case on the curve. */
  lastCaseOn: z.string().nullable(),
});
export type CohortRow = z.infer<typeof cohortRowSchema>;

export const cohortSchema = z.object({
  programme: programmeSummarySchema,
  /** Every learner of the programme, with or without analysed cases. */
  learners: z.array(programmePersonSchema),
  rows: z.array(cohortRowSchema),
});
export type Cohort = z.infer<typeof cohortSchema>;

// ---- A learner's curves

export const learnerCaseSchema = z.object({
  videoId: z.string(),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  operatedOn: z.string().nullable(),
  sentAt: z.string().nullable(),
  reviews: z.number(),
  globalRating: z.number().nullable(),
  goalsTotal: z.number().nullable(),
  /** The experts' advice, one per submitted review (empty advice left out). */
  advice: z.array(z.object({ round: z.number(), expert: z.string(), text: z.string() })),
});
export type LearnerCase = z.infer<typeof learnerCaseSchema>;

export const learnerCurvesSchema = z.object({
  /** The programme whose settings apply; null for the learner's own view outside any programme. */
  programme: programmeSummarySchema.nullable(),
  learner: programmePersonSchema,
  settings: settingsSchema,
  curves: z.array(z.object({ surgery: z.object({ id: z.string(), name: z.string() }), curve: learningCurveSchema })),
  cases: z.array(learnerCaseSchema),
});
export type LearnerCurves = z.infer<typeof learnerCurvesSchema>;

export const DEFAULT_PROGRAMME_SETTINGS = DEFAULT_LEARNING_CURVE_SETTINGS;

/** The states as the cohort orders them when sorted by state: who needs attention first. */
export const STATE_ORDER: Record<LearningCurveState, number> = { relapse: 0, unacceptable: 1, learning: 2, proficient: 3 };
