import { z } from 'zod';
import { textField } from './rules.ts';
import { storyboardSchema, videoStepSchema } from './videos.ts';

/**
 * Best cases (docs/best-cases.md): surgery videos an administrator offers every practising
 * person to learn from — an analysed case turned into one with its author's consent, or a video
 * the administrator uploads. What a best case shows: the video, its steps, the surgery, the organ
 * and the texts the administrator wrote; never the author, the patient fields or the ratings.
 */

/** Where the video comes from. */
export const BEST_CASE_ORIGINS = ['converted', 'uploaded'] as const;
export type BestCaseOrigin = (typeof BEST_CASE_ORIGINS)[number];

/**
 * The author's word on a converted case: asked (`pending`), given (`accepted`), refused
 * (`declined`) or taken back (`withdrawn`). An uploaded video needs none (`not_needed`).
 */
export const BEST_CASE_CONSENTS = ['not_needed', 'pending', 'accepted', 'declined', 'withdrawn'] as const;
export type BestCaseConsent = (typeof BEST_CASE_CONSENTS)[number];

/** A best case shows to learners, editors and experts only with one of these. */
export const CONSENTS_THAT_ALLOW_PUBLISHING: readonly BestCaseConsent[] = ['not_needed', 'accepted'];

export const BEST_CASE_TEXT_MAX = { title: 150, description: 4000 } as const;
/** At most this many steps marked on an uploaded video. */
export const BEST_CASE_STEPS_MAX = 50;

const title = textField(BEST_CASE_TEXT_MAX.title);
const description = textField(BEST_CASE_TEXT_MAX.description);

/** The texts of a best case, each in both languages (all required). */
export const bestCaseTextsSchema = z.object({
  titleFr: title,
  titleEn: title,
  descriptionFr: description,
  descriptionEn: description,
});
export type BestCaseTexts = z.infer<typeof bestCaseTextsSchema>;

const classification = z.object({
  surgeryId: z.uuid({ error: 'FIELD_REQUIRED' }),
  organId: z.uuid({ error: 'FIELD_REQUIRED' }).nullable().optional(),
});

/**
 * POST /admin/best-cases: from an analysed case (`source: 'video'`, its steps kept, its author
 * asked), or a new video the administrator then uploads through tus (`source: 'upload'`).
 */
export const createBestCaseBody = z.discriminatedUnion(
  'source',
  [
    bestCaseTextsSchema.extend(classification.shape).extend({
      source: z.literal('video'),
      videoId: z.uuid({ error: 'FIELD_REQUIRED' }),
    }),
    bestCaseTextsSchema.extend(classification.shape).extend({ source: z.literal('upload') }),
  ],
  { error: 'FIELD_REQUIRED' },
);
export type CreateBestCaseBody = z.infer<typeof createBestCaseBody>;

/** PUT /admin/best-cases/{id}: the texts, surgery and organ, any of them. */
export const updateBestCaseBody = bestCaseTextsSchema.extend(classification.shape).partial().strict();

export const publishBestCaseBody = z.object({ published: z.boolean({ error: 'INVALID_VALUE' }) });

/** A step the administrator marks on an uploaded video: where it starts; it ends where the next one starts. */
export const bestCaseStepInput = z.object({
  surgeryStepId: z.uuid({ error: 'FIELD_REQUIRED' }),
  start: z
    .number({ error: 'FIELD_REQUIRED' })
    .min(0, { error: 'INVALID_VALUE' })
    .max(24 * 3600, { error: 'INVALID_VALUE' }),
});
export const bestCaseStepsBody = z.object({
  steps: z.array(bestCaseStepInput).max(BEST_CASE_STEPS_MAX, { error: 'INVALID_VALUE' }),
});
export type BestCaseStepsBody = z.infer<typeof bestCaseStepsBody>;

/** PUT /videos/{id}/best-case/consent: the author accepts, or declines (withdraws once accepted). */
export const bestCaseConsentBody = z.object({ accept: z.boolean({ error: 'INVALID_VALUE' }) });

export const BEST_CASE_LIST_FILTERS = ['surgeryId', 'organId'] as const;
export const ADMIN_BEST_CASE_LIST_FILTERS = ['surgeryId', 'organId', 'published'] as const;

const named = z.object({ id: z.string(), name: z.string() });

/** A card of /best-cases: the texts in the reader's language. */
export const bestCaseSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  surgery: named.nullable(),
  organ: named.extend({ icon: z.string() }).nullable(),
  duration: z.number().nullable(),
  posterUrl: z.string().nullable(),
  publishedAt: z.string().nullable(),
});
export type BestCaseSummary = z.infer<typeof bestCaseSummarySchema>;

/** /best-cases/{id}: the card and what plays. */
export const bestCaseDetailSchema = bestCaseSummarySchema.extend({
  videoUrl: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
  steps: z.array(videoStepSchema),
});
export type BestCaseDetail = z.infer<typeof bestCaseDetailSchema>;

/** A row of /admin/best-cases: both languages, the state of its video and of the consent. */
export const adminBestCaseSchema = z.object({
  id: z.string(),
  origin: z.enum(BEST_CASE_ORIGINS),
  videoId: z.string(),
  titleFr: z.string(),
  titleEn: z.string(),
  descriptionFr: z.string(),
  descriptionEn: z.string(),
  surgery: named.nullable(),
  organ: named.extend({ icon: z.string() }).nullable(),
  duration: z.number().nullable(),
  posterUrl: z.string().nullable(),
  mediaStatus: z.enum(['uploading', 'processing', 'ready', 'failed']),
  processingProgress: z.number(),
  consent: z.enum(BEST_CASE_CONSENTS),
  published: z.boolean(),
  /** Published, consented and playable: learners, editors and experts see it. */
  visible: z.boolean(),
  stepCount: z.number(),
  /** Created by the caller: only they send (or send again) the file of an uploaded one. */
  mine: z.boolean(),
  /**
   * The unfinished upload of the caller's own uploaded best case, as for a learner's case: sending
   * the same file again (same fingerprint) goes on from `offset`.
   */
  upload: z.object({ id: z.string(), offset: z.number(), size: z.number(), fingerprint: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type AdminBestCase = z.infer<typeof adminBestCaseSchema>;

/** GET /admin/best-cases/{id}: the row, what plays (administrators see it unpublished) and its steps. */
export const adminBestCaseDetailSchema = adminBestCaseSchema.extend({
  videoUrl: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
  steps: z.array(videoStepSchema),
  /** The administrator's note on each step, in both languages (steps without a note are left out). */
  stepNotes: z.array(z.object({ stepId: z.string(), noteFr: z.string(), noteEn: z.string() })),
});
export type AdminBestCaseDetail = z.infer<typeof adminBestCaseDetailSchema>;

/** What the author of a converted case sees on their case page. */
export const bestCaseRequestSchema = z.object({
  id: z.string(),
  titleFr: z.string(),
  titleEn: z.string(),
  descriptionFr: z.string(),
  descriptionEn: z.string(),
  consent: z.enum(BEST_CASE_CONSENTS),
  published: z.boolean(),
});
export type BestCaseRequest = z.infer<typeof bestCaseRequestSchema>;
