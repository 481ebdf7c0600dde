import { z } from 'zod';
import { AGREEMENT_GAPS, AGREEMENT_ITEMS, type AgreementReport } from './agreement.ts';

/**
 * The calibration page (`/admin/calibration`, and each expert's view of themselves): how well the
 * experts who reviewed the same cases agree (docs/agreement.md). The statistics are computed by
 * `buildAgreementReport` of agreement.ts; these are the route's query and answer.
 */

/** `filter=from==YYYY-MM-DD__to==YYYY-MM-DD__surgeryId==…__expertId==…` (SPEC §7 query syntax). */
export const CALIBRATION_FILTERS = ['from', 'to', 'surgeryId', 'expertId'] as const;

const day = z.iso.date({ error: 'INVALID_VALUE' });
const id = z.uuid({ error: 'INVALID_VALUE' });

/**
 * The period is whole days of the installation's clock, both included, a case counting by the
 * submission of its second review; `surgeryId` narrows to one surgery; `expertId` is an expert's
 * own view (an expert may only ask for themselves: the route enforces it).
 */
export const calibrationFilterSchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    surgeryId: id.optional(),
    expertId: id.optional(),
  })
  .strict()
  .refine((f) => f.from !== undefined, { path: ['from'], error: 'FIELD_REQUIRED' })
  .refine((f) => f.to !== undefined, { path: ['to'], error: 'FIELD_REQUIRED' })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ['to'], error: 'DATE_RANGE_INVERTED' });
export type CalibrationFilter = z.infer<typeof calibrationFilterSchema>;

const interval = z.object({ lower: z.number(), upper: z.number() });
const estimate = z.object({ value: z.number().nullable(), ci: interval.nullable(), gap: z.enum(AGREEMENT_GAPS).nullable() });

export const agreementReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  surgeryId: z.string().nullable(),
  expertId: z.string().nullable(),
  scale: z.object({ min: z.number(), max: z.number() }),
  cases: z.number(),
  tripleReviewed: z.number(),
  items: z.array(
    z.object({
      item: z.enum(AGREEMENT_ITEMS),
      pairs: z.number(),
      kappa: estimate,
      icc: estimate,
      blandAltman: z.object({
        pairs: z.number(),
        bias: z.number().nullable(),
        biasCi: interval.nullable(),
        sd: z.number().nullable(),
        lower: z.number().nullable(),
        lowerCi: interval.nullable(),
        upper: z.number().nullable(),
        upperCi: interval.nullable(),
        points: z.array(z.object({ mean: z.number(), difference: z.number(), cases: z.number() })),
      }),
      experts: z.array(
        z.object({
          expertId: z.string(),
          name: z.string(),
          cases: z.number(),
          mean: z.number().nullable(),
          ci: interval.nullable(),
        }),
      ),
    }),
  ),
});

// The schema and the type the computation returns are one shape: tsc fails when they part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof agreementReportSchema>, AgreementReport> = true;
void sameShape;

/**
 * An expert's view of themselves (`GET /expert/calibration`): `own` pairs the expert with the
 * other review of each case they shared (κ, ICC and Bland–Altman "me against my colleagues", the
 * per-expert list holding them only); `programme` is the whole programme's figures over the same
 * cases as the administrators see them, without any expert's name (`experts` is empty). Neither
 * counts a case on which the expert still has a review to submit: the figures would tell them
 * the other ratings of a case they review blind.
 */
export const expertCalibrationSchema = z.object({ own: agreementReportSchema, programme: agreementReportSchema });
export type ExpertCalibration = z.infer<typeof expertCalibrationSchema>;
