import { z } from 'zod';
import { bestCaseSummarySchema } from './best-cases.ts';
import { drawingSchema } from './drawing.ts';
import { optionalText } from './rules.ts';
import { storyboardSchema, videoStepSchema } from './videos.ts';

/**
 * Comparing a case with a best case, step by step (docs/comparison.md): the steps of both lined
 * up in order, matched by the surgery's step vocabulary first, then by their name.
 */

/** What matching needs of a step: where it sits, its vocabulary step (if any), its name, its times. */
export interface ComparableStep {
  id: string;
  position: number;
  surgeryStepId: string | null;
  name: string;
  start: number;
  end: number;
}

/** How two steps were found to be the same: the same vocabulary step, or the same name. */
export const STEP_MATCHES = ['vocabulary', 'name'] as const;
export type StepMatch = (typeof STEP_MATCHES)[number];

export interface StepRow {
  /** The step of the compared case (left side), null when it has no such step. */
  caseStepId: string | null;
  /** The step of the best case (right side), null when the best case has no such step. */
  bestStepId: string | null;
  matchedBy: StepMatch | null;
  /** Durations in seconds; the difference is the case's minus the best case's (null unless matched). */
  caseDuration: number | null;
  bestDuration: number | null;
  difference: number | null;
  /** A matched step the best case does at another point of the surgery than the case. */
  outOfOrder: boolean;
}

/** Lower case, without accents, punctuation or repeated spaces: "Dissection de l'uretère " = "dissection de l uretere". */
export function normalizeStepName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;
const durationOf = (step: ComparableStep) => round(Math.max(0, step.end - step.start));

/**
 * Lines up the steps of a case and of a best case. Each step of the case, in order, takes the first
 * step of the best case not taken yet with the same vocabulary step; failing that, the first one
 * with the same normalized name (a renamed or free-named step); a step repeated in both pairs
 * occurrence by occurrence. The rows follow the case's order; a step only the best case has comes
 * after the row of the best case's step before it (and the case's own steps that follow that row). Pure: the server and the page share it.
 */
export function matchSteps(caseSteps: readonly ComparableStep[], bestSteps: readonly ComparableStep[]): StepRow[] {
  const left = [...caseSteps].sort((a, b) => a.position - b.position);
  const right = [...bestSteps].sort((a, b) => a.position - b.position);
  const taken = new Set<number>();
  const pairOf = new Map<number, { index: number; by: StepMatch }>();

  left.forEach((step, i) => {
    let found = step.surgeryStepId ? right.findIndex((b, j) => !taken.has(j) && b.surgeryStepId === step.surgeryStepId) : -1;
    let by: StepMatch = 'vocabulary';
    if (found < 0) {
      const name = normalizeStepName(step.name);
      // Two different vocabulary steps are two different steps, whatever their names say.
      found = right.findIndex(
        (b, j) =>
          !taken.has(j) &&
          name !== '' &&
          normalizeStepName(b.name) === name &&
          !(step.surgeryStepId && b.surgeryStepId && step.surgeryStepId !== b.surgeryStepId),
      );
      by = 'name';
    }
    if (found >= 0) {
      taken.add(found);
      pairOf.set(i, { index: found, by });
    }
  });

  let furthest = -1;
  const rows: { row: StepRow; bestIndex: number | null }[] = left.map((step, i) => {
    const pair = pairOf.get(i);
    const best = pair ? right[pair.index]! : null;
    const outOfOrder = pair ? pair.index < furthest : false;
    if (pair) furthest = Math.max(furthest, pair.index);
    const caseDuration = durationOf(step);
    const bestDuration = best ? durationOf(best) : null;
    return {
      row: {
        caseStepId: step.id,
        bestStepId: best?.id ?? null,
        matchedBy: pair?.by ?? null,
        caseDuration,
        bestDuration,
        difference: bestDuration === null ? null : round(caseDuration - bestDuration),
        outOfOrder,
      },
      bestIndex: pair?.index ?? null,
    };
  });

  // The best case's own steps, each after the row holding the best case's step just before it.
  right.forEach((step, j) => {
    if (taken.has(j)) return;
    const extra = {
      row: {
        caseStepId: null,
        bestStepId: step.id,
        matchedBy: null,
        caseDuration: null,
        bestDuration: durationOf(step),
        difference: null,
        outOfOrder: false,
      },
      bestIndex: j,
    };
    let after = -1;
    rows.forEach((r, k) => {
      if (r.bestIndex !== null && r.bestIndex < j) after = k;
    });
    // After the case's own steps that follow that row: before the next one the best case has later.
    const before = rows.findIndex((r, k) => k > after && r.bestIndex !== null && r.bestIndex > j);
    rows.splice(before < 0 ? rows.length : before, 0, extra);
  });
  return rows.map((r) => r.row);
}

/** One side of a comparison: what plays, and its steps in seconds of the video that plays. */
export const comparisonSideSchema = z.object({
  kind: z.enum(['case', 'best_case']),
  id: z.string(),
  title: z.string(),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  duration: z.number().nullable(),
  videoUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
  /** `note`: what the administrator wrote on the step of a best case, in the reader's language. */
  steps: z.array(videoStepSchema.extend({ note: z.string().nullable() })),
  /**
   * The administrator's teaching drawings over frames of a best case, in time order, each with its
   * note (its text alternative). None on a case: the expert's drawings are on its result.
   */
  drawings: z.array(z.object({ id: z.string(), note: z.string(), drawing: drawingSchema })),
});
export type ComparisonSide = z.infer<typeof comparisonSideSchema>;

export const stepRowSchema = z.object({
  caseStepId: z.string().nullable(),
  bestStepId: z.string().nullable(),
  matchedBy: z.enum(STEP_MATCHES).nullable(),
  caseDuration: z.number().nullable(),
  bestDuration: z.number().nullable(),
  difference: z.number().nullable(),
  outOfOrder: z.boolean(),
  /**
   * The experts' rating of each side's step (the mean of the reviews, to a tenth), beside its
   * duration: null when the step is unrated, the video has no review (an uploaded best case), or
   * the caller may not read ratings (docs/comparison.md).
   */
  caseRating: z.number().nullable(),
  bestRating: z.number().nullable(),
});

/** GET /videos/{id}/comparison/{bestCaseId} and /best-cases/{id}/comparison/{otherId}. */
export const comparisonSchema = z.object({
  subject: comparisonSideSchema,
  bestCase: comparisonSideSchema,
  rows: z.array(stepRowSchema),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** GET /videos/{id}/comparison and /best-cases/{id}/comparison: the best cases it may be compared with. */
export const comparisonChoicesSchema = z.object({
  subject: z.object({
    kind: z.enum(['case', 'best_case']),
    id: z.string(),
    title: z.string(),
    surgery: comparisonSideSchema.shape.surgery,
  }),
  bestCases: z.array(bestCaseSummarySchema),
});
export type ComparisonChoices = z.infer<typeof comparisonChoicesSchema>;

/** A note on a step of a best case: one text per language, either may stay empty. */
export const BEST_CASE_STEP_NOTE_MAX = 2000;
const note = optionalText(BEST_CASE_STEP_NOTE_MAX);
export const bestCaseStepNotesBody = z.object({
  notes: z.array(z.object({ stepId: z.uuid({ error: 'INVALID_VALUE' }), noteFr: note, noteEn: note })).max(50, { error: 'INVALID_VALUE' }),
});
export type BestCaseStepNotesBody = z.infer<typeof bestCaseStepNotesBody>;
