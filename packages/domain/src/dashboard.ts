import { z } from 'zod';

/**
 * The dashboard of SPEC §2 ("dashboard with key numbers"): one section per role of the caller —
 * a learner's cases, an editor's and an expert's pool and work. Counted by the server; the page
 * reads them again when SOCKET_EVENTS.dashboardChanged arrives (the event carries no numbers).
 */

/**
 * A learner's case waits for preparation from its sending until its prepared video is rendered
 * (pending_preparation, in_preparation, processing), then for analysis until an expert submits
 * (pending_analysis, in_analysis).
 */
export const WAITING_FOR_PREPARATION = ['pending_preparation', 'in_preparation', 'processing'] as const;
export const WAITING_FOR_ANALYSIS = ['pending_analysis', 'in_analysis'] as const;

/** A case held by the caller, with the whole hours left on its lease (SPEC §9 rounding). */
export const heldCaseSchema = z.object({
  videoId: z.string(),
  surgery: z.string().nullable(),
  leaseEndsAt: z.string(),
  hoursLeft: z.number(),
});
export type HeldCase = z.infer<typeof heldCaseSchema>;

/**
 * The learner's latest result shown (every required review in), by the moment it was released.
 * Its ratings reach the learner only once they answered or skipped its self-assessment
 * (docs/self-assessment.md): until then `awaitingSelfAssessment` is true and no rating is sent.
 */
export const latestFeedbackSchema = z.object({
  videoId: z.string(),
  surgery: z.string().nullable(),
  /** When the result was released to the learner (its last required review submitted). */
  submittedAt: z.string(),
  /** The result waits for the learner's self-assessment (answered or skipped): no rating meanwhile. */
  awaitingSelfAssessment: z.boolean(),
  /**
   * The global rating of the result: the mean of its submitted reviews, rounded to 0.1 as the
   * result page's `mean.globalRating`. Absent when the learner's showRatings preference is off,
   * and while the result awaits the self-assessment.
   */
  globalRating: z.number().nullable().optional(),
});
export type LatestFeedback = z.infer<typeof latestFeedbackSchema>;

export const learnerDashboardSchema = z.object({
  /** Cases whose file arrived and was processed (pictures-only cases at once). */
  uploaded: z.number(),
  waiting: z.object({ total: z.number(), preparation: z.number(), analysis: z.number() }),
  analysed: z.number(),
  latestFeedback: latestFeedbackSchema.nullable(),
  /**
   * Present only with showRatings on: the mean global rating of the learner's cases whose ratings
   * reached them (each case the mean of its reviews; null without any).
   */
  averageGlobalRating: z.number().nullable().optional(),
});
export type LearnerDashboard = z.infer<typeof learnerDashboardSchema>;

export const workerDashboardSchema = z.object({
  /** Cases of the stage's pool the caller could claim now (expired leases included). */
  pool: z.number(),
  held: z.array(heldCaseSchema),
  /** Prepared (editor) or analysed (expert) by the caller since the first of the month, UTC. */
  doneThisMonth: z.number(),
});
export type WorkerDashboard = z.infer<typeof workerDashboardSchema>;

export const dashboardSchema = z.object({
  learner: learnerDashboardSchema.optional(),
  editor: workerDashboardSchema.optional(),
  expert: workerDashboardSchema.optional(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
