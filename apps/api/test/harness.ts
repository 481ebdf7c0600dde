import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import type { Role } from '@sutura/domain/roles';
import type { Session } from '@sutura/domain/auth';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { buildApp, type Services } from '../src/app.ts';
import type { RouteRule } from '../src/http/access.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { ResolveHost } from '../src/modules/push/push-endpoint.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { specialties, users } from '../src/db/schema.ts';
import { createQueue, type Queue } from '../src/jobs/queue.ts';
import type { DemoPreparation } from '../src/demo/preparation.ts';
import { createJobHandlers } from '../src/jobs/workers.ts';
import { createMailer } from '../src/modules/mail/mailer.ts';
import { testPeoplePasswordHash } from '../src/modules/auth/auth.service.ts';
import { importRppsFile } from '../src/modules/rpps/rpps-extract.ts';
import type { S3Storage } from '../src/storage/s3.ts';
import { startS3Server } from './s3-server.ts';
import { createS3UploadStore } from '../src/storage/s3-uploads.ts';
import { createScratchFromConfig, createStorageFromConfig } from '../src/storage/select.ts';
import type { Storage } from '../src/storage/storage.ts';
import { createAccountedStorage } from '../src/storage/accounted.ts';
import { RPPS_SAMPLE_FILE } from '../src/demo/seed.ts';

/** Three people of the sample RPPS extract, used to sign up in tests. */
export const SAMPLE_PEOPLE = [
  { rpps: '10999901019', lastName: 'LEFÈVRE-DURAND', firstName: 'Hélène' },
  { rpps: '10999901027', lastName: 'MARCHAND-ROUX', firstName: 'Jean-François' },
  { rpps: '10999901035', lastName: 'DE LA VALLIÈRE', firstName: 'Éloïse' },
] as const;

/** The people made by createUser all have the password `password123`: hashed once per test process, at the test people's cost. */
let passwordHash: Promise<string> | undefined;
function testPasswordHash(): Promise<string> {
  passwordHash ??= testPeoplePasswordHash('password123');
  return passwordHash;
}

export interface TestContext {
  app: FastifyInstance;
  services: Services;
  routes: RouteRule[];
  database: Database;
  databaseUrl: string;
  storage: Storage;
  queue: Queue;
  config: Config;
  dataDir: string;
  clock: { now: Date; advance(ms: number): void };
  inject(opts: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    token?: string | undefined;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** A signed-in person with the given role, made straight in the database. */
  createUser(
    role: Role,
    overrides?: Partial<typeof users.$inferInsert>,
  ): Promise<{ id: string; email: string; password: string; token: string; session: Session }>;
  /** The newest mail to an address, read from the outbox (waits for the mail job). */
  waitForMail(to: string, opts?: { after?: number; timeoutMs?: number }): Promise<{ file: string; text: string }>;
  specialtyId(): Promise<string>;
  /** A complete, valid sign-up body for a person of the sample RPPS directory. */
  signUpBody(person: (typeof SAMPLE_PEOPLE)[number], email: string, overrides?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * A real database per test file: a fresh database (created here, dropped on close) on the
 * PostgreSQL server of TEST_DATABASE_URL, or else on the run's embedded server (global-setup.ts).
 */
/** The run's template database, when Vitest runs this (global-setup.ts provides it). */
function runTemplate(): string | undefined {
  try {
    return inject('templateDatabase') || undefined;
  } catch {
    return undefined;
  }
}

async function openTestDatabase(): Promise<{ database: Database; url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL || inject('embeddedDatabaseUrl');
  const name = `sutura_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // A copy of the run's migrated database (global-setup.ts); outside Vitest (a benchmark borrowing
  // the harness) there is none, and the migrations run on the new database as the server runs them.
  const template = runTemplate();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.href });
  return {
    database,
    url: target.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      // A closed pool's connections may still be saying goodbye; forcing them out then makes the
      // server send them an error that nobody listens to any more, which fails the test run.
      for (let tries = 0; tries < 50; tries++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestContext(
  opts: {
    env?: Record<string, string>;
    workers?: boolean;
    listen?: boolean;
    serveWeb?: boolean;
    /** A second API process: its own pool on the database of this context (not dropped by this one). */
    databaseOf?: TestContext;
    /** On S3, parts of this size instead of 16 MiB (so that a small file crosses several). */
    s3PartBytes?: number;
    pushResolve?: ResolveHost;
    /** The random source of the second-review draw (docs/double-review.md). */
    random?: () => number;
    /** What the demo is still making, as the server tells it on /v1/health (demo/preparation.ts). */
    demoPreparation?: DemoPreparation;
  } = {},
): Promise<TestContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sutura-test-'));
  // TEST_STORAGE=s3: the media of this context in a real S3 server (s3rver) started for it.
  const s3 = process.env.TEST_STORAGE === 's3' && !opts.env?.S3_BUCKET ? await startS3Server() : undefined;
  const config = loadConfig({
    ...(s3
      ? {
          S3_ENDPOINT: s3.settings.endpoint!,
          S3_BUCKET: s3.settings.bucket,
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        }
      : {}),
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    LOG_LEVEL: 'silent',
    // The media tests run once more on the npm-shipped binaries (the media phase of scripts/test.ts).
    ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
    ...(process.env.FFPROBE_PATH ? { FFPROBE_PATH: process.env.FFPROBE_PATH } : {}),
    ...opts.env,
  });
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const {
    database,
    url: databaseUrl,
    drop,
  } = opts.databaseOf
    ? { database: await openDatabase({ url: opts.databaseOf.databaseUrl }), url: opts.databaseOf.databaseUrl, drop: async () => {} }
    : await openTestDatabase();
  // Local files, or the S3 server the env names (S3_*), as in production.
  const storage = createAccountedStorage(await createStorageFromConfig(config), database.db);
  const scratch = createScratchFromConfig(config);
  const queue = await createQueue(database, log);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox'), log });

  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  // Real time moves on; tests may jump ahead with advance().
  let offset = 0;
  const realClock = () => new Date(Date.now() + offset);
  clock.advance = (ms: number) => {
    offset += ms;
  };
  Object.defineProperty(clock, 'now', { get: realClock });

  const uploads =
    storage.kind === 's3' && opts.s3PartBytes
      ? createS3UploadStore({ db: database.db, storage: storage as S3Storage, log, partBytes: opts.s3PartBytes })
      : undefined;
  const { app, services, routes, hub } = await buildApp({
    config,
    database,
    storage,
    scratch,
    ...(uploads ? { uploads } : {}),
    queue,
    log,
    clock: realClock,
    serveWeb: opts.serveWeb ?? false,
    // Every JSON answer of every API test is checked against what /v1/docs says of it.
    validateResponses: true,
    ...(opts.pushResolve ? { pushResolve: opts.pushResolve } : {}),
    ...(opts.random ? { random: opts.random } : {}),
    ...(opts.demoPreparation ? { demoPreparation: opts.demoPreparation } : {}),
  });
  if (opts.workers !== false) {
    const pipeline = {
      db: database.db,
      storage,
      uploads: services.uploads,
      scratch,
      mediaService: services.mediaService,
      notifications: services.notifications,
      hub,
      config,
      log,
    };
    const preparation = { service: services.preparation, jobs: services.preparationJobs };
    await queue.startWorkers(
      createJobHandlers({
        mailer,
        pipeline,
        housekeeping: services.housekeeping,
        preparation,
        analysis: services.analysis,
        retention: services.retention,
        dataExport: services.dataExport,
        streaming: services.streaming,
      }),
    );
  }
  await services.vocabularies.seed();
  await importRppsFile(RPPS_SAMPLE_FILE, (rows) => services.rpps.upsertBatch(rows));
  if (opts.listen) await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();

  const ctx: TestContext = {
    app,
    services,
    routes,
    database,
    databaseUrl,
    storage,
    queue,
    config,
    dataDir,
    clock,
    inject({ method, url, token, body, headers }) {
      return app.inject({
        method,
        url,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
    },
    async createUser(role, overrides = {}) {
      const password = 'password123';
      const email = overrides.email ?? `${role}-${randomUUID().slice(0, 8)}@example.org`;
      const [row] = await database.db
        .insert(users)
        .values({
          email,
          passwordHash: await testPasswordHash(),
          roles: [role],
          firstName: 'Test',
          lastName: role,
          emailVerifiedAt: new Date(),
          preferences: DEFAULT_PREFERENCES,
          notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
          ...overrides,
        })
        .returning();
      const res = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password } });
      const session = res.json().data as Session;
      return { id: row!.id, email, password, token: session.token, session };
    },
    async waitForMail(to, { after = 0, timeoutMs = 15_000 } = {}) {
      const outbox = path.join(dataDir, 'outbox');
      const deadline = Date.now() + timeoutMs;
      const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      for (;;) {
        const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(`-${safeTo}.eml`)).sort();
        if (files.length > after) {
          const file = path.join(outbox, files[files.length - 1]!);
          return { file, text: await readFile(file, 'utf8') };
        }
        if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async specialtyId() {
      const [row] = await database.db.select().from(specialties).limit(1);
      return row!.id;
    },
    async signUpBody(person, email, overrides = {}) {
      return {
        rpps: person.rpps,
        lastName: person.lastName,
        firstName: person.firstName,
        country: 'France',
        city: 'Lyon',
        careCentreType: 'public',
        phone: '+33 612345678',
        yearsOfExperience: 6,
        yearsOfRoboticExperience: 2,
        robot: 'da Vinci Xi',
        specialtyId: await ctx.specialtyId(),
        preferences: { theme: 'auto', langCode: 'fr' },
        email,
        password: 'robotic2026',
        confirmPassword: 'robotic2026',
        acceptTerms: true,
        acceptPrivacy: true,
        ...overrides,
      };
    },
    async close() {
      await app.close();
      await queue.stop();
      await database.close();
      await drop();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

/** The 5-digit code of a verification or reset mail. */
export function codeFromMail(text: string): string {
  const match = /^\s{4}(\d{8})\s*$/m.exec(text);
  if (!match) throw new Error('No code in the mail');
  return match[1]!;
}
