import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { APP_VERSION } from '@sutura/domain/limits';
import { missingLegalSettings } from '@sutura/domain/legal';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerAccessControl, type RouteRule } from './http/access.ts';
import { ok, registerEnvelope, registerNotFound } from './http/envelope.ts';
import type { Queue } from './jobs/queue.ts';
import { createRealtime } from './realtime/socket.ts';
import type { Storage } from './storage/storage.ts';
import { createAudit } from './modules/audit/audit.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createCodes } from './modules/auth/codes.ts';
import { createTokens } from './modules/auth/tokens.ts';
import { contactRoutes } from './modules/contact/contact.routes.ts';
import { createContactService } from './modules/contact/contact.service.ts';
import { mediaRoutes } from './modules/media/media.routes.ts';
import { createMediaService } from './modules/media/media.service.ts';
import { createSignedUrls } from './modules/media/signed-urls.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { createNotificationService, type RealtimeHub } from './modules/notifications/notifications.service.ts';
import { rppsRoutes } from './modules/rpps/rpps.routes.ts';
import { createRppsService } from './modules/rpps/rpps.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createUserService } from './modules/users/users.service.ts';
import { uploadRoutes } from './modules/videos/tus.ts';
import { videoRoutes } from './modules/videos/videos.routes.ts';
import { createVideoService } from './modules/videos/videos.service.ts';
import { vocabularyRoutes } from './modules/vocabularies/vocabularies.routes.ts';
import { createVocabularyService } from './modules/vocabularies/vocabularies.service.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  storage: Storage;
  queue: Queue;
  log: Logger;
  clock?: () => Date;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
}

/** Builds the services of the product from its adapters; the app and the workers share them. */
export function createServices(deps: AppDeps, hub: RealtimeHub) {
  const { config, database, storage, queue } = deps;
  const db = database.db;
  const clock = deps.clock ?? (() => new Date());
  const audit = createAudit(db);
  const tokens = createTokens(config.jwtSecret);
  const urls = createSignedUrls(config.jwtSecret, config.signedUrlTtlSeconds, clock);
  const mediaService = createMediaService({ db, storage, urls });
  const notifications = createNotificationService({ db, hub, queue, publicUrl: config.publicUrl });
  const auth = createAuthService({ db, tokens, audit, mediaService, notifications, tokenTtlHours: config.tokenTtlHours, clock });
  const rpps = createRppsService(db);
  const codes = createCodes(db, config.jwtSecret, clock);
  const users = createUserService({ db, audit, codes, queue, auth, rpps, mediaService, notifications, clock });
  const vocabularies = createVocabularyService(db);
  const videos = createVideoService({ db, storage, mediaService, notifications, audit, queue, hub, dataDir: config.dataDir, clock });
  const contact = createContactService({ db, queue, users, notifications, supportEmail: config.supportEmail, clock });
  return { audit, tokens, urls, mediaService, notifications, auth, rpps, codes, users, vocabularies, videos, contact };
}
export type Services = ReturnType<typeof createServices>;

export async function buildApp(
  deps: AppDeps,
): Promise<{ app: FastifyInstance; services: Services; routes: RouteRule[]; hub: RealtimeHub }> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    bodyLimit: 1024 * 1024,
    // Video uploads stream for as long as they need (tus resumes them if cut); headers still time out.
    requestTimeout: 0,
    // Only behind a reverse proxy the operator names; otherwise X-Forwarded-For would let a client pick its address.
    trustProxy: config.trustProxy as boolean,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The hub exists before the socket server so that services can be built first.
  const live: { realtime?: Awaited<ReturnType<typeof createRealtime>> } = {};
  const hub: RealtimeHub = { emitToUser: (userId, event, payload) => live.realtime?.hub.emitToUser(userId, event, payload) };
  const services = createServices(deps, hub);

  // Access first: an anonymous caller learns nothing about the route's input rules.
  const routes = registerAccessControl(app, services.auth);
  registerEnvelope(app);
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyMultipart, { limits: { fileSize: config.avatarMaxBytes, files: 1, fields: 5 }, throwFileSizeLimit: true });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Sutura API', version: APP_VERSION, description: 'Surgical video analysis platform' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs' });

  await app.register(
    async (v1) => {
      // Public: the legal texts are read before anyone signs in.
      v1.get('/legal/operator', { config: { access: 'public' }, schema: { tags: ['health'] } }, async () => ok(config.legal));
      // Administrators see in the app what the server warns about at start-up: the legal texts' blanks.
      v1.get('/legal/missing', { config: { access: ['administrator'] }, schema: { tags: ['health'] } }, async () =>
        ok({ missing: missingLegalSettings(config.legal) }),
      );
      v1.get('/health', { config: { access: 'public' }, schema: { tags: ['health'] } }, async () =>
        ok({ status: 'ok', version: APP_VERSION, maxUploadBytes: config.maxUploadBytes }),
      );
      await v1.register(authRoutes({ auth: services.auth, rateLimit: config.rateLimitAuthPerMinute }));
      await v1.register(
        usersRoutes({
          users: services.users,
          videos: services.videos,
          avatarMaxBytes: config.avatarMaxBytes,
          rateLimit: config.rateLimitAuthPerMinute,
        }),
      );
      await v1.register(rppsRoutes({ rpps: services.rpps, rateLimit: config.rateLimitAuthPerMinute }));
      await v1.register(notificationRoutes({ notifications: services.notifications }));
      await v1.register(mediaRoutes({ mediaService: services.mediaService, urls: services.urls, storage: deps.storage }));
      await v1.register(vocabularyRoutes({ vocabularies: services.vocabularies }));
      await v1.register(videoRoutes({ videos: services.videos }));
      await v1.register(uploadRoutes({ videos: services.videos, maxUploadBytes: config.maxUploadBytes }));
      await v1.register(contactRoutes({ contact: services.contact, rateLimit: config.rateLimitAuthPerMinute }));
    },
    { prefix: '/v1' },
  );

  const webIndex = path.join(config.webDist, 'index.html');
  const serveWeb = deps.serveWeb !== false && existsSync(webIndex);
  if (serveWeb) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false, maxAge: '1h' });
  }
  registerNotFound(
    app,
    serveWeb
      ? (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', config.webDist, { maxAge: 0 })
      : undefined,
  );

  const realtime = await createRealtime({ server: app.server, auth: services.auth, pool: deps.database.pool, log: deps.log });
  live.realtime = realtime;
  app.addHook('onClose', () => realtime.close());
  return { app, services, routes, hub };
}
