import { z } from 'zod';
import { fencingTokenSchema } from './claims.ts';
import { MEDIA_STATUSES, storyboardSchema, VIDEO_STATUSES } from './videos.ts';
import { ORGAN_ICONS } from './vocabularies.ts';

/*
 * The editor's stage of the workflow (SPEC §1, §5; DESIGN "The video workflow").
 *
 * Routes (base /v1, editors only; anyone a video does not concern gets 404):
 *   GET  /editor/pool?page&limit&filter=surgeryId==…__organId==…   pool: priority first, then oldest sent
 *   GET  /editor/held                                              videos I hold, with lease end and hours left
 *   GET  /editor/prepared?page&limit                               videos I submitted (processing and later)
 *   POST /editor/videos/{id}/claim      {}                          -> ClaimResponse (409 CLAIM_TAKEN to the losers)
 *   POST /editor/videos/{id}/release    { fencingToken }            -> ReleaseResponse
 *   GET  /editor/videos/{id}                                        -> PreparationDetail (holder, or the editor who submitted it)
 *   PUT  /editor/videos/{id}/trims      SaveTrimsBody               -> PreparationDraft (phase 'trim' only)
 *   PUT  /editor/videos/{id}/phase      SetPhaseBody                -> PreparationDraft ('steps' needs a trim; 'trim' deletes the steps)
 *   PUT  /editor/videos/{id}/steps      SaveStepsBody               -> PreparationDraft (phase 'steps' only)
 *   POST /editor/videos/{id}/submit     { fencingToken }            -> PreparationDetail (status 'processing'; a render job follows)
 *        submit again after a failed render is the retry.
 * The learner's GET /videos/{id} carries `steps` (VideoStep[]) once rendered, and its
 * status changes are pushed to the author as VIDEO_STATUS_CHANGED.
 *
 * Times are seconds of the SOURCE in every draft (trims and steps); the server snaps them to the
 * source's frame grid. Rendered steps (VideoStep) are seconds of the RESULT.
 */

export const MIN_STEPS = 2;
export const MAX_STEPS = 30;
export const MAX_TRIMS = 50;
/** A kept range shorter than this is refused (a mis-click, not a part of a surgery). */
export const MIN_TRIM_SECONDS = 1;
export const STEP_NAME_MAX = 100;
/** Cut suggestions closer than this to one another are merged. */
export const SUGGESTION_MIN_GAP_SECONDS = 1;

export const PREPARATION_PHASES = ['trim', 'steps'] as const;
export type PreparationPhase = (typeof PREPARATION_PHASES)[number];

/** idle: nothing submitted; rendering: the job runs; failed: the last render failed (retry = submit); done. */
export const RENDER_STATUSES = ['idle', 'rendering', 'failed', 'done'] as const;
export type RenderStatus = (typeof RENDER_STATUSES)[number];

const seconds = z
  .number({ error: 'FIELD_REQUIRED' })
  .min(0, { error: 'TRIM_POSITION' })
  .max(7 * 24 * 3600, { error: 'TRIM_POSITION' });

/** A kept range of the source, [start, end) in seconds. */
export const trimSchema = z
  .object({
    start: seconds.describe(
      'Where the kept range starts, in seconds of the source video (snapped by the server to the start of the frame shown at that time).',
    ),
    end: seconds.describe(
      'Where the kept range ends (exclusive), in seconds of the source video, snapped to a frame boundary; at least 1 s after start.',
    ),
  })
  .strict()
  .describe(
    'A kept range of the source: the render keeps what is inside the ranges, joined in order, and drops the rest. Ranges are sorted, inside the source and do not overlap.',
  );
export type Trim = z.infer<typeof trimSchema>;

export const saveTrimsBody = z
  .object({
    fencingToken: fencingTokenSchema,
    trims: z
      .array(trimSchema)
      .max(MAX_TRIMS, { error: 'TRIM_POSITION' })
      .describe('Every kept range of the source, in order (at most 50; at least one at submit).'),
  })
  .strict();
export type SaveTrimsBody = z.infer<typeof saveTrimsBody>;

/** A step of the draft: a vocabulary step (named in the reader's language) or a free name. */
export const draftStepSchema = z
  .object({
    /** A surgery step of the video's surgery, or null for a free name. */
    surgeryStepId: z.uuid({ error: 'INVALID_VALUE' }).nullable(),
    /** Free name; ignored when surgeryStepId is set. May be empty in a draft, not at submit. */
    name: z.string().trim().max(STEP_NAME_MAX, { error: 'TEXT_TOO_LONG' }),
    start: seconds.describe(
      'Where the step starts, in seconds of the source (not of the rendered video), inside a kept range; snapped to a frame.',
    ),
    end: seconds.describe(
      'Where the step ends, in seconds of the source, after start and inside a kept range; snapped to a frame. The render maps it onto the joined video.',
    ),
  })
  .strict();
export type DraftStep = z.infer<typeof draftStepSchema>;

export const saveStepsBody = z
  .object({
    fencingToken: fencingTokenSchema,
    steps: z.array(draftStepSchema).max(MAX_STEPS, { error: 'STEPS_MAX' }),
  })
  .strict();
export type SaveStepsBody = z.infer<typeof saveStepsBody>;

export const setPhaseBody = z
  .object({ fencingToken: fencingTokenSchema, phase: z.enum(PREPARATION_PHASES, { error: 'INVALID_VALUE' }) })
  .strict();
export type SetPhaseBody = z.infer<typeof setPhaseBody>;

export const CUT_SUGGESTION_KINDS = ['scene', 'dark', 'bright'] as const;
export type CutSuggestionKind = (typeof CUT_SUGGESTION_KINDS)[number];
/**
 * Where a cut likely belongs: a scene change (an instant: `end` null), or a dark or washed-out
 * stretch (camera out of the patient, lens cleaned) from start to end. Score 0..1.
 */
export const cutSuggestionSchema = z.object({
  kind: z.enum(CUT_SUGGESTION_KINDS),
  start: z.number(),
  end: z.number().nullable(),
  score: z.number(),
});
export type CutSuggestion = z.infer<typeof cutSuggestionSchema>;

const surgeryRef = z.object({ id: z.string(), name: z.string() }).nullable();
const organRef = z.object({ id: z.string(), name: z.string(), icon: z.enum(ORGAN_ICONS) }).nullable();

/** A video of the pool. Nothing about its author: an editor needs the case, not the person. */
export const poolItemSchema = z.object({
  id: z.string(),
  surgery: surgeryRef,
  organ: organRef,
  /** Seconds of the source. */
  duration: z.number().nullable(),
  priority: z.boolean(),
  posterUrl: z.string().nullable(),
  /** When the learner sent it (ISO): the waiting time runs from here. */
  sentAt: z.string(),
  waitingSeconds: z.number(),
});
export type PoolItem = z.infer<typeof poolItemSchema>;

export const poolListResponse = z.object({
  data: z.array(poolItemSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export const POOL_FILTERS = ['surgeryId', 'organId'] as const;

export const heldItemSchema = poolItemSchema.extend({
  leaseEndsAt: z.string(),
  hoursLeft: z.number(),
  fencingToken: z.number(),
  phase: z.enum(PREPARATION_PHASES),
  renderStatus: z.enum(RENDER_STATUSES),
});
export type HeldItem = z.infer<typeof heldItemSchema>;
export const heldListResponse = z.object({ data: z.array(heldItemSchema), total: z.number(), page: z.number(), limit: z.number() });

export const preparedItemSchema = poolItemSchema.extend({
  status: z.enum(VIDEO_STATUSES),
  submittedAt: z.string(),
  renderStatus: z.enum(RENDER_STATUSES),
  stepCount: z.number(),
});
export type PreparedItem = z.infer<typeof preparedItemSchema>;
export const preparedListResponse = z.object({
  data: z.array(preparedItemSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});

/** A step of the draft as the server stores it: the name resolved in the reader's language. */
export const storedDraftStepSchema = draftStepSchema.extend({ name: z.string() });

/** What a fenced write answers: the saved draft, snapped to frames, and the lease. */
export const preparationDraftSchema = z.object({
  videoId: z.string(),
  phase: z.enum(PREPARATION_PHASES),
  trims: z.array(trimSchema),
  steps: z.array(storedDraftStepSchema),
  fencingToken: z.number(),
  leaseEndsAt: z.string(),
  savedAt: z.string().nullable(),
});
export type PreparationDraft = z.infer<typeof preparationDraftSchema>;

/** GET /editor/videos/{id}: everything /editor/[id] needs. */
export const preparationDetailSchema = z.object({
  id: z.string(),
  status: z.enum(VIDEO_STATUSES),
  mediaStatus: z.enum(MEDIA_STATUSES),
  surgery: surgeryRef,
  organ: organRef,
  priority: z.boolean(),
  /** The key steps the learner asks the expert to look at. */
  keySteps: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Signed URL of the source (only to its holder while in preparation). */
  sourceUrl: z.string().nullable(),
  /** Signed URL of the rendered video, for the editor who prepared it, once rendered. */
  renderedUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
  frameRate: z.number(),
  duration: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  phase: z.enum(PREPARATION_PHASES),
  trims: z.array(trimSchema),
  steps: z.array(storedDraftStepSchema),
  /** Null while the analysis job has not run yet. */
  suggestions: z.array(cutSuggestionSchema).nullable(),
  /** Null once the video is no longer held (submitted). */
  leaseEndsAt: z.string().nullable(),
  fencingToken: z.number().nullable(),
  savedAt: z.string().nullable(),
  renderStatus: z.enum(RENDER_STATUSES),
  /** A catalogue code when the last render failed. */
  renderError: z.string().nullable(),
  /** The surgery's step vocabulary, in the reader's language, in order. */
  vocabulary: z.array(z.object({ id: z.string(), name: z.string(), position: z.number() })),
});
export type PreparationDetail = z.infer<typeof preparationDetailSchema>;

/** Snaps a time to the nearest frame of a source at `frameRate`. */
export function snapToFrame(seconds: number, frameRate: number): number {
  return Math.round(seconds * frameRate) / frameRate;
}

/**
 * The socket events of the stage. POOL_CHANGED goes to every editor (a video entered or left the
 * pool: refetch it); VIDEO_STATUS_CHANGED to the author and the holder of a video.
 */
export const PREPARATION_SOCKET_EVENTS = {
  poolChanged: 'PREPARATION_POOL_CHANGED',
  videoStatusChanged: 'VIDEO_STATUS_CHANGED',
} as const;
export interface PoolChangedEvent {
  videoId: string;
  /** 'claimed' leaves the pool, 'returned' (release, expiry) and 'sent' enter it. */
  change: 'claimed' | 'returned' | 'sent';
}
export interface VideoStatusChangedEvent {
  videoId: string;
  status: (typeof VIDEO_STATUSES)[number];
}

/** Where trims live in the RESULT: the offset of each kept range once joined. */
export function resultOffsets(trims: readonly Trim[]): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const t of trims) {
    offsets.push(at);
    at += t.end - t.start;
  }
  return offsets;
}

/** Maps a source time inside a kept range onto the rendered video; null outside every range. */
export function sourceToResult(time: number, trims: readonly Trim[]): number | null {
  const offsets = resultOffsets(trims);
  for (const [i, t] of trims.entries()) {
    if (time >= t.start && time <= t.end) return offsets[i]! + (time - t.start);
  }
  return null;
}
