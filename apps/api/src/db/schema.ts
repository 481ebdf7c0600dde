import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { NotificationSettings, Preferences } from '@sutura/domain/preferences';
import type { NasaTlx } from '@sutura/domain/videos';
import type { Drawing } from '@sutura/domain/drawing';
import type { CutSuggestion, Trim } from '@sutura/domain/preparation';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/**
 * A number of a jsonb column as its own column, computed by PostgreSQL on every write: the
 * statistics average these by index only, without decoding the jsonb of thousands of rows.
 */
const fromJson = (name: string, column: string, key: string) => real(name).generatedAlwaysAs(sql.raw(`(${column} ->> '${key}')::real`));

// Vocabularies: names are kept in both languages, unique in each list and language whatever the
// case. A term something uses is retired (`retired_at`), never deleted: it keeps naming what uses
// it but is no longer offered in the pickers (docs/admin-catalog.md).
const retiredAt = () => timestamp('retired_at', { withTimezone: true });

export const specialties = pgTable(
  'specialties',
  {
    id: id(),
    code: text('code').notNull().unique(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    position: integer('position').notNull().default(0),
    retiredAt: retiredAt(),
  },
  (t) => [
    uniqueIndex('specialties_name_fr_unique').on(sql`lower(${t.nameFr})`),
    uniqueIndex('specialties_name_en_unique').on(sql`lower(${t.nameEn})`),
  ],
);

export const organs = pgTable(
  'organs',
  {
    id: id(),
    code: text('code').notNull().unique(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    icon: text('icon').notNull(),
    position: integer('position').notNull().default(0),
    retiredAt: retiredAt(),
  },
  (t) => [
    uniqueIndex('organs_name_fr_unique').on(sql`lower(${t.nameFr})`),
    uniqueIndex('organs_name_en_unique').on(sql`lower(${t.nameEn})`),
  ],
);

export const surgeries = pgTable(
  'surgeries',
  {
    id: id(),
    code: text('code').notNull().unique(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    organId: uuid('organ_id').references(() => organs.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    retiredAt: retiredAt(),
    /**
     * The share (0..100 %) of this surgery's cases drawn for a second independent review; null
     * follows the installation's default (docs/double-review.md).
     */
    secondReviewShare: smallint('second_review_share'),
  },
  (t) => [
    uniqueIndex('surgeries_name_fr_unique').on(sql`lower(${t.nameFr})`),
    uniqueIndex('surgeries_name_en_unique').on(sql`lower(${t.nameEn})`),
    index('surgeries_organ').on(t.organId),
    // The administrators' search of surgery videos (ILIKE '%…%' by trigrams, pg_trgm).
    index('surgeries_name_fr_trgm').using('gin', t.nameFr.op('gin_trgm_ops')),
    index('surgeries_name_en_trgm').using('gin', t.nameEn.op('gin_trgm_ops')),
  ],
);

export const surgerySteps = pgTable(
  'surgery_steps',
  {
    id: id(),
    surgeryId: uuid('surgery_id')
      .notNull()
      .references(() => surgeries.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    nameFr: text('name_fr').notNull(),
    nameEn: text('name_en').notNull(),
    position: integer('position').notNull(),
    retiredAt: retiredAt(),
  },
  (t) => [
    uniqueIndex('surgery_steps_surgery_code').on(t.surgeryId, t.code),
    uniqueIndex('surgery_steps_name_fr_unique').on(t.surgeryId, sql`lower(${t.nameFr})`),
    uniqueIndex('surgery_steps_name_en_unique').on(t.surgeryId, sql`lower(${t.nameEn})`),
  ],
);

/**
 * Every reference term the seed ever added (kind, code): the seed adds only terms it never added
 * before, so that a term an administrator deleted, renamed or retired stays as they left it.
 */
export const vocabularySeeds = pgTable(
  'vocabulary_seeds',
  {
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    seededAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.code] })],
);

/** The public RPPS directory, imported from the official extract. */
export const rppsDirectory = pgTable('rpps_directory', {
  rpps: text('rpps').primaryKey(),
  lastName: text('last_name').notNull(),
  firstName: text('first_name').notNull(),
  profession: text('profession'),
  specialty: text('specialty'),
  importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What a search for a person looks in: "first last", "last first" and the email, as one text so
 * that one trigram index serves it. Queries must use this very expression for the index to apply.
 */
export const USER_SEARCH_TEXT = "first_name || ' ' || last_name || ' ' || first_name || ' ' || email";

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{learner}'::text[]`),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    country: text('country'),
    city: text('city'),
    careCentreType: text('care_centre_type'),
    rpps: text('rpps'),
    specialtyId: uuid('specialty_id').references(() => specialties.id, { onDelete: 'set null' }),
    yearsOfExperience: integer('years_of_experience'),
    yearsOfRoboticExperience: integer('years_of_robotic_experience'),
    robot: text('robot'),
    recorderBrand: text('recorder_brand'),
    preferences: jsonb('preferences').$type<Preferences>().notNull(),
    notificationSettings: jsonb('notification_settings').$type<NotificationSettings>().notNull(),
    avatarMediaId: uuid('avatar_media_id'),
    pushToken: text('push_token'),
    /**
     * The language the person last used the app in (fr or en), recorded from their requests: their
     * mails and pushes follow it while their preference is "auto" (set by the browser).
     */
    appLanguage: text('app_language'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    /** Set by an administrator: the person can no longer sign in, and every session of theirs ended then. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_rpps_unique').on(t.rpps),
    index('users_specialty').on(t.specialtyId),
    // The admin list of people (newest first) and its counts per role.
    index('users_created').on(t.createdAt),
    index('users_roles').using('gin', t.roles),
    // The administrators' search of surgery videos by author: USER_SEARCH_TEXT, by trigrams (pg_trgm).
    index('users_search_trgm').using('gin', sql`(${sql.raw(USER_SEARCH_TEXT)}) gin_trgm_ops`),
  ],
);

/** A signed-in session; the JWT names it, so revoking the row signs the token out. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    device: text('device'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The id (`tid`) of the session's current token; a refresh replaces it. */
    tokenId: uuid('token_id'),
    /** The token a refresh replaced stays valid until `previousUntil` (requests already in flight). */
    previousTokenId: uuid('previous_token_id'),
    previousUntil: timestamp('previous_until', { withTimezone: true }),
    /** A session opened through a provider: its id, and its ID token (the hint of RP-initiated logout). */
    ssoProvider: text('sso_provider'),
    ssoIdToken: text('sso_id_token'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/**
 * An identity of an OpenID Connect provider linked to an account: the provider's subject signs
 * the person in from then on. One account per identity; a person may have several.
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    rpps: text('rpps'),
    profession: text('profession'),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sso_identities_subject').on(t.provider, t.subject), index('sso_identities_user').on(t.userId)],
);

/**
 * A sign-in in flight at a provider (state, nonce, PKCE verifier), held in the database so that
 * any API process of a cluster can take the callback; the browser holds the key in a short cookie.
 * Used once: the callback deletes it.
 */
export const ssoRequests = pgTable('sso_requests', {
  keyHash: text('key_hash').primaryKey(),
  provider: text('provider').notNull(),
  state: text('state').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  nextPath: text('next_path'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * An identity the provider proved that has no account yet: waiting for the person to complete
 * their sign-up, or to prove they hold the existing account it will be linked to.
 */
export const ssoPending = pgTable('sso_pending', {
  keyHash: text('key_hash').primaryKey(),
  provider: text('provider').notNull(),
  subject: text('subject').notNull(),
  kind: text('kind').notNull(),
  /** What the provider said of the person: names, email, RPPS, profession, groups. */
  claims: jsonb('claims').$type<Record<string, unknown>>().notNull(),
  /** For a link: the account it would be linked to. */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  idToken: text('id_token'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * Codes mailed for email validation and password reset (hashed, 15 minutes, 5 tries). Rows stay
 * after use: the wrong tries they hold count against the account's budget (codes.ts).
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** Set when the right code was given (consumedAt alone may mean replaced by a newer code). */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_user_purpose').on(t.userId, t.purpose)],
);

export const media = pgTable(
  'media',
  {
    id: id(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Files of a video (the playable file, poster, storyboard sheets, pictures) go with it. */
    videoId: uuid('video_id').references(() => videos.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    /** Bytes: a video's file passes 2 GiB easily (up to the upload limit). */
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    createdAt: createdAt(),
  },
  (t) => [index('media_owner').on(t.ownerId), index('media_video').on(t.videoId)],
);

/**
 * A case a learner uploads: a surgery video (kind 'video') or pictures only (kind 'pictures').
 * `mediaStatus` follows the upload and the media pipeline; `status` the review workflow.
 * Nothing here identifies the patient, and the uploaded file's name is never kept.
 */
export const videos = pgTable(
  'videos',
  {
    id: id(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('video'),
    /**
     * 'case': a learner's case of the review workflow. 'best_case': a video an administrator
     * uploaded as a best case (modules/best-cases) — in nobody's videos, in no pool.
     */
    purpose: text('purpose').notNull().default('case'),
    status: text('status').notNull().default('saved'),
    mediaStatus: text('media_status').notNull().default('uploading'),
    processingProgress: integer('processing_progress').notNull().default(0),
    /** An error code of the catalogue, readable by the learner in their language. */
    failureReason: text('failure_reason'),
    surgeryId: uuid('surgery_id').references(() => surgeries.id, { onDelete: 'set null' }),
    organId: uuid('organ_id').references(() => organs.id, { onDelete: 'set null' }),
    keyStepIds: uuid('key_step_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    equipmentBrand: text('equipment_brand'),
    equipmentUsed: text('equipment_used'),
    ageRange: text('age_range'),
    patientSex: text('patient_sex'),
    bmi: text('bmi'),
    complication: boolean('complication'),
    surgicalHistory: text('surgical_history'),
    radiationHistory: boolean('radiation_history'),
    medicalBackground: text('medical_background')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    mainHand: text('main_hand'),
    surgeryDuration: integer('surgery_duration'),
    /**
     * The day of the operation (YYYY-MM-DD), given by the learner, never in the future; null when
     * not given. The learning curves order cases by it, by the day the case was sent without it
     * (docs/learning-curves.md).
     */
    operatedOn: date('operated_on', { mode: 'string' }),
    messageToProctor: text('message_to_proctor'),
    nasaTlx: jsonb('nasa_tlx').$type<NasaTlx>(),
    tlxMentalDemand: fromJson('tlx_mental_demand', 'nasa_tlx', 'mentalDemand'),
    tlxPhysicalDemand: fromJson('tlx_physical_demand', 'nasa_tlx', 'physicalDemand'),
    tlxTemporalDemand: fromJson('tlx_temporal_demand', 'nasa_tlx', 'temporalDemand'),
    tlxPerformance: fromJson('tlx_performance', 'nasa_tlx', 'performance'),
    tlxEffort: fromJson('tlx_effort', 'nasa_tlx', 'effort'),
    tlxFrustration: fromJson('tlx_frustration', 'nasa_tlx', 'frustration'),
    priority: boolean('priority').notNull().default(false),
    favourite: boolean('favourite').notNull().default(false),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * The author's specialty when the case was sent (a snapshot: the NASA-TLX peer group of the
     * statistics at the time, as `analyses.author_specialty_id` is for the ratings). Filled by the
     * trigger `videos_sent_snapshot` whenever `sent_at` is set, whatever writes it.
     */
    authorSpecialtyId: uuid('author_specialty_id').references(() => specialties.id, { onDelete: 'set null' }),
    /**
     * When the file of the case arrived whole (the last byte of a video; a pictures case at its
     * creation); null while uploading. Kept by the trigger `videos_received_at` (docs/admin.md).
     */
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /** The tus upload id while the source is being received. */
    uploadId: text('upload_id'),
    /** When the author was told that this unfinished upload will expire (housekeeping). */
    uploadWarnedAt: timestamp('upload_warned_at', { withTimezone: true }),
    /**
     * What the browser computed of the file being received (its size and a hash of its first and
     * last MiB): another browser of the author resumes only with the same file.
     */
    uploadFingerprint: text('upload_fingerprint'),
    sourceKey: text('source_key'),
    sourceSize: bigint('source_size', { mode: 'number' }),
    videoMediaId: uuid('video_media_id'),
    posterMediaId: uuid('poster_media_id'),
    storyboard: jsonb('storyboard').$type<{
      interval: number;
      columns: number;
      rows: number;
      thumbWidth: number;
      thumbHeight: number;
      count: number;
      sheetMediaIds: string[];
      vttMediaId: string;
    }>(),
    duration: doublePrecision('duration'),
    width: integer('width'),
    height: integer('height'),
    frameRate: doublePrecision('frame_rate'),
    videoCodec: text('video_codec'),
    audioCodec: text('audio_codec'),
    remuxed: boolean('remuxed'),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /**
     * The claim of the stage in progress (modules/claims): who holds the video, until when, and
     * the fencing token bumped by every claim that every write of the holder must carry.
     */
    claimHolderId: uuid('claim_holder_id').references(() => users.id, { onDelete: 'set null' }),
    leaseEndsAt: timestamp('lease_ends_at', { withTimezone: true }),
    fencingToken: bigint('fencing_token', { mode: 'number' }).notNull().default(0),
    /**
     * Once prepared, `videoMediaId` is the rendered video and this the processed source it was
     * cut from, served to its author only (docs/preparation.md).
     */
    sourceMediaId: uuid('source_media_id'),
    /** Cut suggestions found in the source by the preparation analysis job (null until it ran). */
    cutSuggestions: jsonb('cut_suggestions').$type<CutSuggestion[]>(),
    /**
     * Seconds of the rendered video inside at least one step (overlapping steps count once); null
     * without steps. Kept by the trigger `video_steps_active_time` whatever writes the steps.
     */
    activeSeconds: doublePrecision('active_seconds'),
    /**
     * The independent reviews the case needs (docs/double-review.md): 1, 2 once drawn or sent for
     * a second review, 3 once an administrator asked a third. `reviewRound` is the round the
     * analysis pool offers it for (1 in `pending_analysis`, 2 or 3 in `pending_review`).
     */
    reviewsRequired: smallint('reviews_required').notNull().default(1),
    reviewRound: smallint('review_round').notNull().default(1),
    /**
     * The draw made once, when the case entered the analysis stage: the share that applied (the
     * surgery's or the installation's) and the number drawn in [0, 1); a second review when
     * `draw * 100 < share`. Null before the draw (and for cases older than the double review).
     */
    secondReviewShare: smallint('second_review_share'),
    secondReviewDraw: doublePrecision('second_review_draw'),
    /** 'drawn' (the draw) or 'requested' (an administrator sent it); null with a single review. */
    secondReviewReason: text('second_review_reason'),
    /**
     * When the learner's result was first shown (every required review submitted). A case sent for
     * another review afterwards keeps showing its submitted reviews meanwhile.
     */
    resultReleasedAt: timestamp('result_released_at', { withTimezone: true }),
    /**
     * When the case's ratings first reached its learner (docs/self-assessment.md): its result shown
     * and its self-assessment answered, skipped or its result read, whichever came last. Before it,
     * no surface shows the learner a rating of the case (dashboard, statistics, self against
     * expert); from it, the self-assessment is read-only. Set once, in the transaction that makes
     * the second condition true (`releaseRatings`).
     */
    ratingsReleasedAt: timestamp('ratings_released_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('videos_author_created').on(t.authorId, t.createdAt),
    index('videos_status').on(t.status),
    index('videos_claim_holder').on(t.claimHolderId),
    // The administrators' list of every case, newest first (modules/admin-catalog), and the admin
    // dashboard's cases of the month.
    index('videos_created').on(t.createdAt, t.id),
    // The admin dashboard's files arrived this month.
    index('videos_received')
      .on(t.receivedAt)
      .where(sql`received_at IS NOT NULL`),
    index('videos_surgery').on(t.surgeryId),
    index('videos_organ').on(t.organId),
    // Whether a surgery step is some case's key step (a step in use cannot be deleted).
    index('videos_key_steps').using('gin', t.keyStepIds),
    // The statistics (docs/statistics.md) read these two by index only: the NASA-TLX of the cases
    // sent in a recent window, and the prepared cases of a surgery with their times.
    index('videos_sent_tlx')
      .on(
        t.sentAt,
        t.authorId,
        t.tlxMentalDemand,
        t.tlxPhysicalDemand,
        t.tlxTemporalDemand,
        t.tlxPerformance,
        t.tlxEffort,
        t.tlxFrustration,
      )
      .where(sql`nasa_tlx IS NOT NULL`),
    index('videos_specialty_sent_tlx')
      .on(
        t.authorSpecialtyId,
        t.sentAt,
        t.authorId,
        t.tlxMentalDemand,
        t.tlxPhysicalDemand,
        t.tlxTemporalDemand,
        t.tlxPerformance,
        t.tlxEffort,
        t.tlxFrustration,
      )
      .where(sql`nasa_tlx IS NOT NULL`),
    index('videos_surgery_times')
      .on(t.surgeryId, t.authorId, t.activeSeconds, t.duration, t.surgeryDuration)
      .where(sql`active_seconds IS NOT NULL`),
    // The cases whose ratings have not reached their learner: left out of the statistics until
    // they do (the cases not analysed yet and those waiting for a self-assessment or a further
    // review: few beside the analysed ones, found without visiting the cases).
    index('videos_ratings_withheld')
      .on(t.id)
      .where(sql`ratings_released_at IS NULL`),
  ],
);

/** Pictures of a case: docking pictures of a video, or the pictures of a pictures-only case. */
export const videoPictures = pgTable(
  'video_pictures',
  {
    id: id(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('video_pictures_video').on(t.videoId)],
);

/**
 * Every claim ever granted (modules/claims): one row per fencing token of a video. The live
 * claim is on the video row; this history tells a stale holder (LEASE_LOST) from someone the
 * video never concerned (404), and keeps who held what, when, and how it ended.
 */
export const claims = pgTable(
  'claims',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    fencingToken: bigint('fencing_token', { mode: 'number' }).notNull(),
    stage: text('stage').notNull(),
    holderId: uuid('holder_id').references(() => users.id, { onDelete: 'set null' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    leaseEndsAt: timestamp('lease_ends_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** released, expired, submitted, taken_over */
    endReason: text('end_reason'),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.fencingToken] }), index('claims_holder').on(t.holderId, t.claimedAt)],
);

/** A step of the draft as stored: times in seconds of the source. */
export interface StoredDraftStep {
  surgeryStepId: string | null;
  name: string;
  start: number;
  end: number;
}

/**
 * The editor's work on a video (modules/preparation): the kept ranges and the steps, in seconds
 * of the source, and the state of the render. One row per video; a new editor starts afresh.
 */
export const preparations = pgTable(
  'preparations',
  {
    videoId: uuid('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    editorId: uuid('editor_id').references(() => users.id, { onDelete: 'set null' }),
    phase: text('phase').notNull().default('trim'),
    trims: jsonb('trims').$type<Trim[]>().notNull().default([]),
    steps: jsonb('steps').$type<StoredDraftStep[]>().notNull().default([]),
    savedAt: timestamp('saved_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    renderStatus: text('render_status').notNull().default('idle'),
    renderError: text('render_error'),
    /** Bumped by every submit: a render job of an earlier submit stops quietly. */
    renderAttempt: integer('render_attempt').notNull().default(0),
    renderedAt: timestamp('rendered_at', { withTimezone: true }),
  },
  (t) => [index('preparations_editor').on(t.editorId, t.submittedAt)],
);

/** The steps of a rendered video, in seconds of the result. */
export const videoSteps = pgTable(
  'video_steps',
  {
    id: id(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    surgeryStepId: uuid('surgery_step_id').references(() => surgerySteps.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    start: doublePrecision('start').notNull(),
    end: doublePrecision('end').notNull(),
  },
  (t) => [
    uniqueIndex('video_steps_video_position').on(t.videoId, t.position),
    // The step times of the statistics, read by index only: every mark of a vocabulary step.
    index('video_steps_surgery_step')
      .on(t.surgeryStepId, t.videoId, t.start, t.end)
      .where(sql`surgery_step_id IS NOT NULL`),
  ],
);

/** Read-only access a learner gave a colleague to one of their videos. */
export const videoShares = pgTable(
  'video_shares',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.userId] }), index('video_shares_user').on(t.userId)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    params: jsonb('params').$type<Record<string, string | number | { fr: string; en: string }>>().notNull().default({}),
    link: text('link'),
    status: text('status').notNull().default('unread'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created').on(t.userId, t.createdAt)],
);

/** Devices a person has signed in from, to tell them about a new one. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fingerprint: text('fingerprint').notNull(),
    firstSeenAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fingerprint] })],
);

/** Who did what, when, from where. Actor ids survive account deletion as plain values. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created').on(t.createdAt),
    index('audit_log_actor').on(t.actorId),
    // Failed sign-ins per address (auth.service, login).
    index('audit_log_ip_action_created').on(t.ip, t.action, t.createdAt),
    // The audit log's search (admin): by action, by entity id, each newest first.
    index('audit_log_action_created').on(t.action, t.createdAt),
    index('audit_log_entity_id').on(t.entityId),
  ],
);

/** Small key/value settings kept in the database (first-start markers and the like). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An expert's review of a prepared video (modules/analysis): one row per video and review round
 * (1, then 2 and 3 for a second and third independent review, docs/double-review.md), a draft
 * while the expert holds the video, submitted once. Ratings are levels 1 to 5; a step's rating is
 * keyed by the id of its row in `video_steps`.
 */
export const analyses = pgTable(
  'analyses',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    round: smallint('round').notNull().default(1),
    /** Kept as a plain value once the expert's account is deleted: the learner keeps the advice. */
    expertId: uuid('expert_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('draft'),
    stepRatings: jsonb('step_ratings').$type<Record<string, number | null>>().notNull().default({}),
    kpiRatings: jsonb('kpi_ratings').$type<Record<string, number | null>>().notNull().default({}),
    kpiDepthPerception: fromJson('kpi_depth_perception', 'kpi_ratings', 'depthPerception'),
    kpiBimanualDexterity: fromJson('kpi_bimanual_dexterity', 'kpi_ratings', 'bimanualDexterity'),
    kpiEfficiency: fromJson('kpi_efficiency', 'kpi_ratings', 'efficiency'),
    kpiTissueHandling: fromJson('kpi_tissue_handling', 'kpi_ratings', 'tissueHandling'),
    kpiAutonomy: fromJson('kpi_autonomy', 'kpi_ratings', 'autonomy'),
    globalRating: integer('global_rating'),
    assessment: text('assessment').notNull().default(''),
    advice: text('advice').notNull().default(''),
    voiceMediaId: uuid('voice_media_id'),
    voiceDuration: doublePrecision('voice_duration'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /**
     * The video's author and their specialty when the analysis was submitted (a snapshot: the
     * peer group of the statistics at the time). Filled by the trigger `analyses_author_snapshot`
     * whenever a row is submitted, whatever writes it (docs/statistics.md).
     */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'cascade' }),
    authorSpecialtyId: uuid('author_specialty_id').references(() => specialties.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.videoId, t.round] }),
    index('analyses_expert_submitted').on(t.expertId, t.submittedAt),
    // The average surgeon of a specialty in the statistics, read by index only (the case and the
    // round too: a first review is found without visiting its row).
    index('analyses_specialty_submitted')
      .on(
        t.authorSpecialtyId,
        t.submittedAt,
        t.authorId,
        t.kpiDepthPerception,
        t.kpiBimanualDexterity,
        t.kpiEfficiency,
        t.kpiTissueHandling,
        t.kpiAutonomy,
        t.videoId,
        t.round,
      )
      .where(sql`status = 'submitted'`),
    // The average surgeon of the statistics: the submitted analyses of a recent window.
    index('analyses_submitted')
      .on(
        t.submittedAt,
        t.authorId,
        t.kpiDepthPerception,
        t.kpiBimanualDexterity,
        t.kpiEfficiency,
        t.kpiTissueHandling,
        t.kpiAutonomy,
        t.videoId,
        t.round,
      )
      .where(sql`status = 'submitted'`),
    // The few cases with a further review submitted: the statistics average their reviews, every
    // other case counts with its first review as it is.
    index('analyses_further_reviews')
      .on(t.videoId)
      .where(sql`round > 1 AND status = 'submitted'`),
  ],
);

/** A time-coded comment of one review, in seconds of the rendered video (`end` for a range). */
export const analysisComments = pgTable(
  'analysis_comments',
  {
    id: id(),
    videoId: uuid('video_id').notNull(),
    round: smallint('round').notNull().default(1),
    start: doublePrecision('start').notNull(),
    end: doublePrecision('end'),
    text: text('text').notNull(),
    /** The expert's drawing over the frame (issue 18), validated by drawingSchema. */
    drawing: jsonb('drawing').$type<Drawing>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'analysis_comments_review_fk',
      columns: [t.videoId, t.round],
      foreignColumns: [analyses.videoId, analyses.round],
    }).onDelete('cascade'),
    index('analysis_comments_video').on(t.videoId, t.round, t.start),
  ],
);

/**
 * A case whose reviews differ by 2 levels or more on a KPI or a step (docs/double-review.md): one
 * row per case, written when the review completing the required ones is submitted. `items` names
 * where they differ; an administrator asks a third review or marks it discussed (with a note).
 */
export interface DisagreementItem {
  kind: 'kpi' | 'step';
  /** The KPI's key, or the id of the step's row in `video_steps`. */
  key: string;
  /** The levels of the reviews compared, by round. */
  levels: Record<string, number>;
}

export const disagreements = pgTable(
  'disagreements',
  {
    videoId: uuid('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** 'flagged', 'third_review' (asked, pending), 'discussed'. */
    status: text('status').notNull().default('flagged'),
    items: jsonb('items').$type<DisagreementItem[]>().notNull(),
    /** The largest difference in levels over the items (2 to 4). */
    maxGap: smallint('max_gap').notNull(),
    flaggedAt: timestamp('flagged_at', { withTimezone: true }).notNull(),
    resolvedById: uuid('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    note: text('note'),
  },
  (t) => [index('disagreements_status_flagged').on(t.status, t.flaggedAt)],
);

/** A device that receives Web Push notifications; the push service's endpoint names it. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint').on(t.endpoint), index('push_subscriptions_user').on(t.userId)],
);

/**
 * A best case (modules/best-cases, docs/best-cases.md): a video learners, editors and experts may
 * watch with its steps. Its video is an analysed case (`converted`, shown only once its author
 * consented) or one an administrator uploaded (`uploaded`, a `videos` row of purpose 'best_case').
 * It goes with its video: deleting the case, or its author's account, deletes it.
 */
export const bestCases = pgTable(
  'best_cases',
  {
    id: id(),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    titleFr: text('title_fr').notNull(),
    titleEn: text('title_en').notNull(),
    descriptionFr: text('description_fr').notNull(),
    descriptionEn: text('description_en').notNull(),
    surgeryId: uuid('surgery_id').references(() => surgeries.id, { onDelete: 'set null' }),
    organId: uuid('organ_id').references(() => organs.id, { onDelete: 'set null' }),
    consent: text('consent').notNull(),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    published: boolean('published').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('best_cases_video').on(t.videoId),
    index('best_cases_created').on(t.createdAt),
    // What learners browse: the published ones, by surgery and organ, newest first.
    index('best_cases_published_surgery')
      .on(t.surgeryId, t.organId, t.publishedAt)
      .where(sql`published`),
    index('best_cases_published')
      .on(t.publishedAt)
      .where(sql`published`),
  ],
);

/**
 * What the administrator who edits a best case wrote on one of its steps, in each language (either
 * may be empty), shown beside the step when a case is compared with it. Goes with the step (the
 * steps of an uploaded best case are replaced together: setSteps carries the notes over).
 */
export const bestCaseStepNotes = pgTable(
  'best_case_step_notes',
  {
    bestCaseId: uuid('best_case_id')
      .notNull()
      .references(() => bestCases.id, { onDelete: 'cascade' }),
    videoStepId: uuid('video_step_id')
      .notNull()
      .references(() => videoSteps.id, { onDelete: 'cascade' }),
    noteFr: text('note_fr').notNull().default(''),
    noteEn: text('note_en').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.bestCaseId, t.videoStepId] }), index('best_case_step_notes_step').on(t.videoStepId)],
);

/**
 * An administrator's teaching drawing over a frame of a best case (issue 18, point 3), with its
 * note: shown on the best case's player to everyone who may watch it. Goes with its best case.
 */
export const bestCaseDrawings = pgTable(
  'best_case_drawings',
  {
    id: id(),
    bestCaseId: uuid('best_case_id')
      .notNull()
      .references(() => bestCases.id, { onDelete: 'cascade' }),
    time: doublePrecision('time').notNull(),
    drawing: jsonb('drawing').$type<Drawing>().notNull(),
    note: text('note').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('best_case_drawings_case').on(t.bestCaseId, t.time)],
);

/**
 * A resumable upload whose bytes go to an S3-compatible store: what every API process needs to
 * continue it (with local files, the upload's file and its info file say the same). `offset`
 * counts the bytes kept: the S3 parts sent, then the tail (fewer bytes than a part, in an object
 * of its own until more arrive). `version` changes at every write, so that of two processes
 * writing the same upload, only one records its bytes.
 */
export const tusUploads = pgTable(
  'tus_uploads',
  {
    id: uuid('id').primaryKey(),
    videoId: uuid('video_id').notNull(),
    ownerId: uuid('owner_id').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    filetype: text('filetype'),
    offset: bigint('offset', { mode: 'number' }).notNull().default(0),
    multipartId: text('multipart_id'),
    parts: jsonb('parts').$type<{ partNumber: number; etag: string; size: number }[]>().notNull().default([]),
    tailKey: text('tail_key'),
    tailSize: bigint('tail_size', { mode: 'number' }).notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tus_uploads_video').on(t.videoId)],
);

/**
 * The counters of the request rate limits (sign-in, codes, lookups), shared by every process of
 * a cluster: a limit holds whichever process the proxy sends each attempt to.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_window_ends_at_idx').on(t.windowEndsAt)],
);

/**
 * One row: a version for each group of numbers behind the statistics' averages, given a new random
 * value in the transaction of every write that changes them (deferred triggers, docs/statistics.md):
 * each API process keeps the averages it computed and reads these to know whether they still hold.
 */
export const statsVersion = pgTable(
  'stats_version',
  {
    one: boolean('one').primaryKey().default(true),
    /** The submitted reviews (`analyses`) and whether a case counts yet (`videos.ratings_released_at`). */
    kpis: bigint('kpis', { mode: 'number' }).notNull().default(0),
    /** The NASA-TLX of the cases sent (`videos.nasa_tlx`, `sent_at`, the author and their specialty). */
    tlx: bigint('tlx', { mode: 'number' }).notNull().default(0),
    /** The steps of the prepared cases (`video_steps`) and their times (`videos.active_seconds`, durations). */
    steps: bigint('steps', { mode: 'number' }).notNull().default(0),
  },
  () => [check('stats_version_one', sql`one`)],
);

/**
 * The surgeon's self-assessment of a case (docs/self-assessment.md): one per case, made by its
 * author between sending it and the moment the case's ratings reach them
 * (`videos.ratings_released_at`); rated, skipped, or neither yet. `result_seen_at` records the
 * author's first reading of the result (a reading while the invitation is open counts as a skip).
 */
export const selfAssessments = pgTable(
  'self_assessments',
  {
    videoId: uuid('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The five KPIs, levels 1..5, all present once submitted; null until then. */
    kpiRatings: jsonb('kpi_ratings').$type<Record<string, number>>(),
    globalRating: integer('global_rating'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    skippedAt: timestamp('skipped_at', { withTimezone: true }),
    resultSeenAt: timestamp('result_seen_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The learner's "self vs expert" statistics read their submitted self-assessments.
  (t) => [
    index('self_assessments_author_submitted')
      .on(t.authorId, t.submittedAt)
      .where(sql`submitted_at IS NOT NULL`),
  ],
);

/**
 * A training programme (docs/learning-curves.md): learners followed by directors, with the
 * settings of its CUSUM charts (the defaults of DEFAULT_LEARNING_CURVE_SETTINGS).
 */
export const programmes = pgTable(
  'programmes',
  {
    id: id(),
    name: text('name').notNull(),
    specialtyId: uuid('specialty_id').references(() => specialties.id, { onDelete: 'set null' }),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    p0: doublePrecision('p0').notNull().default(0.1),
    p1: doublePrecision('p1').notNull().default(0.3),
    alpha: doublePrecision('alpha').notNull().default(0.1),
    beta: doublePrecision('beta').notNull().default(0.1),
    failureRule: text('failure_rule').notNull().default('globalBelow3'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('programmes_name').on(t.name)],
);

/** The learners of a programme: a row removed ends every director's access to the learner at once. */
export const programmeMembers = pgTable(
  'programme_members',
  {
    programmeId: uuid('programme_id')
      .notNull()
      .references(() => programmes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.userId] }), index('programme_members_user').on(t.userId)],
);

/** The directors of a programme: any signed-in person, usually experts. */
export const programmeDirectors = pgTable(
  'programme_directors',
  {
    programmeId: uuid('programme_id')
      .notNull()
      .references(() => programmes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.userId] }), index('programme_directors_user').on(t.userId)],
);

/**
 * The read model of the cohort view: the summary of each member's curve per procedure, under the
 * programme's settings, kept by modules/programmes whenever the learner's rated cases change (the
 * learners listed in `learning_curve_stale`). `notified_*` record the signals the directors were
 * told of, so that each is told once.
 */
export const programmeCurves = pgTable(
  'programme_curves',
  {
    programmeId: uuid('programme_id')
      .notNull()
      .references(() => programmes.id, { onDelete: 'cascade' }),
    learnerId: uuid('learner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    surgeryId: uuid('surgery_id')
      .notNull()
      .references(() => surgeries.id, { onDelete: 'cascade' }),
    cases: integer('cases').notNull(),
    judged: integer('judged').notNull(),
    failures: integer('failures').notNull(),
    state: text('state').notNull(),
    proficientAt: integer('proficient_at'),
    relapseAt: integer('relapse_at'),
    unacceptableAt: integer('unacceptable_at'),
    cusum: doublePrecision('cusum').notNull(),
    latestRating: doublePrecision('latest_rating'),
    latestAverage: doublePrecision('latest_average'),
    trend: doublePrecision('trend'),
    lastCaseOn: date('last_case_on', { mode: 'string' }),
    notifiedProficientAt: integer('notified_proficient_at'),
    notifiedRelapseAt: integer('notified_relapse_at'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.programmeId, t.learnerId, t.surgeryId] })],
);

/**
 * Learners whose curves must be computed again: written by triggers whenever a rated case of theirs
 * changes (its ratings released, a further review submitted, its operation day, surgery or
 * existence), whatever writes it; emptied by modules/programmes as it brings `programme_curves` up
 * to date.
 */
export const learningCurveStale = pgTable('learning_curve_stale', {
  /** No foreign key: a case deleted with its author's account marks an author who is going away. */
  learnerId: uuid('learner_id').primaryKey(),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The retention rules an administrator sets (modules/retention, docs/data-lifecycle.md): one row per
 * rule; a rule without a row takes its default from the environment. `days` null switches the rule off.
 */
export const retentionRules = pgTable('retention_rules', {
  rule: text('rule').primaryKey(),
  days: integer('days'),
  updatedById: uuid('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A case no retention rule may touch, held by an administrator for a reason (a complaint, an inquiry). */
export const legalHolds = pgTable('legal_holds', {
  videoId: uuid('video_id')
    .primaryKey()
    .references(() => videos.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  heldById: uuid('held_by_id').references(() => users.id, { onDelete: 'set null' }),
  heldAt: timestamp('held_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every object of the media store, written as it is stored and removed as it is deleted (the
 * accounting wrapper of storage/accounted.ts): what the storage holds, by kind, month and case,
 * without listing the store. `video_id` is read from the key and has no foreign key: the row goes
 * with the object, not with the case.
 */
export const storageObjects = pgTable(
  'storage_objects',
  {
    key: text('key').primaryKey(),
    kind: text('kind').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    videoId: uuid('video_id'),
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('storage_objects_video').on(t.videoId), index('storage_objects_written').on(t.writtenAt)],
);

/**
 * A person's copy of their data (modules/data-export, docs/personal-data.md): one ZIP built by a
 * job and stored as a media row of theirs (kind 'data-export'), downloadable by them until
 * `expiresAt`. At most one is queued or running per person: a second request answers the same.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** queued → running → ready (or failed); a ready one becomes expired after seven days. */
    status: text('status').notNull().default('queued'),
    /** The language of the README and of the names in the files: the person's when they asked. */
    lang: text('lang').notNull(),
    filesDone: integer('files_done').notNull().default(0),
    filesTotal: integer('files_total').notNull().default(0),
    bytesDone: bigint('bytes_done', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull().default(0),
    /** The ZIP, once ready (a media row owned by the person, removed when the export expires). */
    mediaId: uuid('media_id'),
    size: bigint('size', { mode: 'number' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('data_exports_user').on(t.userId, t.createdAt),
    // The one export in progress per person: two simultaneous requests cannot both insert.
    uniqueIndex('data_exports_in_progress')
      .on(t.userId)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/** One rung of a video's HLS ladder, as its master playlist announces it. */
export interface LadderRung {
  /** Its folder under the ladder: `src` (the stored video, segmented as it is) or `<height>p`. */
  name: string;
  width: number;
  height: number;
  /** Peak and average bits per second over its segments. */
  bandwidth: number;
  averageBandwidth: number;
  /** RFC 6381 codecs of its segments (`avc1.640028,mp4a.40.2`). */
  codecs: string;
  frameRate: number | null;
  bytes: number;
}

/**
 * The HLS ladder of a video's playable file (docs/streaming.md): fMP4 segments under
 * `videos/<videoId>/hls/<mediaId>/`, made by the job `video.ladder` after the file exists. `rungs`
 * lists the rungs already stored, so that a job that died resumes at the next one; the master
 * playlist is written last, with `status` 'ready'.
 */
export const videoLadders = pgTable(
  'video_ladders',
  {
    /** The playable file (`videos.video_media_id`) the ladder was cut from: a new render, a new ladder. */
    mediaId: uuid('media_id')
      .primaryKey()
      .references(() => media.id, { onDelete: 'cascade' }),
    videoId: uuid('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    /** 'working' until the master playlist is stored, then 'ready'. */
    status: text('status').notNull().default('working'),
    progress: smallint('progress').notNull().default(0),
    rungs: jsonb('rungs').$type<LadderRung[]>().notNull().default([]),
    /** Bytes of every stored object of the ladder, and of the MP4 it was cut from. */
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    sourceBytes: bigint('source_bytes', { mode: 'number' }).notNull().default(0),
    /** Worker time spent on it, over every attempt (ms). */
    workMs: integer('work_ms').notNull().default(0),
    createdAt: createdAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
  },
  (t) => [index('video_ladders_video').on(t.videoId)],
);
