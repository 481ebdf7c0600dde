import { z } from 'zod';
import { fencingTokenSchema } from './claims.ts';
import { drawingSchema } from './drawing.ts';
import { LANGUAGES } from './i18n.ts';
import { COLORS } from './limits.ts';
import { specialtyRef } from './users.ts';
import { nasaTlxSchema } from './videos.ts';

/**
 * The third stage of the workflow (SPEC §1, §2, §5): an expert holds a prepared video, rates each
 * step and the five GOALS skills on five levels, writes an assessment and advice (text and
 * voice), leaves time-coded comments, and submits. The learner reads the result once submitted.
 */

// ---- Ratings

export const RATING_LEVELS = [1, 2, 3, 4, 5] as const;
export type RatingLevel = (typeof RATING_LEVELS)[number];
/** An integer 1..5, typed as the level it is. */
export const ratingSchema = z
  .number({ error: 'INVALID_VALUE' })
  .int({ error: 'INVALID_VALUE' })
  .min(1, { error: 'INVALID_VALUE' })
  .max(5, { error: 'INVALID_VALUE' }) as unknown as z.ZodType<RatingLevel, RatingLevel>;

/** SPEC §9: the five levels run from red to dark green. */
export function ratingColor(level: RatingLevel): string {
  return COLORS.ratings[level - 1]!;
}

/** The name of each level, shown beside its colour (and read by screen readers). */
export const RATING_LABELS: Record<RatingLevel, { fr: string; en: string }> = {
  1: { fr: 'Insuffisant', en: 'Poor' },
  2: { fr: 'À améliorer', en: 'Below expectations' },
  3: { fr: 'Satisfaisant', en: 'Competent' },
  4: { fr: 'Bon', en: 'Good' },
  5: { fr: 'Excellent', en: 'Excellent' },
};

// ---- The five KPIs: the domains of GOALS (Global Operative Assessment of Laparoscopic Skills)

export const KPIS = ['depthPerception', 'bimanualDexterity', 'efficiency', 'tissueHandling', 'autonomy'] as const;
export type Kpi = (typeof KPIS)[number];

interface Text {
  fr: string;
  en: string;
}
export interface KpiDefinition {
  name: Text;
  /** What the skill is about, in one line. */
  summary: Text;
  /**
   * What each level looks like. Levels 1, 3 and 5 are the anchors of GOALS (Vassiliou et al.,
   * 2005); 2 and 4 sit between them, as GOALS leaves them.
   */
  levels: Record<RatingLevel, Text>;
}

export const KPI_DEFINITIONS: Record<Kpi, KpiDefinition> = {
  depthPerception: {
    name: { fr: 'Perception de la profondeur', en: 'Depth perception' },
    summary: {
      fr: 'Diriger les instruments vers la cible, dans le bon plan, sans la dépasser.',
      en: 'Directing the instruments to the target, in the right plane, without overshooting.',
    },
    levels: {
      1: {
        fr: 'Dépasse constamment la cible, larges mouvements de balayage, corrige lentement.',
        en: 'Constantly overshoots target, wide swings, slow to correct.',
      },
      2: {
        fr: 'Dépasse souvent la cible et corrige avec retard, mais finit par l’atteindre.',
        en: 'Often overshoots target and corrects late, but eventually reaches it.',
      },
      3: {
        fr: 'Dépasse ou manque parfois la cible, mais corrige rapidement.',
        en: 'Some overshooting or missing of target, but quick to correct.',
      },
      4: {
        fr: 'Dépasse rarement la cible et corrige aussitôt ; les instruments restent dans le bon plan.',
        en: 'Rarely overshoots target and corrects at once; instruments stay in the right plane.',
      },
      5: {
        fr: 'Dirige les instruments avec précision vers la cible, dans le bon plan.',
        en: 'Accurately directs instruments in the correct plane to target.',
      },
    },
  },
  bimanualDexterity: {
    name: { fr: 'Dextérité bimanuelle', en: 'Bimanual dexterity' },
    summary: {
      fr: 'Utiliser les deux mains de façon complémentaire pour exposer et opérer.',
      en: 'Using both hands in a complementary way to expose and operate.',
    },
    levels: {
      1: {
        fr: 'N’utilise qu’une main, ignore la main non dominante, mauvaise coordination entre les mains.',
        en: 'Uses only one hand, ignores non-dominant hand, poor coordination between hands.',
      },
      2: {
        fr: 'Utilise la main non dominante par moments, surtout pour tenir ; coordination hésitante.',
        en: 'Uses the non-dominant hand at times, mostly to hold; hesitant coordination.',
      },
      3: {
        fr: 'Utilise les deux mains, mais sans optimiser leur interaction.',
        en: 'Uses both hands, but does not optimize interaction between hands.',
      },
      4: {
        fr: 'Utilise les deux mains de façon coordonnée ; l’exposition est le plus souvent bonne.',
        en: 'Uses both hands in a coordinated way; exposure is good most of the time.',
      },
      5: {
        fr: 'Utilise les deux mains avec expertise, de façon complémentaire, pour une exposition optimale.',
        en: 'Expertly uses both hands in a complementary manner to provide optimal exposure.',
      },
    },
  },
  efficiency: {
    name: { fr: 'Efficacité des mouvements', en: 'Movement efficiency' },
    summary: {
      fr: 'Des gestes planifiés, sûrs et économes, sans hésitation ni perte de temps.',
      en: 'Planned, safe and economical movements, without hesitation or wasted time.',
    },
    levels: {
      1: {
        fr: 'Efforts incertains et inefficaces ; nombreux gestes hésitants ; change sans cesse d’objectif ou persiste sans progresser.',
        en: 'Uncertain, inefficient efforts; many tentative movements; constantly changing focus or persisting without progress.',
      },
      2: {
        fr: 'Gestes souvent hésitants ou inutiles ; progresse, mais avec des reprises fréquentes.',
        en: 'Movements often tentative or unnecessary; makes progress, but with frequent restarts.',
      },
      3: {
        fr: 'Lent, mais les gestes planifiés sont raisonnablement organisés.',
        en: 'Slow, but planned movements are reasonably organized.',
      },
      4: {
        fr: 'Gestes organisés et sûrs, à un rythme correct ; quelques mouvements superflus.',
        en: 'Organized and safe movements at a steady pace; a few unnecessary movements.',
      },
      5: {
        fr: 'Conduite assurée, efficace et sûre ; reste concentré sur la tâche jusqu’à ce qu’une autre approche s’avère meilleure.',
        en: 'Confident, efficient and safe conduct; maintains focus on task until it is better performed by way of an alternative approach.',
      },
    },
  },
  tissueHandling: {
    name: { fr: 'Manipulation des tissus', en: 'Tissue handling' },
    summary: {
      fr: 'Une traction juste, sans traumatisme pour les tissus ni les structures voisines.',
      en: 'Appropriate traction, without trauma to the tissue or the structures nearby.',
    },
    levels: {
      1: {
        fr: 'Gestes brusques, déchire les tissus, lèse les structures adjacentes, mauvais contrôle de la pince qui glisse souvent.',
        en: 'Rough movements, tears tissue, injures adjacent structures, poor grasper control, grasper frequently slips.',
      },
      2: {
        fr: 'Manipulation parfois brusque ; saignements ou glissements de la pince fréquents, sans lésion grave.',
        en: 'Handling sometimes rough; frequent bleeding or grasper slips, without serious injury.',
      },
      3: {
        fr: 'Manipule les tissus raisonnablement bien, traumatisme mineur des tissus adjacents (saignement inutile ou glissement de la pince occasionnels).',
        en: 'Handles tissues reasonably well, minor trauma to adjacent tissue (occasional unnecessary bleeding or slipping of the grasper).',
      },
      4: {
        fr: 'Manipule bien les tissus ; traction le plus souvent adaptée, traumatisme rare et minime.',
        en: 'Handles tissues well; traction appropriate most of the time, rare and minimal trauma.',
      },
      5: {
        fr: 'Manipule bien les tissus, applique une traction adaptée, lésion négligeable des structures adjacentes.',
        en: 'Handles tissues well, applies appropriate traction, negligible injury to adjacent structures.',
      },
    },
  },
  autonomy: {
    name: { fr: 'Autonomie', en: 'Autonomy' },
    summary: {
      fr: 'Mener la procédure à son terme sans l’aide du superviseur.',
      en: 'Completing the procedure without the supervisor’s help.',
    },
    levels: {
      1: {
        fr: 'Incapable de terminer la tâche, même avec des indications verbales.',
        en: 'Unable to complete entire task, even with verbal guidance.',
      },
      2: {
        fr: 'Termine la tâche avec des indications importantes et répétées, ou une reprise en main.',
        en: 'Completes the task with substantial, repeated guidance, or a takeover.',
      },
      3: {
        fr: 'Capable de terminer la tâche en sécurité avec des indications modérées.',
        en: 'Able to complete task safely with moderate guidance.',
      },
      4: {
        fr: 'Termine la tâche en sécurité avec des indications ponctuelles.',
        en: 'Completes the task safely with occasional guidance.',
      },
      5: {
        fr: 'Capable de terminer la tâche seul, sans sollicitation.',
        en: 'Able to complete task independently without prompting.',
      },
    },
  },
};

// ---- Limits (the spec is silent; these are the product's choices)

export const ANALYSIS_LIMITS = {
  assessmentMax: 5000,
  adviceMax: 10_000,
  commentMax: 1000,
  /** Time-coded comments of one analysis. */
  commentsMax: 200,
  /** Voice advice length: longer recordings are refused, the web stops recording at this length. */
  voiceMaxSeconds: 300,
  /** Largest voice file accepted (5 min of WAV at 48 kHz is ~29 MB). */
  voiceMaxBytes: 32 * 1024 * 1024,
} as const;

// ---- What the expert writes

export const ANALYSIS_STATUSES = ['draft', 'submitted'] as const;
export type AnalysisStatus = (typeof ANALYSIS_STATUSES)[number];

export const stepRatingSchema = z.object({ stepId: z.uuid({ error: 'INVALID_VALUE' }), rating: ratingSchema.nullable() }).strict();
export const kpiRatingsSchema = z
  .object(
    Object.fromEntries(KPIS.map((k) => [k, ratingSchema.nullable()])) as Record<Kpi, z.ZodNullable<z.ZodType<RatingLevel, RatingLevel>>>,
  )
  .partial()
  .strict();
export type KpiRatings = z.infer<typeof kpiRatingsSchema>;

const longText = (max: number) => z.string({ error: 'INVALID_VALUE' }).max(max, { error: 'TEXT_TOO_LONG' });

/**
 * PUT /expert/videos/{id}/analysis: saves the draft. Every field is optional and only the fields
 * sent change (autosave sends what changed); stepRatings replace the rating of the steps named.
 */
export const saveAnalysisBody = z
  .object({
    fencingToken: fencingTokenSchema,
    stepRatings: z.array(stepRatingSchema).max(200).optional(),
    kpiRatings: kpiRatingsSchema.optional(),
    globalRating: ratingSchema.nullable().optional(),
    assessment: longText(ANALYSIS_LIMITS.assessmentMax).optional(),
    advice: longText(ANALYSIS_LIMITS.adviceMax).optional(),
  })
  .strict();
export type SaveAnalysisBody = z.infer<typeof saveAnalysisBody>;

/** POST /expert/videos/{id}/finalize: without confirmAnyway, an unrated step or KPI refuses it. */
export const finalizeAnalysisBody = z.object({ fencingToken: fencingTokenSchema, confirmAnyway: z.boolean().default(false) }).strict();

/** Seconds on the rendered (prepared) video; `end` makes the comment a range. */
const seconds = z.number({ error: 'FIELD_REQUIRED' }).min(0, { error: 'INVALID_VALUE' }).max(86_400, { error: 'INVALID_VALUE' });
export const commentBody = z
  .object({
    fencingToken: fencingTokenSchema,
    start: seconds,
    end: seconds.nullable().optional(),
    text: z
      .string({ error: 'FIELD_REQUIRED' })
      .trim()
      .min(1, { error: 'FIELD_REQUIRED' })
      .max(ANALYSIS_LIMITS.commentMax, { error: 'TEXT_TOO_LONG' }),
    /** A drawing over the frame the comment points at (issue 18); null removes it. */
    drawing: drawingSchema.nullable().optional(),
  })
  .strict()
  .refine((c) => c.end === undefined || c.end === null || c.end > c.start, { error: 'INVALID_VALUE', path: ['end'] });
export type CommentBody = z.infer<typeof commentBody>;

/** Abandon, remove the voice advice, delete a comment: the holder's token only. */
export { fencedBody } from './claims.ts';

export const commentSchema = z.object({
  id: z.string(),
  start: z.number(),
  end: z.number().nullable(),
  text: z.string(),
  drawing: drawingSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AnalysisComment = z.infer<typeof commentSchema>;

export const voiceAdviceSchema = z.object({
  mediaId: z.string(),
  /** Signed URL of AAC audio in an MP4 (M4A) container: plays in Chromium, Firefox and Safari. */
  url: z.string(),
  duration: z.number(),
  contentType: z.string(),
});

export const draftSchema = z.object({
  videoId: z.string(),
  status: z.enum(ANALYSIS_STATUSES),
  stepRatings: z.array(z.object({ stepId: z.string(), rating: ratingSchema.nullable() })),
  kpiRatings: z.record(z.enum(KPIS), ratingSchema.nullable()),
  globalRating: ratingSchema.nullable(),
  assessment: z.string(),
  advice: z.string(),
  voice: voiceAdviceSchema.nullable(),
  comments: z.array(commentSchema),
  updatedAt: z.string(),
  submittedAt: z.string().nullable(),
});
export type AnalysisDraft = z.infer<typeof draftSchema>;

/**
 * Finalize refused with ANALYSIS_UNRATED: the error's `details` list what is unrated, each as
 * `{ path: 'stepRatings.<stepId>' | 'kpiRatings.<kpi>', code: 'FIELD_REQUIRED' }`.
 */
export function unratedPaths(details: readonly { path: string }[]): { stepIds: string[]; kpis: Kpi[] } {
  const stepIds: string[] = [];
  const kpis: Kpi[] = [];
  for (const { path } of details) {
    if (path.startsWith('stepRatings.')) stepIds.push(path.slice('stepRatings.'.length));
    const kpi = path.startsWith('kpiRatings.') ? path.slice('kpiRatings.'.length) : null;
    if (kpi && (KPIS as readonly string[]).includes(kpi)) kpis.push(kpi as Kpi);
  }
  return { stepIds, kpis };
}

// ---- The expert's lists

/**
 * A step of the prepared video, on the rendered video's time line; time between steps is
 * non-active time (DESIGN.md).
 */
export const analysisStepSchema = z.object({
  id: z.string(),
  name: z.string(),
  start: z.number(),
  end: z.number(),
  position: z.number(),
});
export type AnalysisStep = z.infer<typeof analysisStepSchema>;

/**
 * What an expert sees of the learner (blind review, docs/analysis.md): their experience, never
 * their name, e-mail, RPPS number, city or care centre.
 */
export const learnerExperienceSchema = z.object({
  specialty: z.string().nullable(),
  yearsOfExperience: z.number().nullable(),
  yearsOfRoboticExperience: z.number().nullable(),
  robot: z.string().nullable(),
});

export const expertListItemSchema = z.object({
  id: z.string(),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  organ: z.object({ id: z.string(), name: z.string(), icon: z.string() }).nullable(),
  priority: z.boolean(),
  /** Seconds of the prepared video. */
  duration: z.number().nullable(),
  stepCount: z.number(),
  posterUrl: z.string().nullable(),
  /** When the video entered the pool (the end of its preparation). */
  pendingSince: z.string(),
  /** Whole hours spent in the pool (pool items). */
  waitingHours: z.number(),
  /** Held by the caller: the lease end and whole hours left (SPEC §9). */
  leaseEndsAt: z.string().nullable(),
  hoursLeft: z.number().nullable(),
  /** Analysed by the caller. */
  submittedAt: z.string().nullable(),
});
export type ExpertListItem = z.infer<typeof expertListItemSchema>;

export const EXPERT_LISTS = ['pool', 'held', 'analysed'] as const;
export type ExpertList = (typeof EXPERT_LISTS)[number];

export const expertListResponse = z.object({ data: z.array(expertListItemSchema), total: z.number(), page: z.number(), limit: z.number() });

/**
 * GET /expert/videos/{id}: everything the analysis page shows, for the expert holding it (or,
 * read-only with no lease, for the expert who submitted it).
 */
export const expertWorkspaceSchema = z.object({
  id: z.string(),
  status: z.string(),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  organ: z.object({ id: z.string(), name: z.string(), icon: z.string() }).nullable(),
  priority: z.boolean(),
  fields: z.record(z.string(), z.unknown()),
  keySteps: z.array(z.object({ id: z.string(), name: z.string() })),
  nasaTlx: nasaTlxSchema.nullable(),
  nasaTlxRawScore: z.number().nullable(),
  learner: learnerExperienceSchema,
  videoUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  duration: z.number().nullable(),
  pictures: z.array(z.object({ id: z.string(), url: z.string(), width: z.number().nullable(), height: z.number().nullable() })),
  steps: z.array(analysisStepSchema),
  fencingToken: z.number().nullable(),
  leaseEndsAt: z.string().nullable(),
  hoursLeft: z.number().nullable(),
  draft: draftSchema,
});
export type ExpertWorkspace = z.infer<typeof expertWorkspaceSchema>;

// ---- The learner's result

/**
 * GET /videos/{id}/analysis, once submitted. With the reader's showRatings off, every rating
 * (steps, KPIs, global) is null and `ratingsShown` false: the server leaves them out.
 */
/**
 * The expert who signs a review, with what the result page shows of their public profile (the
 * same as `GET /v1/users/{id}` with the career's specialty and the avatar), so that the page does
 * not ask for it after the result.
 */
export const resultExpertSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Their specialty in the reader's language; null when they have none. */
  specialty: specialtyRef.nullable(),
  /** Their avatar, by a URL signed for the reader; null when they have none. */
  media: z.object({ id: z.string(), url: z.string() }).nullable(),
});
export type ResultExpert = z.infer<typeof resultExpertSchema>;

export const analysisResultSchema = z.object({
  videoId: z.string(),
  ratingsShown: z.boolean(),
  expert: resultExpertSchema,
  submittedAt: z.string(),
  globalRating: ratingSchema.nullable(),
  assessment: z.string(),
  advice: z.string(),
  voice: voiceAdviceSchema.nullable(),
  kpis: z.array(z.object({ kpi: z.enum(KPIS), rating: ratingSchema.nullable() })),
  steps: z.array(analysisStepSchema.extend({ duration: z.number(), rating: ratingSchema.nullable() })),
  /** Seconds inside steps, and outside them (SPEC §3). */
  activeTime: z.number(),
  nonActiveTime: z.number(),
  comments: z.array(commentSchema),
  reportUrl: z.string(),
  /**
   * Every submitted review of the case, round by round, each signed by its expert (the fields above
   * are the first review's); one entry for a case reviewed once (docs/double-review.md).
   */
  reviews: z.array(
    z.object({
      round: z.number(),
      expert: resultExpertSchema,
      submittedAt: z.string(),
      globalRating: ratingSchema.nullable(),
      assessment: z.string(),
      advice: z.string(),
      voice: voiceAdviceSchema.nullable(),
      kpis: z.array(z.object({ kpi: z.enum(KPIS), rating: ratingSchema.nullable() })),
      steps: z.array(z.object({ id: z.string(), rating: ratingSchema.nullable() })),
      comments: z.array(commentSchema),
    }),
  ),
  /** The mean of the reviews per KPI and step (one decimal), null when no review rated it or ratings are hidden. */
  mean: z.object({
    globalRating: z.number().nullable(),
    kpis: z.array(z.object({ kpi: z.enum(KPIS), rating: z.number().nullable() })),
    steps: z.array(z.object({ id: z.string(), rating: z.number().nullable() })),
  }),
  /** Where the experts disagreed (2 levels or more), by KPI and step names; null when they agree. */
  disagreement: z.object({ items: z.array(z.object({ kind: z.enum(['kpi', 'step']), key: z.string(), name: z.string() })) }).nullable(),
  /** Another expert reviews the case now: the result shown is that of the reviews submitted so far. */
  furtherReviewPending: z.boolean(),
});
export type AnalysisResult = z.infer<typeof analysisResultSchema>;

/**
 * `GET /v1/videos/{id}/analysis?ifReady=true`: asked together with the case, before the page knows
 * whether the case is analysed or whether its author's self-assessment invitation is open. Instead
 * of ANALYSIS_NOT_READY, and instead of serving the result (which would lock the self-assessment)
 * while the invitation is open, the answer is null.
 */
export const analysisResultQuery = z.object({
  ifReady: z.enum(['true', 'false'], { error: 'INVALID_VALUE' }).optional(),
  langCode: z.enum(LANGUAGES, { error: 'INVALID_VALUE' }).optional(),
});

/** Active time: the union of the steps' ranges; the rest of the video is non-active. */
export function activeTimes(steps: readonly { start: number; end: number }[], duration: number): { active: number; nonActive: number } {
  const ranges = steps
    .map((s) => [Math.max(0, s.start), Math.min(duration, s.end)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let active = 0;
  let reach = 0;
  for (const [a, b] of ranges) {
    const from = Math.max(a, reach);
    if (b > from) active += b - from;
    reach = Math.max(reach, b);
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return { active: round(active), nonActive: round(Math.max(0, duration - active)) };
}

/**
 * To every connected expert: a video left the pool (claimed) or came back to it (released, lease
 * expired); refetch the pool. Videos that arrive from the preparation stage are not announced:
 * the pool page also refetches every minute.
 */
export const ANALYSIS_SOCKET_EVENTS = { poolChanged: 'ANALYSIS_POOL_CHANGED' } as const;
export interface AnalysisPoolChangedEvent {
  videoId: string;
  change: 'claimed' | 'returned';
}

/** `/videos/{id}?t=SECONDS` opens the player at a comment's moment. */
export function momentLink(videoId: string, seconds: number): string {
  return `/videos/${videoId}?t=${Math.floor(seconds)}`;
}

/** m:ss, or h:mm:ss past an hour. */
export function formatTimecode(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
