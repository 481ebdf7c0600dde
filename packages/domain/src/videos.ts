import { z } from 'zod';
import { emailField, optionalText, textField } from './rules.ts';

/** The workflow of DESIGN.md; a video is 'saved' once its media is ready. */
export const VIDEO_STATUSES = [
  'saved',
  'pending_preparation',
  'in_preparation',
  'processing',
  'pending_analysis',
  'in_analysis',
  // A second or third independent review (docs/double-review.md).
  'pending_review',
  'in_review',
  'analysed',
] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** The media pipeline of an upload, before the workflow can start. */
export const MEDIA_STATUSES = ['uploading', 'processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const AGE_RANGES = ['under_30', '30_44', '45_59', '60_74', '75_plus'] as const;
export const PATIENT_SEXES = ['man', 'woman'] as const;
export const BMI_CLASSES = ['under_30', '30_40', 'over_40'] as const;
export const MAIN_HANDS = ['left', 'right'] as const;
export const MEDICAL_BACKGROUNDS = ['anti_aggregant', 'anticoagulant', 'renal_failure', 'prostatitis', 'pyelonephritis'] as const;

export const NASA_TLX_DIMENSIONS = ['mentalDemand', 'physicalDemand', 'temporalDemand', 'performance', 'effort', 'frustration'] as const;
export type NasaTlxDimension = (typeof NASA_TLX_DIMENSIONS)[number];
const tlxScale = z
  .number({ error: 'FIELD_REQUIRED' })
  .int({ error: 'INVALID_VALUE' })
  .min(0, { error: 'INVALID_VALUE' })
  .max(100, { error: 'INVALID_VALUE' })
  .refine((v) => v % 5 === 0, { error: 'INVALID_VALUE' });
export const nasaTlxSchema = z.object(
  Object.fromEntries(NASA_TLX_DIMENSIONS.map((d) => [d, tlxScale])) as Record<NasaTlxDimension, typeof tlxScale>,
);
export type NasaTlx = z.infer<typeof nasaTlxSchema>;
/** NASA-TLX raw score: the mean of the six subscales. */
export function nasaTlxRawScore(tlx: NasaTlx): number {
  return Math.round((NASA_TLX_DIMENSIONS.reduce((sum, d) => sum + tlx[d], 0) / NASA_TLX_DIMENSIONS.length) * 10) / 10;
}

/** The longest texts of a case, in characters: a longer one is refused, never cut. */
export const CASE_TEXT_MAX = { equipmentBrand: 100, equipmentUsed: 500, surgicalHistory: 2000, messageToProctor: 2000 } as const;

/** A day as YYYY-MM-DD that exists in the calendar (2026-02-30 does not). */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export function isCalendarDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

/**
 * The latest day that is today somewhere on Earth (UTC+14): a day after it is in the future for
 * everyone, whatever the time zone of the learner and of the installation.
 */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

/** The day of the operation: optional, a real day, not in the future (docs/learning-curves.md). */
export const operatedOnField = () =>
  z
    .string({ error: 'INVALID_VALUE' })
    .refine(isCalendarDay, { error: 'INVALID_DATE' })
    .refine((day) => day <= latestToday(), { error: 'OPERATION_DAY_FUTURE' })
    .nullable();

/** The case data a learner fills in; nothing in it identifies the patient. */
export const videoFieldsSchema = z.object({
  surgeryId: z.uuid({ error: 'FIELD_REQUIRED' }),
  /** The six organs are those of urology: a surgery elsewhere (a cholecystectomy) has none. */
  organId: z.uuid({ error: 'FIELD_REQUIRED' }).nullable().optional(),
  keyStepIds: z.array(z.uuid({ error: 'INVALID_VALUE' })).max(50),
  equipmentBrand: textField(CASE_TEXT_MAX.equipmentBrand),
  equipmentUsed: textField(CASE_TEXT_MAX.equipmentUsed),
  ageRange: z.enum(AGE_RANGES, { error: 'FIELD_REQUIRED' }),
  patientSex: z.enum(PATIENT_SEXES, { error: 'FIELD_REQUIRED' }),
  bmi: z.enum(BMI_CLASSES, { error: 'FIELD_REQUIRED' }),
  complication: z.boolean({ error: 'FIELD_REQUIRED' }),
  surgicalHistory: optionalText(CASE_TEXT_MAX.surgicalHistory),
  radiationHistory: z.boolean({ error: 'FIELD_REQUIRED' }),
  medicalBackground: z.array(z.enum(MEDICAL_BACKGROUNDS, { error: 'INVALID_VALUE' })).max(MEDICAL_BACKGROUNDS.length),
  mainHand: z.enum(MAIN_HANDS, { error: 'FIELD_REQUIRED' }),
  /** Minutes, skin to skin. */
  surgeryDuration: z.coerce
    .number({ error: 'FIELD_REQUIRED' })
    .int({ error: 'INVALID_VALUE' })
    .min(1, { error: 'DURATION_TOO_SHORT' })
    .max(24 * 60, { error: 'DURATION_TOO_LONG' }),
  messageToProctor: textField(CASE_TEXT_MAX.messageToProctor),
  nasaTlx: nasaTlxSchema,
  /** The day of the operation, when the learner gives it: the learning curves are ordered by it. */
  operatedOn: operatedOnField().optional(),
});
export type VideoFields = z.infer<typeof videoFieldsSchema>;

export const VIDEO_KINDS = ['video', 'pictures'] as const;
export type VideoKind = (typeof VIDEO_KINDS)[number];

/** POST /videos: a video case (its file follows through tus) or a pictures-only case. */
export const createVideoBody = videoFieldsSchema.extend({ kind: z.enum(VIDEO_KINDS, { error: 'FIELD_REQUIRED' }) });
/** PUT /videos/{id}: any field, only while the case has not been sent. */
export const updateVideoBody = videoFieldsSchema.partial().strict();
export const sendVideoBody = z.object({ priority: z.boolean({ error: 'INVALID_VALUE' }).default(false) });
export const favouriteBody = z.object({ favourite: z.boolean({ error: 'INVALID_VALUE' }) });
/** PUT /videos/{id}/operation-day: the day of the operation, at any stage of the case (null clears it). */
export const operationDayBody = z.object({ operatedOn: operatedOnField() }).strict();
export const shareVideoBody = z.object({ email: emailField() });

/** The tabs of /videos. */
export const VIDEO_TABS = ['mine', 'toAnalyze', 'analysed', 'shared'] as const;
export type VideoTab = (typeof VIDEO_TABS)[number];
export const VIDEO_LIST_FILTERS = ['tab', 'surgeryId', 'organId', 'status', 'mediaStatus', 'favourite', 'kind', 'from', 'to'] as const;
export const VIDEO_LIST_SORTS = ['createdAt', 'updatedAt', 'duration', 'surgery'] as const;

export const storyboardSchema = z.object({
  interval: z.number(),
  columns: z.number(),
  rows: z.number(),
  thumbWidth: z.number(),
  thumbHeight: z.number(),
  count: z.number(),
  /** Signed URLs of the sprite sheets, in order. */
  sheets: z.array(z.string()),
  /** Signed URL of the WebVTT file (its cues name the sheets by file name, `sheet-001.jpg#xywh=…`). */
  vtt: z.string(),
});

export const videoSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(VIDEO_KINDS),
  status: z.enum(VIDEO_STATUSES),
  mediaStatus: z.enum(MEDIA_STATUSES),
  processingProgress: z.number(),
  failureReason: z.string().nullable(),
  failureMessage: z.string().nullable(),
  authorId: z.string(),
  author: z.object({ firstName: z.string(), lastName: z.string() }),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  organ: z.object({ id: z.string(), name: z.string(), icon: z.string() }).nullable(),
  favourite: z.boolean(),
  priority: z.boolean(),
  duration: z.number().nullable(),
  posterUrl: z.string().nullable(),
  pictureCount: z.number(),
  /** The key steps to analyse, in the order of the surgery: what tells two cases of one surgery apart. */
  keySteps: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /**
   * The expert's result can be read: every required review was submitted once. True while a case
   * sent for a further review after its result was shown waits for it (docs/double-review.md).
   */
  resultShown: z.boolean(),
  /** What the caller may do: the web shows only these actions. */
  access: z.enum(['author', 'shared', 'admin']),
});
export type VideoSummary = z.infer<typeof videoSummarySchema>;

/** A step of the rendered video, in seconds of the result (the player's timeline). */
export const videoStepSchema = z.object({
  id: z.string(),
  position: z.number(),
  surgeryStepId: z.string().nullable(),
  name: z.string(),
  start: z.number(),
  end: z.number(),
});
export type VideoStep = z.infer<typeof videoStepSchema>;

export const videoDetailSchema = videoSummarySchema.extend({
  fields: videoFieldsSchema.partial(),
  nasaTlxRawScore: z.number().nullable(),
  videoUrl: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  frameRate: z.number().nullable(),
  storyboard: storyboardSchema.nullable(),
  pictures: z.array(
    z.object({ id: z.string(), mediaId: z.string(), url: z.string(), width: z.number().nullable(), height: z.number().nullable() }),
  ),
  /** People the author shared the video with (only shown to the author and administrators). */
  shares: z.array(z.object({ userId: z.string(), email: z.string(), firstName: z.string(), lastName: z.string(), createdAt: z.string() })),
  uploadedBytes: z.number().nullable(),
  sourceSize: z.number().nullable(),
  /**
   * Once prepared, `videoUrl` is the rendered video; this is the full source it was cut from,
   * given to its author only (null for anyone else, and before preparation).
   */
  sourceUrl: z.string().nullable(),
  /** The prepared video's steps once rendered (empty before). */
  steps: z.array(videoStepSchema),
  /**
   * The unfinished upload of the case, shown to its author only: any browser of theirs continues
   * it at `offset` (`/v1/uploads/{id}`), with the file whose fingerprint this is.
   */
  upload: z.object({ id: z.string(), offset: z.number(), size: z.number(), fingerprint: z.string().nullable() }).nullable(),
});
export type VideoDetail = z.infer<typeof videoDetailSchema>;

export const videoListResponse = z.object({
  data: z.array(videoSummarySchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});

export { DEFAULT_MAX_UPLOAD_BYTES } from './limits.ts';
/**
 * What a browser computes of a video file before sending it: `<algorithm>:<size>:<hex digest of
 * its first and last MiB>`. Read whole in no time even for a 20 GB file, and enough to tell two
 * recordings apart; kept with the upload so that a resume from any browser sends the same file.
 */
export const UPLOAD_FINGERPRINT_PATTERN = /^(sha256|fnv64):(\d{1,16}):([0-9a-f]{16,64})$/;

/** One storyboard thumbnail every this many seconds at most. */
export const STORYBOARD_MAX_INTERVAL_SECONDS = 10;
export const SKIP_SECONDS = 10;

export const VIDEO_SOCKET_EVENTS = { progress: 'VIDEO_PROGRESS' } as const;
/** Payload of VIDEO_PROGRESS, sent to the author while the media pipeline works. */
export interface VideoProgressEvent {
  videoId: string;
  mediaStatus: MediaStatus;
  progress: number;
}
