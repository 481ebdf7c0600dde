import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import {
  adminBestCaseDetailSchema,
  adminBestCaseSchema,
  bestCaseDetailSchema,
  bestCaseRequestSchema,
  bestCaseSummarySchema,
} from '@sutura/domain/best-cases';
import { adminVideoListSchema, adminVocabulariesSchema } from '@sutura/domain/admin-catalog';
import { comparisonChoicesSchema, comparisonSchema } from '@sutura/domain/comparison';
import { adminCountsSchema, adminStreamingSchema, adminUserListResponse, adminUserSchema, auditListResponse } from '@sutura/domain/admin';
import {
  analysisResultSchema,
  commentSchema,
  draftSchema,
  expertListResponse,
  expertWorkspaceSchema,
  voiceAdviceSchema,
} from '@sutura/domain/analysis';
import { rppsCheckResponse, sessionSchema, signUpResponse } from '@sutura/domain/auth';
import { signOutResponse, ssoAdminSchema, ssoIdentitiesResponse, ssoOptionsSchema, ssoPendingSchema } from '@sutura/domain/sso';
import {
  discussedResponse,
  disagreementListSchema,
  moreReviewResponse,
  reviewSettingsSchema,
  reviewSettingsViewSchema,
  surgeryShareSchema,
} from '@sutura/domain/review';
import { claimResponse, releaseResponse } from '@sutura/domain/claims';
import {
  legalHoldSchema,
  retentionPreviewSchema,
  retentionRulesSchema,
  retentionViewSchema,
  storageReportSchema,
} from '@sutura/domain/retention';
import { dashboardSchema } from '@sutura/domain/dashboard';
import { dataExportSchema, erasureReceiptSchema } from '@sutura/domain/data-export';
import { bestCaseDrawingSchema } from '@sutura/domain/drawing';
import { ERRORS, type ErrorCode } from '@sutura/domain/errors';
import { notificationListResponse, notificationSchema } from '@sutura/domain/notifications';
import { preferencesSchema } from '@sutura/domain/preferences';
import {
  heldListResponse,
  poolListResponse,
  preparationDetailSchema,
  preparationDraftSchema,
  preparedListResponse,
} from '@sutura/domain/preparation';
import { agreementReportSchema, expertCalibrationSchema } from '@sutura/domain/calibration';
import { learnerSelfVsExpertSchema, selfAssessmentSchema } from '@sutura/domain/self-assessment';
import {
  cohortSchema,
  learnerCurvesSchema,
  myProgrammesSchema,
  programmeDetailSchema,
  programmeSummarySchema,
} from '@sutura/domain/programmes';
import { learnerNasaTlxSchema, learnerStatsSchema, learnerStepTimesSchema } from '@sutura/domain/stats';
import { mediaUploadResponse, profileSchema, publicUserSchema } from '@sutura/domain/users';
import { videoDetailSchema, videoListResponse } from '@sutura/domain/videos';
import { organSchema, specialtySchema, surgerySchema } from '@sutura/domain/vocabularies';

/**
 * The answer of every route, as `/v1/docs` documents it: the `data` of the JSON envelope for the
 * JSON routes, and the statuses, headers and bodies of the others (media, CSV, PDF, tus).
 *
 * One table beside the routes rather than in each route file: a test fails on a route missing
 * here, and the API tests check every JSON answer they receive against its entry
 * (`validateResponses`), so the documentation cannot drift from what the server sends.
 */

/** A JSON route: what `data` holds in a success envelope, its status, and a one-line summary. */
interface JsonAnswer {
  kind: 'json';
  data: ZodType;
  status?: 200 | 201;
  description: string;
  /** Other statuses that answer a success envelope of the same data (readiness: 503). */
  alsoStatuses?: Record<number, string>;
}

/** A route that answers something other than the JSON envelope on success. */
interface RawAnswer {
  kind: 'raw';
  /** OpenAPI response objects by status: description, headers, content types. */
  responses: Record<string, OpenApiResponse>;
  /** Errors come as the JSON envelope on this route (tus refusals are plain text instead). */
  envelopeErrors: boolean;
}

interface OpenApiResponse {
  description: string;
  headers?: Record<string, { type: 'string' | 'integer'; description: string }>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

export type RouteAnswer = JsonAnswer | RawAnswer;

const json = (data: ZodType, description: string, status?: 200 | 201): JsonAnswer => ({
  kind: 'json',
  data,
  description,
  ...(status ? { status } : {}),
});

const empty = z.object({}).strict().describe('Nothing more to say: the action is done.');
const idOnly = z.object({ id: z.string() });
const page = <T extends ZodType>(item: T) =>
  z.object({ data: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

const healthData = z.object({
  status: z.literal('ok'),
  version: z.string(),
  maxUploadBytes: z.number().describe('Largest video file accepted, in bytes.'),
  mediaPipeline: z.boolean().describe('Whether ffmpeg and ffprobe were found and work: uploads can become playable videos.'),
  pushPublicKey: z.string().describe('VAPID public key for Web Push subscriptions.'),
  demo: z
    .object({
      preparing: z.boolean().describe('The demo data are still being made (first start): the dashboards say so.'),
      progress: z.number().describe('How far, in percent; 100 when nothing is being prepared.'),
    })
    .describe('What the demo is still making after the server answers.'),
});

const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** `{ success: false, error }`, with its message in the caller's language. */
export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.enum(ERROR_CODES).describe('A key of the error catalogue (packages/domain/src/errors.ts).'),
    message: z.string().describe("The catalogue text in the caller's language."),
    details: z
      .array(z.object({ path: z.string(), code: z.enum(ERROR_CODES), message: z.string() }))
      .optional()
      .describe('Field errors of a refused body.'),
  }),
});

const tusCommon = {
  'Tus-Resumable': { type: 'string' as const, description: 'Always `1.0.0`, on every answer of these routes.' },
};
/**
 * tus' own refusals are plain text, as tus servers answer (clients such as tus-js-client read
 * the status); the API's refusals (not signed in, not the caller's case, validation) are the JSON
 * error envelope.
 */
const tusText = (description: string, opts: { orEnvelope?: boolean } = {}): OpenApiResponse => ({
  description,
  content: {
    'text/plain': { schema: { type: 'string' } },
    ...(opts.orEnvelope ? { 'application/json': { schema: z.toJSONSchema(errorEnvelope) as Record<string, unknown> } } : {}),
  },
});
const tusRefusals = {
  '412': {
    ...tusText('Tus-Resumable is missing or not `1.0.0` (plain text).'),
    headers: { 'Tus-Version': { type: 'string', description: '`1.0.0`' } },
  },
  '404': tusText(
    "No such upload, or not one of the caller's (plain text from tus, or the error envelope NOT_FOUND when the upload is not the caller's).",
    { orEnvelope: true },
  ),
  '410': tusText("The upload's bytes are gone (expired or removed): create a new upload."),
  '423': tusText('Another request is writing to this upload right now: retry shortly.'),
} satisfies Record<string, OpenApiResponse>;
const tusWriteRefusals = {
  '409': tusText(
    'Upload-Offset is not where the file ends: send HEAD and resume from the offset it gives (plain text). The error envelope VIDEO_ALREADY_UPLOADED when the case already has its file.',
    { orEnvelope: true },
  ),
  '413': tusText('The bytes sent go past the Upload-Length given at creation (plain text; the connection is closed).'),
} satisfies Record<string, OpenApiResponse>;

const csvResponse: OpenApiResponse = {
  description: "The audit log matching the filter as CSV (UTF-8 with BOM, `;`-separated, labels in the caller's language).",
  headers: { 'Content-Disposition': { type: 'string', description: 'attachment; filename="sutura-audit-<date>.csv"' } },
  content: { 'text/csv': { schema: { type: 'string' } } },
};

const cohortCsvResponse: OpenApiResponse = {
  description:
    "The programme's cohort as CSV (UTF-8 with BOM; `;`-separated in French, `,` in English; one line per learner and procedure).",
  headers: { 'Content-Disposition': { type: 'string', description: 'attachment; filename="sutura-cohort-<programme>-<date>.csv"' } },
  content: { 'text/csv': { schema: { type: 'string' } } },
};

/** The files of an HLS ladder (docs/streaming.md): the master playlist, and each rung's. */
const LADDER_ANSWER: RouteAnswer = {
  kind: 'raw',
  envelopeErrors: true,
  responses: {
    '200': {
      description:
        'The HLS ladder of a playable video (docs/streaming.md), under the signature of its MP4 (`u`, `exp`, `sig`): `master.m3u8`, then `<rung>/index.m3u8`, `<rung>/init.mp4` and `<rung>/seg-NNNNN.m4s`. Playlists come back with every URI signed alike, compressed (br, gzip) when asked; 404 NOT_FOUND for a wrong or expired signature or another path.',
      headers: {
        'Cache-Control': {
          type: 'string',
          description: '`private, max-age=10` for a playlist, `private, max-age=31536000, immutable` for a segment.',
        },
      },
      content: {
        'application/vnd.apple.mpegurl': { schema: { type: 'string' } },
        'video/mp4': { schema: { type: 'string', format: 'binary' } },
      },
    },
    '204': {
      description: 'The master playlist of a video without a ready ladder (yet, or STREAMING=off): play the MP4.',
      headers: { 'Cache-Control': { type: 'string', description: '`private, no-store`: the ladder may be ready at the next ask.' } },
    },
    '206': {
      description: 'The byte range of a segment asked for with `Range: bytes=start-end` (one range).',
      headers: { 'Content-Range': { type: 'string', description: '`bytes start-end/size`' } },
      content: { 'video/mp4': { schema: { type: 'string', format: 'binary' } } },
    },
    '416': {
      description: 'The range is outside the segment; no body.',
      headers: { 'Content-Range': { type: 'string', description: '`bytes */size`' } },
    },
  },
};

export const ROUTE_ANSWERS: Record<string, RouteAnswer> = {
  'GET /v1/legal/operator': json(
    z.record(z.string(), z.string().nullable()),
    'The operator details the legal texts quote (null where not provided).',
  ),
  'GET /v1/legal/missing': json(z.object({ missing: z.array(z.string()) }), 'The LEGAL_* settings this installation has left blank.'),
  'GET /v1/health': json(healthData, 'The process is up (alive); what this installation can do.'),
  'GET /v1/ready': {
    ...json(
      z.object({
        ready: z.boolean(),
        draining: z.boolean().describe('The process is shutting down: it takes no new work.'),
        checks: z
          .object({ database: z.boolean(), queue: z.boolean(), storage: z.boolean(), mediaPipeline: z.boolean() })
          .describe('Each dependency reached within 3 s.'),
      }),
      'Ready: the database, the job queue, the media store and ffmpeg answer.',
    ),
    alsoStatuses: { 503: 'Not ready (a dependency is out of reach, or the process is shutting down): the same body says which.' },
  },

  'POST /v1/auth': json(sessionSchema, 'Signed in: the session (also set as the session cookie for the web app).'),
  'GET /v1/auth': json(sessionSchema, 'The current session with a refreshed token.'),
  'DELETE /v1/auth': json(
    signOutResponse,
    "Signed out: the token is revoked and the sockets of the session closed; with `endSessionUrl` when the provider's session should end too.",
  ),
  'GET /v1/auth/sso': json(ssoOptionsSchema, 'The sign-in services offered here, and whether a password signs in.'),
  'GET /v1/auth/sso/:provider/start': {
    kind: 'raw',
    envelopeErrors: false,
    responses: {
      '303': {
        description:
          "To the provider's authorization endpoint (code flow, PKCE, state, nonce); sets the short http-only cookie of the sign-in in flight. A refusal (provider unknown or unreachable) goes to `/auth/login?sso_error=<code>` instead.",
        headers: { Location: { type: 'string', description: 'The next page.' } },
      },
    },
  },
  'GET /v1/auth/sso/:provider/callback': {
    kind: 'raw',
    envelopeErrors: false,
    responses: {
      '303': {
        description:
          'Signed in (session cookie set, to the app), or the identity waits for a sign-up or a link (to `/auth/sso`), or refused (to `/auth/login?sso_error=<code>`, nothing created).',
        headers: { Location: { type: 'string', description: 'The next page.' } },
      },
    },
  },
  'GET /v1/auth/sso/pending': json(ssoPendingSchema, 'The proven identity waiting for a sign-up or a link (its cookie).'),
  'DELETE /v1/auth/sso/pending': json(empty, 'The waiting identity is forgotten.'),
  'POST /v1/auth/sso/pending/complete': json(sessionSchema, 'Account created, validated and linked: the person is signed in.'),
  'POST /v1/auth/sso/pending/code': json(z.object({ sent: z.literal(true) }), 'A linking code is mailed to the existing account.'),
  'POST /v1/auth/sso/pending/link': json(sessionSchema, 'The identity is linked to the existing account: the person is signed in.'),
  'GET /v1/users/profile/me/identities': json(ssoIdentitiesResponse, "The person's linked identities."),
  'DELETE /v1/users/profile/me/identities/:id': json(ssoIdentitiesResponse, 'The identity is unlinked: the ones left.'),
  'GET /v1/admin/sso': json(ssoAdminSchema, 'The providers, their role mappings, and whether the installation is SSO-only.'),
  'GET /v1/admin/users/:id/identities': json(ssoIdentitiesResponse, "A person's linked identities."),

  'POST /v1/users': json(signUpResponse, 'Account created; a validation code is mailed.', 201),
  'POST /v1/users/verify': json(sessionSchema, 'Email validated: the person is signed in.'),
  'POST /v1/users/verify/resend': json(empty, 'A new validation code is mailed (when the account exists and waits for one).'),
  'POST /v1/users/reset/send': json(empty, 'A reset code is mailed.'),
  'POST /v1/users/reset/check': json(z.object({ valid: z.literal(true) }), 'The reset code is right.'),
  'POST /v1/users/reset/checkAndSet': json(empty, 'The password is changed; every session of the account is ended.'),
  'POST /v1/users/reset/setNewPassword': json(sessionSchema, 'The password is changed; a new session for this device, the others ended.'),
  'PUT /v1/users/language': json(
    z.object({ langCode: z.enum(['fr', 'en']) }),
    'The language of an anonymous visitor (also set as a cookie).',
  ),
  'GET /v1/users/profile/me': json(profileSchema, "The signed-in person's profile."),
  'PUT /v1/users/profile/me': json(profileSchema, 'The profile after the change.'),
  'DELETE /v1/users/profile/me/avatar': json(profileSchema, 'The profile without its avatar.'),
  'GET /v1/users/preferences': json(z.object({ preferences: preferencesSchema }), "The person's preferences."),
  'PUT /v1/users/preferences': json(z.object({ preferences: preferencesSchema }), 'The preferences after the change.'),
  'POST /v1/users/me/delete': json(
    erasureReceiptSchema,
    'The account, its cases and files are deleted: the receipt of what was erased and kept.',
  ),
  'GET /v1/users/me/export': json(dataExportSchema.nullable(), "The person's latest copy of their data, or null."),
  'POST /v1/users/me/export': json(
    dataExportSchema,
    'The copy asked for, or the one already under way (the same answer to a second request).',
  ),
  'PUT /v1/users/save/pushtoken': json(empty, "The device's Web Push subscription is kept."),
  'DELETE /v1/users/save/pushtoken': json(empty, "The device's Web Push subscription is removed."),
  'GET /v1/users/:id': json(publicUserSchema, 'What any signed-in person may read of another (fields per `select` and `populate`).'),
  'POST /v1/common/medias/create/upload': json(
    mediaUploadResponse.describe('`kind` is `avatar` or `picture`; `url` is a short-lived signed link.'),
    'The picture is stored (avatar replaced, or a picture added to a saved case).',
  ),
  'GET /v1/rppsUsers/check/:rpps/:lastName/:firstName': json(rppsCheckResponse, 'The RPPS number exists with these names and is free.'),

  'GET /v1/notification/list': json(notificationListResponse, "The person's notifications, newest first, with the unread count."),
  'PUT /v1/notification/:id': json(notificationSchema, 'The notification after the change.'),
  'DELETE /v1/notification/:id': json(empty, 'The notification is deleted.'),

  'GET /v1/media/:id/hls/:file': LADDER_ANSWER,
  'GET /v1/media/:id/hls/:rung/:file': LADDER_ANSWER,
  'GET /v1/media/:id': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '200': {
        description:
          'The whole file (video, picture, audio) by a signed link: `u` (the person it was issued to), `exp` (expiry, Unix seconds) and `sig` as the API gave them. A wrong or expired signature answers 404 NOT_FOUND, as a missing file does.',
        headers: {
          'Accept-Ranges': { type: 'string', description: '`bytes`' },
          'Content-Length': { type: 'integer', description: 'Size of the file in bytes.' },
          'Cache-Control': { type: 'string', description: '`private, max-age=300`: the link is personal and short-lived.' },
        },
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      '206': {
        description: 'The byte range asked for with `Range: bytes=start-end` (one range).',
        headers: {
          'Content-Range': { type: 'string', description: '`bytes start-end/size`' },
          'Content-Length': { type: 'integer', description: 'Bytes in this answer.' },
        },
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      '416': {
        description: 'The range is outside the file; no body.',
        headers: { 'Content-Range': { type: 'string', description: '`bytes */size`' } },
      },
    },
  },

  'GET /v1/vocabularies/specialties': json(z.array(specialtySchema), "Specialties, names in the caller's language."),
  'GET /v1/vocabularies/organs': json(z.array(organSchema), "Organs, names in the caller's language."),
  'GET /v1/vocabularies/surgeries': json(z.array(surgerySchema), "Surgeries with their ordered steps, names in the caller's language."),

  'POST /v1/videos': json(videoDetailSchema, 'The new case, saved and waiting for its file.', 201),
  'GET /v1/videos': json(videoListResponse, "The caller's cases of the tab asked for, paged."),
  'GET /v1/videos/:id': json(videoDetailSchema, 'One case as the caller may see it.'),
  'PUT /v1/videos/:id': json(videoDetailSchema, 'The case after the change (its author, while saved).'),
  'DELETE /v1/videos/:id': json(empty, 'The case and its files are deleted.'),
  'POST /v1/videos/:id/send': json(videoDetailSchema, "The case is sent to the editors' pool."),
  'PUT /v1/videos/:id/favourite': json(videoDetailSchema, 'The case with its favourite mark changed.'),
  'PUT /v1/videos/:id/operation-day': json(
    videoDetailSchema,
    'The case with the day of its operation set or cleared (at any stage): its learning curves are ordered by it.',
  ),
  'POST /v1/videos/:id/shares': json(videoDetailSchema, 'The case, now shared with that colleague.'),
  'DELETE /v1/videos/:id/shares/:userId': json(videoDetailSchema, 'The case, no longer shared with that colleague.'),
  'POST /v1/videos/:id/retry': json(videoDetailSchema, 'The failed processing is started again.'),
  'DELETE /v1/videos/:id/pictures/:pictureId': json(videoDetailSchema, 'The case without that picture.'),

  'GET /v1/editor/pool': json(poolListResponse, 'Cases waiting for an editor, priority first, then oldest.'),
  'GET /v1/editor/held': json(heldListResponse, 'Cases the editor holds, with the end of each lease, soonest end first, paged.'),
  'GET /v1/editor/prepared': json(preparedListResponse, 'Cases the editor has prepared, paged.'),
  'POST /v1/editor/videos/:id/claim': json(claimResponse, "The case is the editor's for 12 hours; keep the fencing token for every write."),
  'POST /v1/editor/videos/:id/release': json(releaseResponse, 'The case is given back to the pool.'),
  'GET /v1/editor/videos/:id': json(
    preparationDetailSchema,
    'The preparation workspace: the source, the draft trims and steps, suggestions.',
  ),
  'PUT /v1/editor/videos/:id/trims': json(preparationDraftSchema, 'The draft after saving the trims.'),
  'PUT /v1/editor/videos/:id/phase': json(preparationDraftSchema, 'The draft after moving between trimming and steps.'),
  'PUT /v1/editor/videos/:id/steps': json(preparationDraftSchema, 'The draft after saving the steps.'),
  'POST /v1/editor/videos/:id/submit': json(
    preparationDetailSchema,
    'The preparation is submitted: the render of the kept ranges is queued.',
  ),

  'GET /v1/expert/pool': json(expertListResponse, 'Prepared cases waiting for an expert.'),
  'GET /v1/expert/held': json(expertListResponse, 'Cases the expert holds, with the end of each lease, soonest end first, paged.'),
  'GET /v1/expert/analysed': json(expertListResponse, 'Cases the expert has analysed, paged.'),
  'POST /v1/expert/videos/:id/claim': json(claimResponse, "The case is the expert's for 12 hours; keep the fencing token for every write."),
  'POST /v1/expert/videos/:id/release': json(
    releaseResponse,
    'The analysis is abandoned: the draft is dropped and the case goes back to the pool.',
  ),
  'GET /v1/expert/videos/:id': json(expertWorkspaceSchema, 'The analysis workspace: the prepared video, its steps and the draft.'),
  'PUT /v1/expert/videos/:id/analysis': json(draftSchema, 'The draft after the save.'),
  'POST /v1/expert/videos/:id/finalize': json(draftSchema, 'The analysis is submitted; the learner is told.'),
  'POST /v1/expert/videos/:id/comments': json(commentSchema, 'The new time-coded comment.', 201),
  'PUT /v1/expert/videos/:id/comments/:commentId': json(commentSchema, 'The comment after the change.'),
  'DELETE /v1/expert/videos/:id/comments/:commentId': json(empty, 'The comment is deleted.'),
  'POST /v1/expert/videos/:id/voice': json(voiceAdviceSchema, 'The voice advice, stored as AAC in MP4 (replaces the previous one).'),
  'DELETE /v1/expert/videos/:id/voice': json(empty, 'The voice advice is deleted.'),
  'GET /v1/videos/:id/analysis': json(
    analysisResultSchema.nullable(),
    "The expert's analysis of the case, as its learner (or an administrator) reads it, each review signed by its expert's " +
      'name, specialty and avatar. Null only with `ifReady=true`, instead of ANALYSIS_NOT_READY, when the case is not ' +
      'analysed, and for its author while the self-assessment invitation is open (the result is then not served: it stays unseen). ' +
      'Read by its author without `ifReady` while the invitation is open, it counts as skipping the self-assessment.',
  ),
  'GET /v1/videos/:id/analysis/report': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '200': {
        description: "The analysis report as a PDF in the caller's language.",
        headers: { 'Content-Disposition': { type: 'string', description: 'attachment; filename="sutura-analysis-<date>.pdf"' } },
        content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
      },
    },
  },

  'GET /v1/stats/me': json(learnerStatsSchema, "The learner's skills radar and month-by-month series."),
  'GET /v1/stats/me/nasa-tlx': json(learnerNasaTlxSchema, "The learner's NASA-TLX against the average."),
  'GET /v1/stats/me/steps': json(learnerStepTimesSchema, "The learner's step times for a surgery against that surgery's average."),

  'GET /v1/retention/summary': json(retentionRulesSchema, 'The retention rules in force, for the summary of Settings → Privacy.'),
  'GET /v1/admin/retention': json(retentionViewSchema, 'The retention rules, their defaults, the legal holds and the last run.'),
  'PUT /v1/admin/retention/rules': json(retentionRulesSchema, 'The rules are saved; they apply from the next run.'),
  'GET /v1/admin/retention/preview': json(
    retentionPreviewSchema,
    'What the next run would delete and the bytes it would free (nothing is deleted).',
  ),
  'PUT /v1/admin/retention/holds/:id': json(z.array(legalHoldSchema), 'The case is held (the legal holds, after the change).'),
  'DELETE /v1/admin/retention/holds/:id': json(z.array(legalHoldSchema), 'The hold is released (the legal holds, after the change).'),
  'GET /v1/admin/storage': json(
    storageReportSchema,
    'What the storage holds, by kind, surgery and month, with the projection of the next 12 months.',
  ),
  'GET /v1/admin/review-settings': json(
    reviewSettingsViewSchema,
    'The share of cases drawn for a second review: the default and each surgery’s.',
  ),
  'PUT /v1/admin/review-settings': json(reviewSettingsSchema, 'The installation’s default share is saved.'),
  'PUT /v1/admin/review-settings/surgeries/:id': json(surgeryShareSchema, 'The surgery’s share is saved (null: the default applies).'),
  'POST /v1/admin/videos/:id/reviews': json(
    moreReviewResponse,
    'The case is sent for another review (a second, or a third when flagged); REVIEW_NOT_POSSIBLE otherwise.',
  ),
  'GET /v1/admin/disagreements': json(disagreementListSchema, 'The flagged cases, newest first, by status and surgery.'),
  'POST /v1/admin/disagreements/:id/discussed': json(discussedResponse, 'The disagreement is marked discussed, with its note.'),
  'GET /v1/videos/:id/self-assessment': json(
    selfAssessmentSchema,
    "The author's self-assessment of the case, and once the case's ratings reached them, self against expert.",
  ),
  'PUT /v1/videos/:id/self-assessment': json(
    selfAssessmentSchema,
    'The self-assessment is saved; a case whose result is released gets its ratings at once (refused once they were released).',
  ),
  'POST /v1/videos/:id/self-assessment/skip': json(
    selfAssessmentSchema,
    'The invitation is declined (nothing changes when already rated or skipped); a case whose result is released gets its ratings at once.',
  ),
  'GET /v1/stats/me/self-assessment': json(learnerSelfVsExpertSchema, "The learner's self-ratings against the experts', month by month."),

  'GET /v1/admin/vocabularies': json(adminVocabulariesSchema, 'Every vocabulary with both names, retired terms included.'),
  'POST /v1/admin/vocabularies/organs': json(idOnly, 'The new organ.', 201),
  'POST /v1/admin/vocabularies/surgeries': json(idOnly, 'The new surgery.', 201),
  'POST /v1/admin/vocabularies/specialties': json(idOnly, 'The new specialty.', 201),
  'POST /v1/admin/vocabularies/surgeries/:id/steps': json(idOnly, 'The new step, last of the surgery.', 201),
  ...Object.fromEntries(
    ['organs', 'surgeries', 'specialties', 'surgeries/:id/steps'].map((kind) => [
      `PUT /v1/admin/vocabularies/${kind}/order`,
      json(z.object({ ids: z.array(z.string()) }), 'The new order (refused with VOCABULARY_ORDER_STALE when the list changed meanwhile).'),
    ]),
  ),
  ...Object.fromEntries(
    (['organs', 'surgeries', 'steps', 'specialties'] as const).flatMap((kind) => [
      [`PUT /v1/admin/vocabularies/${kind}/:id`, json(idOnly, 'The term is renamed.')],
      [
        `POST /v1/admin/vocabularies/${kind}/:id/retire`,
        json(z.object({ id: z.string(), retired: z.literal(true) }), 'The term is offered nowhere new.'),
      ],
      [
        `POST /v1/admin/vocabularies/${kind}/:id/restore`,
        json(z.object({ id: z.string(), retired: z.literal(false) }), 'The term is offered again.'),
      ],
      [
        `DELETE /v1/admin/vocabularies/${kind}/:id`,
        json(z.object({ id: z.string(), deleted: z.literal(true) }), 'The term is deleted (never one in use).'),
      ],
    ]),
  ),
  'GET /v1/admin/surgery-videos': json(adminVideoListSchema, 'Every case with its status and who holds it, filtered and paged.'),
  'POST /v1/admin/surgery-videos/:id/release': json(
    z.object({ videoId: z.string(), stage: z.enum(['preparation', 'analysis']), released: z.literal(true) }),
    "The hold is ended: the holder's next write answers LEASE_LOST and the case goes back to its pool.",
  ),
  'DELETE /v1/admin/surgery-videos/:id': json(
    z.object({ id: z.string(), deleted: z.literal(true) }),
    'The case and its files are deleted.',
  ),
  'GET /v1/admin/counts': json(adminCountsSchema, "The administration's counts."),
  'GET /v1/admin/streaming': json(adminStreamingSchema, 'The HLS ladders made and left to make.'),
  'GET /v1/admin/users': json(adminUserListResponse, 'People, filtered and paged.'),
  'PUT /v1/admin/users/:id/roles': json(adminUserSchema, 'The person with their new roles (applied at once to their open sessions).'),
  'PUT /v1/admin/users/:id/active': json(adminUserSchema, 'The person, deactivated (sessions ended) or active again.'),
  'POST /v1/admin/users/:id/validation-mail': json(z.object({ sent: z.literal(true) }), 'A new validation mail is sent.'),
  'GET /v1/admin/audit': json(auditListResponse, 'Audit entries matching the filter, newest first.'),
  'GET /v1/admin/audit/export': { kind: 'raw', envelopeErrors: true, responses: { '200': csvResponse } },
  'GET /v1/admin/programmes': json(z.array(programmeSummarySchema), 'Every training programme with its counts and settings.'),
  'POST /v1/admin/programmes': json(programmeDetailSchema, 'The new programme (the default CUSUM settings unless given).', 201),
  'GET /v1/admin/programmes/:id': json(programmeDetailSchema, 'The programme with its learners and directors.'),
  'PUT /v1/admin/programmes/:id': json(
    programmeDetailSchema,
    "The programme after the change (its learners' curves computed again with new settings).",
  ),
  'DELETE /v1/admin/programmes/:id': json(z.object({ id: z.string(), deleted: z.literal(true) }), 'The programme is deleted.'),
  'POST /v1/admin/programmes/:id/members': json(programmeDetailSchema, 'The programme with the learner added.'),
  'DELETE /v1/admin/programmes/:id/members/:userId': json(
    programmeDetailSchema,
    "The programme without the learner: its directors lose access to the learner's data at once.",
  ),
  'POST /v1/admin/programmes/:id/directors': json(programmeDetailSchema, 'The programme with the director named.'),
  'DELETE /v1/admin/programmes/:id/directors/:userId': json(programmeDetailSchema, 'The programme without that director.'),
  'GET /v1/programmes': json(
    myProgrammesSchema,
    'The programmes the caller directs, and those they are a learner of with their directors.',
  ),
  'GET /v1/programmes/:id/cohort': json(
    cohortSchema,
    "The cohort: every learner of the programme and, per procedure, their curve's state, latest rating and trend (audited).",
  ),
  'GET /v1/programmes/:id/cohort/export': { kind: 'raw', envelopeErrors: true, responses: { '200': cohortCsvResponse } },
  'GET /v1/programmes/:id/learners/:learnerId': json(
    learnerCurvesSchema,
    "A learner's curves per procedure under the programme's settings, their analysed cases and the experts' advice (audited).",
  ),
  'GET /v1/stats/me/learning-curves': json(
    learnerCurvesSchema,
    "The learner's own curves per procedure, under one of their programmes' settings (`programmeId`) or the defaults.",
  ),
  'GET /v1/admin/calibration': json(
    agreementReportSchema,
    "Agreement between the experts over the period's double-reviewed cases: kappa, ICC, each expert's mean difference, Bland–Altman.",
  ),
  'GET /v1/expert/calibration': json(
    expertCalibrationSchema,
    "The expert's agreement with their colleagues, and the programme's figures without any other expert's name.",
  ),

  'GET /v1/best-cases': json(page(bestCaseSummarySchema), 'Published best cases, filtered by surgery or organ, paged.'),
  'GET /v1/best-cases/:id': json(bestCaseDetailSchema, 'One published best case with its steps.'),
  'GET /v1/admin/best-cases': json(page(adminBestCaseSchema), 'Every best case with its publication and consent state.'),
  'GET /v1/admin/best-cases/:id': json(adminBestCaseDetailSchema, 'One best case as the administrator edits it.'),
  'POST /v1/admin/best-cases': json(
    adminBestCaseDetailSchema,
    'The new best case (from an analysed case, asking its author, or uploaded).',
    201,
  ),
  'PUT /v1/admin/best-cases/:id': json(adminBestCaseDetailSchema, 'The best case after the change of its texts or classification.'),
  'PUT /v1/admin/best-cases/:id/published': json(adminBestCaseDetailSchema, 'The best case, published or withdrawn.'),
  'PUT /v1/admin/best-cases/:id/steps': json(adminBestCaseDetailSchema, 'The best case with its new steps.'),
  'PUT /v1/admin/best-cases/:id/step-notes': json(adminBestCaseDetailSchema, "The best case with the administrator's notes on its steps."),
  'DELETE /v1/admin/best-cases/:id': json(empty, 'The best case is deleted.'),
  'GET /v1/best-cases/:id/drawings': json(
    z.array(bestCaseDrawingSchema),
    'The teaching drawings of a best case, by frame time, each with its note (for whoever may watch it).',
  ),
  'POST /v1/admin/best-cases/:id/drawings': json(bestCaseDrawingSchema, 'The drawing added over a frame of the best case.', 201),
  'DELETE /v1/admin/best-cases/:id/drawings/:drawingId': json(empty, 'The drawing is removed from the best case.'),
  'GET /v1/videos/:id/best-case': json(
    bestCaseRequestSchema.nullable(),
    "Whether the administration asked to publish this case as a best case, and the author's answer; null to its author when nothing was asked.",
  ),
  'PUT /v1/videos/:id/best-case/consent': json(bestCaseRequestSchema, "The author's answer is recorded."),
  'GET /v1/videos/:id/comparison': json(
    comparisonChoicesSchema,
    'The published best cases of the same surgery this analysed case may be compared with.',
  ),
  'GET /v1/videos/:id/comparison/:bestCaseId': json(comparisonSchema, 'The analysed case and the best case, their steps matched.'),
  'GET /v1/best-cases/:id/comparison': json(comparisonChoicesSchema, 'The other published best cases of the same surgery.'),
  'GET /v1/best-cases/:id/comparison/:bestCaseId': json(comparisonSchema, 'Two best cases of the same surgery, their steps matched.'),

  'GET /v1/dashboard': json(
    dashboardSchema,
    "The dashboard of the caller's roles. A learner's latest feedback carries a rating only once the case's ratings reached " +
      'them (`awaitingSelfAssessment` false): the mean of its submitted reviews, as the result page gives it.',
  ),
  'POST /v1/contact': json(empty, 'The message is mailed to the support address.'),

  'OPTIONS /v1/uploads/': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '204': {
        description: 'What this tus 1.0.0 server supports (no body).',
        headers: {
          ...tusCommon,
          'Tus-Version': { type: 'string', description: '`1.0.0`' },
          'Tus-Extension': { type: 'string', description: '`creation,creation-with-upload,termination`' },
          'Tus-Max-Size': { type: 'integer', description: 'Largest file accepted, in bytes (MAX_UPLOAD_BYTES).' },
        },
      },
    },
  },
  'POST /v1/uploads/': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '201': {
        description:
          "The upload is created for the case named in Upload-Metadata: `videoId` (required, a case of the caller waiting for its file), `filename`, `filetype`, `fingerprint` (`<algorithm>:<size>:<hex>` of the first and last MiB, so a resume from another browser sends the same file). With `Content-Type: application/offset+octet-stream` the body is the first bytes (creation-with-upload). Refusals of the API come as the error envelope: 400 VALIDATION (Upload-Length, Upload-Metadata or fingerprint), 404 NOT_FOUND (not the caller's case), 409 VIDEO_ALREADY_UPLOADED, 413 UPLOAD_TOO_BIG (before any byte is read), 429 when the caller's limits of uploads in flight are reached.",
        headers: {
          ...tusCommon,
          Location: {
            type: 'string',
            description: 'Where the upload lives: `/v1/uploads/<id>` (behind a proxy, prefixed by X-Forwarded-Prefix).',
          },
          'Upload-Offset': { type: 'integer', description: 'Bytes received, with creation-with-upload.' },
        },
      },
      ...tusRefusals,
      ...tusWriteRefusals,
    },
  },
  'HEAD /v1/uploads/:id': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '200': {
        description: 'Where to resume (no body). When every byte is there but the processing did not start (a crash), it starts now.',
        headers: {
          ...tusCommon,
          'Upload-Offset': { type: 'integer', description: 'Bytes received so far.' },
          'Upload-Length': { type: 'integer', description: 'Size of the whole file.' },
          'Upload-Metadata': { type: 'string', description: '`videoId` and `filetype`, base64 as tus writes them.' },
          'Cache-Control': { type: 'string', description: '`no-store`' },
        },
      },
      ...tusRefusals,
    },
  },
  'PATCH /v1/uploads/:id': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '204': {
        description:
          'The body (`Content-Type: application/offset+octet-stream`, from `Upload-Offset`) is kept; with the last byte the case starts processing. A connection cut midway keeps what arrived: HEAD says how far.',
        headers: { ...tusCommon, 'Upload-Offset': { type: 'integer', description: 'Bytes received so far.' } },
      },
      '400': tusText(
        'Upload-Offset is not a byte count, Content-Type is not `application/offset+octet-stream`, or Upload-Length is sent again (plain text); the error envelope VALIDATION when a body of another type is refused before that.',
        { orEnvelope: true },
      ),
      '403': tusText('Upload-Offset or Content-Type is missing (plain text).'),
      ...tusRefusals,
      ...tusWriteRefusals,
    },
  },
  'DELETE /v1/uploads/:id': {
    kind: 'raw',
    envelopeErrors: true,
    responses: {
      '204': { description: 'The upload and its bytes are removed (termination); the case waits for a file again.', headers: tusCommon },
      '400': tusText('The upload is complete: it can no longer be terminated (plain text).'),
      ...tusRefusals,
    },
  },
};

export const successEnvelope = (data: ZodType) => z.object({ success: z.literal(true), data });

export const routeKey = (method: string, url: string) => `${method} ${url}`;

/** A JSON answer the route sent that its documented schema does not describe. */
export class UndocumentedResponse extends Error {}

/**
 * Sets each /v1 route's documented responses, and how its answers are serialised: as they are in
 * production; checked against the documentation first when `validate` is on (the API tests).
 */
export function registerRouteAnswers(app: FastifyInstance, opts: { validate: boolean; answers?: Record<string, RouteAnswer> }): void {
  const answers = opts.answers ?? ROUTE_ANSWERS;
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/v1/') || route.schema?.hide) return;
    for (const method of methods) {
      // HEAD of a GET route is made by Fastify and answers as its GET does.
      const answer = answers[routeKey(method, route.url)] ?? (method === 'HEAD' ? undefined : null);
      if (answer === undefined) return;
      if (answer === null) throw new Error(`${routeKey(method, route.url)} has no documented answer in route-responses.ts`);
      route.schema = { ...route.schema, response: responsesOf(answer) };
      // A HEAD route of its own (tus) is documented; the HEAD Fastify adds to each GET is not.
      if (method === 'HEAD') route.config = { ...route.config, swagger: { exposeHeadRoute: true } } as typeof route.config;
      const label = routeKey(method, route.url);
      route.serializerCompiler = ({ schema }) => {
        const zod = schema instanceof z.ZodType ? schema : undefined;
        return (data: unknown) => {
          const text = JSON.stringify(data);
          if (opts.validate && zod && text !== undefined) {
            const result = zod.safeParse(JSON.parse(text));
            if (!result.success) throw new UndocumentedResponse(`${label}: ${z.prettifyError(result.error)}`);
          }
          return text;
        };
      };
    }
  });
}

function responsesOf(answer: RouteAnswer): Record<string, unknown> {
  const failure = described(errorEnvelope, 'Unexpected failure (no detail given).');
  if (answer.kind === 'raw') {
    return {
      ...Object.fromEntries(Object.entries(answer.responses).map(([status, r]) => [status, rawResponse(r)])),
      ...(answer.envelopeErrors ? { '4xx': described(errorEnvelope, 'Refused: the error envelope.') } : {}),
      '5xx': failure,
    };
  }
  return {
    [String(answer.status ?? 200)]: described(successEnvelope(answer.data), answer.description),
    ...Object.fromEntries(
      Object.entries(answer.alsoStatuses ?? {}).map(([status, text]) => [status, described(successEnvelope(answer.data), text)]),
    ),
    '4xx': described(errorEnvelope, 'Refused: the error envelope, with the catalogue code and its text.'),
    '5xx': failure,
  };
}

const described = (schema: ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Marked so that the OpenAPI transform passes it through instead of reading it as a zod schema. */
const RAW_RESPONSE = Symbol('raw-response');
function rawResponse(r: OpenApiResponse) {
  // @fastify/swagger reads `type: 'null'` as "no body".
  return { [RAW_RESPONSE]: true, ...r, ...(r.content ? {} : { type: 'null' }) };
}

/**
 * The zod provider's OpenAPI transform, with the non-JSON answers (already OpenAPI objects)
 * passed through as they are.
 */
export const openApiTransform: typeof jsonSchemaTransform = (document) => {
  const response = (document.schema as { response?: Record<string, object> } | undefined)?.response;
  if (!response) return jsonSchemaTransform(document);
  const raw = Object.fromEntries(Object.entries(response).filter(([, r]) => RAW_RESPONSE in r));
  const zod = Object.fromEntries(Object.entries(response).filter(([, r]) => !(RAW_RESPONSE in r)));
  const out = jsonSchemaTransform({ ...document, schema: { ...document.schema, response: zod } } as typeof document);
  const schema = out.schema as { response?: Record<string, unknown>; hide?: boolean };
  if (!schema.hide) schema.response = { ...schema.response, ...raw };
  return out;
};
