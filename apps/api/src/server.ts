import path from 'node:path';
import pino from 'pino';
import { missingLegalSettings } from '@sutura/domain/legal';
import { ConfigError, loadConfig } from './config.ts';
import { beginEmbeddedServer, EmbeddedDatabaseError, embeddedUrl } from './db/embedded-server.ts';
import { ffmpegCapabilities, type FfmpegCapabilities } from './media-pipeline/ffmpeg.ts';
import { releaseStartupMemory } from './memory.ts';
import type { Services } from './app.ts';
import type { RealtimeHub } from './modules/notifications/notifications.service.ts';

/** Stops with the reason alone when the operator has something to fix. */
function fail(err: unknown): never {
  if (err instanceof ConfigError || err instanceof EmbeddedDatabaseError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    return fail(err);
  }
})();
// JSON lines; under a request or a job, each carries its requestId (and jobId): the request id
// that started a job follows it into the worker's lines (the queue's module, loaded below, says which).
const logContext: { of?: () => object } = {};
const log = pino({ level: config.logLevel, mixin: () => logContext.of?.() ?? {} });
const phases: Record<string, number> = {};
const phase = (name: string) => (phases[name] = Math.round(performance.now()));

/** Run together at shutdown: what takes work in (HTTP, the queue), given the grace to finish. */
const stoppers: (() => Promise<void>)[] = [];
/** Then one after the other: what that work needed. */
const closers: (() => Promise<void>)[] = [];
let closing = false;
const onFatal = (err: Error) => {
  process.stderr.write(`${err.message}\n`);
  void shutdown('database', 1);
};
// PostgreSQL and ffmpeg's checks (when needed) run in processes of their own: they start before
// the rest of the server loads, and the loading (this process's work) goes on meanwhile.
const dbDir = path.join(config.dataDir, 'db');
const embedded = (() => {
  try {
    return config.databaseUrl ? undefined : beginEmbeddedServer({ dir: dbDir, log, onFatal });
  } catch (err) {
    return fail(err);
  }
})();
embedded?.started.then(() => phase('postgres')).catch(() => {});
// ffmpeg's capabilities are detected once per binary: a restart reads what the last start found.
const mediaToolsChecked = ffmpegCapabilities({
  ffmpegPath: config.ffmpegPath,
  ffprobePath: config.ffprobePath,
  rememberIn: path.join(config.dataDir, 'ffmpeg-capabilities.json'),
});
const starting = Promise.all([
  import('./db/client.ts'),
  import('./jobs/queue.ts'),
  import('./modules/mail/mailer.ts'),
  import('./storage/select.ts'),
  import('./metrics.ts'),
]);
// The routes, the workers and the socket server load, and the app is built, while PostgreSQL
// starts and the database is opened and checked (this process has nothing else to do meanwhile):
// the start-up is then the longer of the two, not their sum.
const serving = Promise.all([
  import('./app.ts'),
  import('./jobs/workers.ts'),
  import('./realtime/socket.ts'),
  import('./demo/seed.ts'),
  import('./demo/preparation.ts'),
]);
serving.then(() => phase('loaded')).catch(() => {});
const [
  { databaseAt, migrateDatabase },
  { unstartedQueue, logContext: jobLogContext },
  { createMailer },
  { createAccountedStorage, createScratchFromConfig, createStorageFromConfig, storageLine },
  { createMetrics, listenMetrics },
] = await starting;
logContext.of = jobLogContext;
// The pool and drizzle exist before PostgreSQL answers (nothing connects until the first query):
// the services and the routes are made meanwhile, and nothing is served before it is open.
const database = databaseAt(
  config.databaseUrl ?? embeddedUrl(embedded!.connection),
  config.databaseUrl ? 'postgres' : 'embedded',
  config.databaseUrl ? undefined : dbDir,
  async () => (await embedded?.started)?.stop(),
);
const databaseOpened = (async () => {
  const server = await embedded?.started;
  await migrateDatabase(database).catch(async (err: unknown) => {
    await database.pool.end();
    await server?.stop();
    throw err;
  });
  // The months and days of the statistics are grouped by PostgreSQL: it must know the zone too.
  await database.pool.query('SELECT now() AT TIME ZONE $1', [config.timeZone]).catch(async () => {
    await database.close();
    fail(new ConfigError(`Invalid configuration:\n  TIME_ZONE: ${config.timeZone} is unknown to the PostgreSQL server`));
  });
  phase('database');
})().catch(fail);
// Recorded only where something can read them (METRICS_TOKEN or METRICS_PORT).
const metrics = createMetrics({ pool: database.pool, enabled: config.metricsToken !== undefined || config.metricsPort !== undefined });
// The queue's tables (a schema of their own) are checked as soon as PostgreSQL answers, beside
// the migrations' check, while the app is built.
const queue = unstartedQueue(database, log, metrics, {
  heartbeatSeconds: config.jobHeartbeatSeconds,
  maintain: config.workers !== 'off',
});
const queueStarted = Promise.all([embedded?.started]).then(() => queue.start());
queueStarted.catch(() => {});
const [{ buildApp, createServices }, { createJobHandlers }, { createRealtimeEmitter }, seeding, { createDemoPreparation }] = await serving;
const storage = createAccountedStorage(await createStorageFromConfig(config), database.db);
const scratch = createScratchFromConfig(config);
await scratch.sweep();
let draining = false;
phase('modules');
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log });

/** The operator's line about the media pipeline: which ffmpeg, from where, or what is missing. */
function mediaLine(caps: FfmpegCapabilities): string {
  const from = { env: 'FFMPEG_PATH', system: 'system', npm: 'npm package', missing: 'not found' } as const;
  const tool = (t: FfmpegCapabilities['ffmpeg']) => `${t.version ?? '?'} (${from[t.origin]}, ${t.path})`;
  if (!caps.usable) return `Media pipeline UNUSABLE: ${caps.problems.join('; ')}. Install ffmpeg or set FFMPEG_PATH and FFPROBE_PATH.`;
  return `Media: ffmpeg ${tool(caps.ffmpeg)}, ffprobe ${tool(caps.ffprobe)}`;
}
const mediaTools = await mediaToolsChecked;
if (!mediaTools.usable) log.error({ problems: mediaTools.problems }, 'media pipeline unusable');

stoppers.push(() => queue.stop(config.shutdownGraceSeconds));
let services: Services;
let hub: RealtimeHub;

if (config.workers !== 'only') {
  const demoPreparation = createDemoPreparation();
  const built = await buildApp({
    config,
    database,
    databaseOpened,
    storage,
    scratch,
    queue,
    log,
    metrics,
    draining: () => draining,
    demoPreparation,
  });
  const { app, realtime } = built;
  services = built.services;
  hub = built.hub;
  phase('app');
  const { createdDemo } = await seeding.seed({
    db: database.db,
    vocabularies: services.vocabularies,
    rpps: services.rpps,
    demoData: config.demoData,
    log,
  });
  phase('seed');
  // Begun before the server answers: its first page already says that the demo is being prepared.
  const demoVideosPart = createdDemo && config.demoVideos ? demoPreparation.begin() : undefined;
  const demoHistoryPart =
    config.demoData && config.demoVideos && (await seeding.demoHistoryWanted(database.db)) ? demoPreparation.begin() : undefined;
  // What start-up left is given back once it has settled (below), not before the first answer.
  await app.listen({ port: config.port, host: config.host });
  phase('listening');
  log.debug({ phases }, 'started (milliseconds since the process began)');
  // On shutdown: sockets are closed first so that clients reconnect to another process, then the
  // server takes no new connection and lets the requests under way finish, within the grace.
  stoppers.push(async () => {
    realtime.drain();
    await withinGrace(app.close(), 'HTTP requests under way');
  });
  const lines = [`Sutura is running at ${config.publicUrl}`, mediaLine(mediaTools), storageLine(storage, scratch)];
  if (createdDemo) {
    lines.push('Demo accounts (password for all: ' + seeding.DEMO_PASSWORD + '):');
    for (const a of seeding.DEMO_ACCOUNTS) lines.push(`  ${a.role.padEnd(13)} ${a.email}`);
  }
  if (!config.smtpUrl) lines.push(`Mail is written to ${path.join(config.dataDir, 'outbox')}`);
  if (createdDemo && config.demoVideos) lines.push('Demo videos are being generated in the background; they appear in a few minutes.');
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
  const missingLegal = missingLegalSettings(config.legal);
  if (missingLegal.length) {
    log.warn(
      { missing: missingLegal },
      `the legal notice, general conditions and privacy policy lack these settings: ${missingLegal.join(', ')}`,
    );
  }
  // The demo's generators load only when they have something to do, after the server answers.
  if (demoVideosPart) {
    // The cases count for most of the part; the analysis and the best cases that follow, the rest.
    const after = 3;
    Promise.all([import('./demo/videos.ts'), import('./demo/analysis.ts'), import('./demo/best-cases.ts')])
      .then(async ([{ seedDemoVideos }, { seedDemoAnalysis }, { seedDemoBestCase, seedDemoReferenceBestCase }]) => {
        let total = 1;
        const durations = await seedDemoVideos({
          db: database.db,
          queue,
          mediaService: services.mediaService,
          storage,
          scratch,
          log,
          onProgress: (done, of) => demoVideosPart.progress(done, (total = of) + after),
        });
        await seedDemoAnalysis({ db: database.db, voice: services.voice, scratch, log, durations, ffmpegPath: config.ffmpegPath });
        demoVideosPart.progress(total + 1, total + after);
        await seedDemoBestCase({ db: database.db, log, videoIds: [...durations.keys()] });
        demoVideosPart.progress(total + 2, total + after);
        await seedDemoReferenceBestCase({ db: database.db, queue, storage, scratch, log });
      })
      .finally(() => demoVideosPart.end())
      .catch((err: unknown) => log.error({ err }, 'demo videos could not be generated'));
  }
  // Months of analysed cases for the statistics, once (its own marker), beside the demo videos.
  if (config.demoData && config.demoVideos) {
    import('./demo/history.ts')
      .then(({ seedDemoHistory }) =>
        seedDemoHistory({
          db: database.db,
          storage,
          scratch,
          log,
          ffmpegPath: config.ffmpegPath,
          timeZone: config.timeZone,
          ...(demoHistoryPart ? { onProgress: (done: number, of: number) => demoHistoryPart.progress(done, of) } : {}),
        }),
      )
      .finally(() => demoHistoryPart?.end())
      .catch((err: unknown) => log.error({ err }, 'demo history could not be generated'));
  }
} else {
  await queueStarted;
  // No socket server here: pushes go through the PostgreSQL adapter to the HTTP processes.
  const emitter = await createRealtimeEmitter(database.pool);
  closers.push(emitter.close);
  hub = emitter.hub;
  services = createServices({ config, database, storage, scratch, queue, log }, emitter.hub);
  releaseStartupMemory();
  log.info({ media: mediaLine(mediaTools) }, 'worker process started');
}

// The queue's start (its schema's check, its queues and schedules) ends here if not before: what the
// first requests send waits for it, and a queue that cannot start stops the process as it did.
await queueStarted;
if (config.workers !== 'off') {
  const { mediaService, notifications } = services;
  const pipeline = { db: database.db, storage, uploads: services.uploads, scratch, mediaService, notifications, hub, config, log };
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
  // The ladders of the videos of before (an upgrade, STREAMING turned on), newest first.
  if (config.streaming.enabled) await queue.send('streaming.backfill', {}, { singletonKey: 'backfill' });
}
closers.push(() => database.close());
// Once start-up has settled (the first polls of the queue, the sockets, the demo's checks), what it
// left is given back too: the idle process then holds only what serving needs.
setTimeout(releaseStartupMemory, 3000).unref();

if (config.metricsPort !== undefined) {
  const server = await listenMetrics(metrics, config.metricsPort, config.metricsHost);
  const address = server.address();
  log.info({ metrics: typeof address === 'object' && address ? `${address.address}:${address.port}` : address }, 'metrics listener');
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** Waits for `work` at most the shutdown grace; what is left is cut when the process exits. */
async function withinGrace(work: Promise<unknown>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.warn({ graceSeconds: config.shutdownGraceSeconds }, `shutdown: ${what} did not finish in time`);
      resolve();
    }, config.shutdownGraceSeconds * 1000);
  });
  await Promise.race([work, late]);
  clearTimeout(timer);
}

async function shutdown(signal: string, code = 0) {
  if (closing) return;
  closing = true;
  draining = true;
  log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down');
  const failed = (err: unknown) => log.error({ err }, 'error while closing');
  await Promise.all(stoppers.map((stop) => stop().catch(failed)));
  for (const close of closers) await close().catch(failed);
  log.info({ signal }, 'stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
