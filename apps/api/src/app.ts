import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import { openApiTransform, registerRouteAnswers } from './http/route-responses.ts';
import { registerDocsPages } from './http/docs-pages.ts';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { APP_VERSION } from '@sutura/domain/limits';
import { missingLegalSettings } from '@sutura/domain/legal';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { eq } from 'drizzle-orm';
import { users } from './db/schema.ts';
import { usedLanguage } from './http/language.ts';
import { registerAccessControl, type RouteRule } from './http/access.ts';
import { AppError } from './http/errors.ts';
import { ok, registerEnvelope, registerNotFound } from './http/envelope.ts';
import { clientErrorHandler, frameworkErrors, registerInputGuard, registerSecurityHeaders } from './http/hardening.ts';
import { postgresRateLimitStore } from './http/rate-limit-store.ts';
import { registerSessionCookie } from './http/session-cookie.ts';
import { JSON_BODY_LIMIT, registerRequestDeadline } from './http/timeouts.ts';
import { workContext, type Queue } from './jobs/queue.ts';
import type { DemoPreparation } from './demo/preparation.ts';
import { createMetrics, metricsTokenMatches, type Metrics } from './metrics.ts';
import { createRealtime } from './realtime/socket.ts';
import type { Storage } from './storage/storage.ts';
import type { Scratch } from './storage/scratch.ts';
import { createScratchFromConfig, createUploadStoreFor } from './storage/select.ts';
import { createAccountedStorage, createAccountedUploads } from './storage/accounted.ts';
import type { UploadStore } from './storage/uploads.ts';
import { adminCatalogRoutes } from './modules/admin-catalog/admin-catalog.routes.ts';
import { createSurgeryVideosAdmin } from './modules/admin-catalog/surgery-videos.service.ts';
import { createVocabularyAdmin } from './modules/admin-catalog/vocabularies-admin.service.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createAuditLogService } from './modules/admin/audit-log.service.ts';
import { analysisRoutes } from './modules/analysis/analysis.routes.ts';
import { createFrameGrabber } from './modules/analysis/annotated-frames.ts';
import { createAnalysisService } from './modules/analysis/analysis.service.ts';
import { createDataExportService } from './modules/data-export/data-export.service.ts';
import { dataExportRoutes } from './modules/data-export/data-export.routes.ts';
import { createErasureReceipts } from './modules/data-export/erasure-receipt.ts';
import { createReviewService } from './modules/review/review.service.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';
import { retentionRoutes } from './modules/retention/retention.routes.ts';
import { createRetentionService } from './modules/retention/retention.service.ts';
import { createStorageReport } from './modules/retention/storage-report.ts';
import { createVoiceStore } from './modules/analysis/voice.ts';
import { createAudit, createAuditCounter, createAuditEraser } from './modules/audit/audit.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { bestCaseRoutes } from './modules/best-cases/best-cases.routes.ts';
import { bestCaseDrawingRoutes } from './modules/best-case-drawings/best-case-drawings.routes.ts';
import { createBestCaseDrawingService } from './modules/best-case-drawings/best-case-drawings.service.ts';
import { createBestCaseService } from './modules/best-cases/best-cases.service.ts';
import { comparisonRoutes } from './modules/comparison/comparison.routes.ts';
import { createComparisonService } from './modules/comparison/comparison.service.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createCodes } from './modules/auth/codes.ts';
import { createTokens } from './modules/auth/tokens.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { createSsoService } from './modules/sso/sso.service.ts';
import { createClaims } from './modules/claims/claims.service.ts';
import { createDashboardEvents } from './modules/dashboard/dashboard.events.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { createStreamingService } from './modules/streaming/streaming.service.ts';
import { createMediaService } from './modules/media/media.service.ts';
import { createSignedUrls } from './modules/media/signed-urls.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { createPushEndpointGuard, type ResolveHost } from './modules/push/push-endpoint.ts';
import { createPushService, loadVapidKeys } from './modules/push/push.service.ts';
import { createNotificationService, type RealtimeHub, type RoleRooms } from './modules/notifications/notifications.service.ts';
import { createPreparationJobs } from './modules/preparation/preparation.jobs.ts';
import { preparationRoutes } from './modules/preparation/preparation.routes.ts';
import { createPreparationService } from './modules/preparation/preparation.service.ts';
import { calibrationRoutes } from './modules/calibration/calibration.routes.ts';
import { createCalibrationService } from './modules/calibration/calibration.service.ts';
import { programmeRoutes } from './modules/programmes/programmes.routes.ts';
import { createProgrammeService } from './modules/programmes/programmes.service.ts';
import { selfAssessmentRoutes } from './modules/self-assessment/self-assessment.routes.ts';
import { createSelfAssessmentService } from './modules/self-assessment/self-assessment.service.ts';
import { createSelfVsExpertStats } from './modules/self-assessment/self-assessment.stats.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { createStatsService } from './modules/stats/stats.service.ts';
import { rppsRoutes } from './modules/rpps/rpps.routes.ts';
import { createRppsService } from './modules/rpps/rpps.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createResetBlockedNotice, createUserService } from './modules/users/users.service.ts';
import { uploadRoutes } from './modules/videos/tus.ts';
import { videoRoutes } from './modules/videos/videos.routes.ts';
import { createVideoService } from './modules/videos/videos.service.ts';
import { createUploadHousekeeping } from './modules/videos/upload-housekeeping.ts';
import { createRetentionRules } from './modules/retention/retention-rules.ts';
import { testingRoutes } from './modules/testing/testing.routes.ts';
import { vocabularyRoutes } from './modules/vocabularies/vocabularies.routes.ts';
import { createVocabularyService } from './modules/vocabularies/vocabularies.service.ts';
import { ffmpegCapabilities } from './media-pipeline/ffmpeg.ts';

/** JSON answers smaller than this go as they are: compressing them would not save a packet. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Built files carry a hash of their content in their name: cached for a year, never revalidated.
 * The page and the service worker are revalidated at every load, so a deployment shows at once.
 */
export function webCacheControl(relativePath: string): string {
  const file = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.(?:br|gz)$/, '');
  if (file.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (file === 'index.html' || file === 'sw.js') return 'no-cache';
  return 'public, max-age=3600';
}

export interface AppDeps {
  config: Config;
  database: Database;
  storage: Storage;
  /** Where ffmpeg's local copies go (from the configuration when not given). */
  scratch?: Scratch;
  /** Where tus uploads go as they arrive (the one that goes with `storage` when not given). */
  uploads?: UploadStore;
  queue: Queue;
  log: Logger;
  clock?: () => Date;
  /** The random source of the second-review draw (docs/double-review.md); tests inject known numbers. */
  random?: () => number;
  /** How push endpoints' host names resolve (the system resolver by default). */
  pushResolve?: ResolveHost;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Check every JSON answer against the route's documented schema (the API tests turn it on). */
  validateResponses?: boolean;
  /** The process's Prometheus instruments (the app makes its own when not given). */
  metrics?: Metrics;
  /** Whether the process is shutting down: the readiness check then answers 503. */
  draining?: () => boolean;
  /** What the demo is still making (demo/preparation.ts), told by /v1/health; nothing when absent. */
  demoPreparation?: Pick<DemoPreparation, 'state'>;
  /**
   * Settles once the database answers, when the app is built while it starts (server.ts): the
   * routes need no connection to be registered, the socket server's table does.
   */
  databaseOpened?: Promise<unknown>;
}

/** Builds the services of the product from its adapters; the app and the workers share them. */
export function createServices(deps: AppDeps, hub: RealtimeHub & RoleRooms) {
  const { config, database, queue } = deps;
  const db = database.db;
  // Every object written or deleted keeps its row of storage_objects (what the storage holds).
  const storage = createAccountedStorage(deps.storage, db);
  const clock = deps.clock ?? (() => new Date());
  const scratch = deps.scratch ?? createScratchFromConfig(config);
  const uploads = createAccountedUploads(deps.uploads ?? createUploadStoreFor(storage, { db, log: deps.log }), db);
  const audit = createAudit(db);
  const tokens = createTokens(config.jwtSecret);
  const urls = createSignedUrls(config.jwtSecret, config.signedUrlTtlSeconds, clock);
  const mediaService = createMediaService({ db, storage, urls });
  const vapid = loadVapidKeys({
    dataDir: config.dataDir,
    publicKey: config.vapidPublicKey,
    privateKey: config.vapidPrivateKey,
    subject: config.vapidSubject,
  });
  const pushEndpoints = createPushEndpointGuard({
    allowedHosts: config.pushAllowedHosts,
    ...(deps.pushResolve ? { resolve: deps.pushResolve } : {}),
  });
  const push = createPushService({ db, vapid, log: deps.log, endpoints: pushEndpoints });
  const notifications = createNotificationService({
    db,
    hub,
    queue,
    publicUrl: config.publicUrl,
    push,
    log: deps.log,
    timeZone: config.timeZone,
  });
  const programmes = createProgrammeService({ db, audit, notifications, clock, timeZone: config.timeZone, log: deps.log });
  const auth = createAuthService({
    db,
    tokens,
    audit,
    auditCount: createAuditCounter(db),
    mediaService,
    notifications,
    tokenTtlHours: config.tokenTtlHours,
    sessionMaxDays: config.sessionMaxDays,
    tokenGraceSeconds: config.tokenGraceSeconds,
    hub,
    signInFailuresPerAddress: config.signInFailuresPerAddress,
    clock,
  });
  const rpps = createRppsService(db);
  const codes = createCodes(db, config.jwtSecret, clock, createResetBlockedNotice(db, queue));
  const dashboardEvents = createDashboardEvents(hub);
  const claims = createClaims({
    db,
    clock,
    // Every claim transition reaches the dashboards of the author, the holders, and the stage's pool.
    onChange: (change) =>
      dashboardEvents.changed({
        users: [change.authorId, ...change.holderIds],
        roles: change.poolChanged ? [change.stage === 'preparation' ? 'editor' : 'expert'] : [],
      }),
  });
  const preparation = createPreparationService({ db, claims, mediaService, notifications, hub, queue, audit, clock });
  const videos = createVideoService({
    db,
    storage,
    mediaService,
    notifications,
    audit,
    queue,
    hub,
    dashboardEvents,
    uploads,
    quotas: config.quotas,
    clock,
    onSent: (videoId) => preparation.videoSent(videoId),
    onOperationDayChanged: (authorId) => programmes.learnerChanged(authorId),
  });
  const retentionRules = createRetentionRules({ db, defaults: config.retention });
  const housekeeping = createUploadHousekeeping({
    db,
    storage,
    uploads,
    notifications,
    expiryHours: () => retentionRules.uploadExpiryHours(),
    warnHours: 24,
    audit,
    clock,
    log: deps.log,
  });
  const sso = createSsoService({
    db,
    providers: config.sso.providers,
    ssoOnly: config.sso.ssoOnly,
    breakGlassEmail: config.sso.breakGlassEmail,
    publicUrl: config.publicUrl,
    auth,
    codes,
    queue,
    audit,
    hub,
    log: deps.log,
    clock,
  });
  const eraseAudit = createAuditEraser(db);
  const receipts = createErasureReceipts(db, clock);
  const users = createUserService({
    db,
    audit,
    codes,
    queue,
    auth,
    rpps,
    mediaService,
    notifications,
    videos,
    eraseAudit,
    receipts,
    clock,
  });
  const vocabularies = createVocabularyService(db);
  const retention = createRetentionService({ db, storage, uploads, rules: retentionRules, audit, notifications, clock, log: deps.log });
  const storageReport = createStorageReport({ db, clock, timeZone: config.timeZone });
  const review = createReviewService({ db, audit, notifications, hub, clock, random: deps.random });
  const preparationJobs = createPreparationJobs({
    db,
    review,
    storage,
    scratch,
    claims,
    preparation,
    notifications,
    dashboardEvents,
    queue,
    config,
    log: deps.log,
    audit,
  });
  const voice = createVoiceStore({ mediaService, ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath });
  const analysis = createAnalysisService({
    db,
    mediaService,
    notifications,
    audit,
    claims,
    voice,
    hub,
    review,
    dashboardEvents,
    onRatingsChanged: (authorId) => programmes.learnerChanged(authorId),
    clock,
  });
  const frames = createFrameGrabber({ storage, scratch, mediaService, ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath });
  const contact = createContactService({ db, queue, users, notifications, supportEmail: config.supportEmail, clock });
  const stats = createStatsService({ db, clock, timeZone: config.timeZone });
  const calibration = createCalibrationService({ db, timeZone: config.timeZone });
  // A case's ratings released to its learner by their answer: their dashboard's latest feedback changed.
  const selfAssessment = createSelfAssessmentService({
    db,
    clock,
    onRatingsReleased: (authorId) => {
      dashboardEvents.changed({ users: [authorId] });
      programmes.learnerChanged(authorId);
    },
  });
  const selfVsExpert = createSelfVsExpertStats({ db, clock, timeZone: config.timeZone });
  const vocabularyAdmin = createVocabularyAdmin({ db, audit, clock });
  const surgeryVideosAdmin = createSurgeryVideosAdmin({
    db,
    claims,
    audit,
    notifications,
    onReleasing: async ({ videoId, stage }, tx) => (stage !== 'preparation' ? analysis.draftReleased(tx, videoId) : null),
    onReleased: async ({ videoId, stage, authorId }, leftover) => {
      if (stage === 'preparation') {
        preparation.poolChanged(videoId, 'returned');
        preparation.statusChanged({ id: videoId, authorId }, 'pending_preparation');
      } else {
        await analysis.claimForceReleased(videoId, leftover);
      }
    },
  });
  const admin = createAdminService({ db, audit, auth, users, hub, clock, timeZone: config.timeZone });
  const auditLog = createAuditLogService({ db, timeZone: config.timeZone });
  const bestCases = createBestCaseService({ db, storage, uploads, mediaService, notifications, audit, clock });
  const comparisons = createComparisonService({ db, videos, bestCases });
  const bestCaseDrawings = createBestCaseDrawingService({ db, audit, clock });
  const dashboard = createDashboardService({ db, clock, timeZone: config.timeZone });
  const dataExport = createDataExportService({
    db,
    storage,
    queue,
    audit,
    clock,
    log: deps.log,
    publicUrl: config.publicUrl,
    mediaService,
    users,
    videos,
    analysis,
    frames,
    selfAssessment,
    selfVsExpert,
    stats,
    notifications,
    sso,
  });
  const streaming = createStreamingService({ db, queue, enabled: config.streaming.enabled });
  return {
    dataExport,
    streaming,
    scratch,
    review,
    uploads,
    dashboard,
    dashboardEvents,
    vocabularyAdmin,
    surgeryVideosAdmin,
    bestCases,
    comparisons,
    bestCaseDrawings,
    contact,
    audit,
    tokens,
    urls,
    mediaService,
    push,
    notifications,
    auth,
    sso,
    rpps,
    codes,
    users,
    vocabularies,
    videos,
    housekeeping,
    claims,
    preparation,
    preparationJobs,
    voice,
    analysis,
    frames,
    stats,
    calibration,
    selfAssessment,
    selfVsExpert,
    programmes,
    admin,
    auditLog,
    retention,
    retentionRules,
    storageReport,
  };
}
export type Services = ReturnType<typeof createServices>;

export async function buildApp(deps: AppDeps): Promise<{
  app: FastifyInstance;
  services: Services;
  routes: RouteRule[];
  hub: RealtimeHub;
  realtime: Awaited<ReturnType<typeof createRealtime>>;
  metrics: Metrics;
}> {
  const { config } = deps;
  const metrics =
    deps.metrics ??
    createMetrics({
      pool: deps.database.pool,
      defaults: false,
      enabled: config.metricsToken !== undefined || config.metricsPort !== undefined,
    });
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    // JSON bodies are small; the picture and avatar route and tus set their own limits.
    bodyLimit: JSON_BODY_LIMIT,
    // Node's whole-request timeout would cut long video uploads (tus resumes them, but needlessly):
    // every other route gets its own deadline from registerRequestDeadline.
    requestTimeout: 0,
    connectionTimeout: config.idleTimeoutSeconds * 1000,
    keepAliveTimeout: 5000,
    // Path parameters are ids and names: longer than this is refused with 414. A route answers the
    // same with a trailing slash (`/metrics/`, `/v1/health/`): never the web app's page instead.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Slow headers are cut by Node; it looks for them every second instead of every 30.
    http: { headersTimeout: config.headersTimeoutSeconds * 1000, connectionsCheckingInterval: 1000 },
    clientErrorHandler,
    frameworkErrors,
    // Only behind a reverse proxy the operator names; otherwise X-Forwarded-For would let a client pick its address.
    trustProxy: config.trustProxy as boolean,
    // Every route's schemas are zod's: given here, Fastify does not load its own compilers (ajv
    // and fast-json-stringify, 1 MB of code held for nothing).
    // (Fastify types these factories after ajv's; zod's compilers have the same calling shape.)
    schemaController: {
      compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as unknown as NonNullable<
        FastifyServerOptions['schemaController']
      >['compilersFactory'],
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestContext(app, metrics);

  // The hub exists before the socket server so that services can be built first.
  const live: { realtime?: Awaited<ReturnType<typeof createRealtime>> } = {};
  const hub: RealtimeHub & RoleRooms = {
    emitToUser: (userId, event, payload) => live.realtime?.hub.emitToUser(userId, event, payload),
    disconnectSessions: (sessionIds) => live.realtime?.hub.disconnectSessions(sessionIds),
    emitToRole: (role, event, payload) => live.realtime?.hub.emitToRole(role, event, payload),
    rolesChanged: async (userId, roles) => live.realtime?.hub.rolesChanged(userId, roles),
  };
  const services = createServices(deps, hub);

  // Access first: an anonymous caller learns nothing about the route's input rules.
  const routes = registerAccessControl(app, services.auth);
  registerRouteAnswers(app, { validate: deps.validateResponses === true });
  // The language a signed-in person reads the app in, kept for their mails and pushes; written
  // only when it changes (the session's row carries the recorded one).
  app.addHook('preHandler', async (request) => {
    const user = request.user;
    if (!user) return;
    const used = usedLanguage(request);
    if (!used || used === user.appLanguage) return;
    await deps.database.db.update(users).set({ appLanguage: used }).where(eq(users.id, user.id));
    user.appLanguage = used;
  });
  registerEnvelope(app);
  registerInputGuard(app);
  registerSecurityHeaders(app, config.publicUrl);
  registerRequestDeadline(app, config.requestTimeoutSeconds * 1000);
  registerSessionCookie(app, { secure: config.publicUrl.startsWith('https://'), maxAgeSeconds: config.tokenTtlHours * 3600 });
  // Counted in PostgreSQL: the limits hold across the processes of a cluster.
  await app.register(fastifyRateLimit, { global: false, store: postgresRateLimitStore(deps.database.pool) });
  await app.register(fastifyMultipart, { limits: { fileSize: config.avatarMaxBytes, files: 1, fields: 5 }, throwFileSizeLimit: true });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Sutura API', version: APP_VERSION, description: 'Surgical video analysis platform' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: openApiTransform,
  });
  registerDocsPages(app, '/v1/docs');

  await app.register(
    async (v1) => {
      // JSON answers only: media are already compressed (and sent by ranges), uploads carry no
      // body back, the socket does not go through these routes. Request bodies are never inflated.
      await v1.register(fastifyCompress, {
        encodings: ['br', 'gzip'],
        threshold: COMPRESS_MIN_BYTES,
        customTypes: /^application\/(?:[\w.+-]+\+)?json(?:;|$)/,
        globalDecompression: false,
      });
      // Public: the legal texts are read before anyone signs in.
      v1.get('/legal/operator', { config: { access: 'public' }, schema: { tags: ['health'] } }, async () => ok(config.legal));
      // Administrators see in the app what the server warns about at start-up: the legal texts' blanks.
      v1.get('/legal/missing', { config: { access: ['administrator'] }, schema: { tags: ['health'] } }, async () =>
        ok({ missing: missingLegalSettings(config.legal) }),
      );
      v1.get('/health', { config: { access: 'public' }, schema: { tags: ['health'] } }, async () =>
        ok({
          status: 'ok',
          version: APP_VERSION,
          maxUploadBytes: config.maxUploadBytes,
          // Whether uploads can become playable videos here (ffmpeg and ffprobe found and able).
          mediaPipeline: (await ffmpegCapabilities({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath })).usable,
          pushPublicKey: services.push.publicKey,
          // The dashboards say that the demo is being prepared while its cases are made.
          demo: deps.demoPreparation?.state() ?? { preparing: false, progress: 100 },
        }),
      );
      // Readiness, for a load balancer or an orchestrator: 503 while a dependency is out of reach
      // or the process is shutting down, with what is wrong; /health only says the process answers.
      v1.get('/ready', { config: { access: 'public' }, schema: { tags: ['health'] } }, async (_request, reply) => {
        const checks = await readinessChecks(deps);
        const ready = Object.values(checks).every(Boolean) && !deps.draining?.();
        return reply.status(ready ? 200 : 503).send(ok({ ready, draining: deps.draining?.() ?? false, checks }));
      });
      await v1.register(authRoutes({ auth: services.auth, sso: services.sso, rateLimit: config.rateLimitAuthPerMinute }));
      await v1.register(
        ssoRoutes({ sso: services.sso, secure: config.publicUrl.startsWith('https://'), rateLimit: config.rateLimitAuthPerMinute }),
      );
      await v1.register(
        usersRoutes({
          sso: services.sso,
          users: services.users,
          videos: services.videos,
          push: services.push,
          avatarMaxBytes: config.avatarMaxBytes,
          rateLimit: config.rateLimitAuthPerMinute,
          lookupsPerHour: config.rateLimitLookupsPerHour,
        }),
      );
      await v1.register(rppsRoutes({ rpps: services.rpps, rateLimit: config.rateLimitAuthPerMinute }));
      await v1.register(notificationRoutes({ notifications: services.notifications }));
      await v1.register(dataExportRoutes({ dataExport: services.dataExport }));
      await v1.register(
        mediaRoutes({
          mediaService: services.mediaService,
          urls: services.urls,
          storage: deps.storage,
          audit: services.audit,
          streaming: services.streaming,
        }),
      );
      await v1.register(vocabularyRoutes({ vocabularies: services.vocabularies }));
      await v1.register(videoRoutes({ videos: services.videos, lookupsPerHour: config.rateLimitLookupsPerHour }));
      await v1.register(preparationRoutes({ preparation: services.preparation }));
      await v1.register(analysisRoutes({ analysis: services.analysis, scratch: services.scratch, frames: services.frames }));
      await v1.register(statsRoutes({ stats: services.stats }));
      // The end-to-end suite's people: the route exists only on a server started for the tests.
      if (config.testSeeding) await v1.register(testingRoutes({ db: deps.database.db }));
      await v1.register(calibrationRoutes({ calibration: services.calibration }));
      await v1.register(reviewRoutes({ review: services.review }));
      await v1.register(
        retentionRoutes({ retention: services.retention, rules: services.retentionRules, storageReport: services.storageReport }),
      );
      await v1.register(programmeRoutes({ programmes: services.programmes }));
      await v1.register(selfAssessmentRoutes({ selfAssessment: services.selfAssessment, stats: services.selfVsExpert }));
      await v1.register(
        adminCatalogRoutes({ vocabularies: services.vocabularyAdmin, surgeryVideos: services.surgeryVideosAdmin, videos: services.videos }),
      );
      await v1.register(
        adminRoutes({
          streaming: services.streaming,
          admin: services.admin,
          auditLog: services.auditLog,
          audit: services.audit,
          rateLimit: config.rateLimitAuthPerMinute,
        }),
      );
      await v1.register(bestCaseRoutes({ bestCases: services.bestCases }));
      await v1.register(comparisonRoutes({ comparisons: services.comparisons }));
      await v1.register(bestCaseDrawingRoutes({ drawings: services.bestCaseDrawings }));
      await v1.register(dashboardRoutes({ dashboard: services.dashboard }));
      await v1.register(uploadRoutes({ videos: services.videos, uploads: services.uploads, maxUploadBytes: config.maxUploadBytes }));
      await v1.register(contactRoutes({ contact: services.contact, rateLimit: config.rateLimitAuthPerMinute }));
    },
    { prefix: '/v1' },
  );

  // Prometheus: on this port only for a caller bearing METRICS_TOKEN (a listener of its own,
  // METRICS_PORT, serves it without token on an internal address). Unknown without the token.
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (!config.metricsToken || !metricsTokenMatches(request.headers.authorization, config.metricsToken)) {
      throw new AppError('NOT_FOUND');
    }
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });

  const webIndex = path.join(config.webDist, 'index.html');
  const serveWeb = deps.serveWeb !== false && existsSync(webIndex);
  if (serveWeb) {
    // The build writes .br and .gz beside each file; they are sent as they are (the plugin finds
    // them beside the file it sends). The few files at the top get a route each (the page, the
    // service worker, the manifest, the icons); the 200 hashed chunks of assets/ one route for
    // all: a route per file and per compressed copy held 5 MB of the idle process. The plugin (and
    // its file listing) loads only where there is a build to serve.
    const { default: fastifyStatic } = await import('@fastify/static');
    const common = {
      index: false as const,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply, file: string) =>
        reply.header('cache-control', webCacheControl(path.relative(config.webDist, file))),
    };
    await app.register(fastifyStatic, {
      ...common,
      root: config.webDist,
      wildcard: false,
      globIgnore: ['assets/**', '**/*.br', '**/*.gz'],
    });
    // A missing chunk (of an older deployment) falls through to the not-found handler: a 404.
    await app.register(fastifyStatic, {
      ...common,
      root: path.join(config.webDist, 'assets'),
      prefix: '/assets/',
      wildcard: true,
      decorateReply: false,
    });
  }
  registerNotFound(app, serveWeb ? (_request, reply) => reply.sendFile('index.html') : undefined);

  await deps.databaseOpened;
  const realtime = await createRealtime({ server: app.server, auth: services.auth, pool: deps.database.pool, log: deps.log });
  live.realtime = realtime;
  metrics.countSocketsWith(realtime.count);
  app.addHook('onClose', () => realtime.close());
  return { app, services, routes, hub, realtime, metrics };
}

/**
 * Every request runs in a work context carrying its id (the proxy's X-Request-Id when it sends
 * one): its log lines and the jobs it enqueues carry it on. Its duration is measured by route.
 */
function registerRequestContext(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    workContext.run({ requestId: request.id }, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // A tus PATCH answers with the offset it reached: the bytes it took are the difference.
    if (request.method === 'PATCH' && reply.statusCode === 204) {
      const before = Number(request.headers['upload-offset']);
      const after = Number(reply.getHeader('upload-offset'));
      if (Number.isFinite(before) && Number.isFinite(after) && after > before) metrics.uploadBytes.inc(after - before);
    }
    done();
  });
}

/** What the process needs to serve: each check bounded in time, so a hung dependency reads as down. */
async function readinessChecks(deps: AppDeps): Promise<Record<'database' | 'queue' | 'storage' | 'mediaPipeline', boolean>> {
  const within = <T>(work: Promise<T>, ok: (value: T) => boolean) =>
    Promise.race([work.then(ok, () => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), READY_CHECK_MS).unref())]);
  const [database, queue, storage, mediaPipeline] = await Promise.all([
    within(deps.database.pool.query('select 1'), () => true),
    within(deps.queue.ready(), (ready) => ready),
    // A key nobody writes: an answer (absent) shows the store is reachable.
    within(deps.storage.size('.ready-check'), () => true),
    within(ffmpegCapabilities({ ffmpegPath: deps.config.ffmpegPath, ffprobePath: deps.config.ffprobePath }), (c) => c.usable),
  ]);
  return { database, queue, storage, mediaPipeline };
}
const READY_CHECK_MS = 3000;
