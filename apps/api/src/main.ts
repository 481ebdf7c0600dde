import path from 'node:path';
import pino from 'pino';
import { missingLegalSettings } from '@sutura/domain/legal';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { EmbeddedDatabaseError } from './db/embedded-server.ts';
import { createQueue } from './jobs/queue.ts';
import { createJobHandlers } from './jobs/workers.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { createLocalStorage } from './storage/storage.ts';
import { releaseStartupMemory } from './memory.ts';
import { buildApp, createServices, type Services } from './app.ts';
import type { RealtimeHub } from './modules/notifications/notifications.service.ts';
import { createRealtimeEmitter } from './realtime/socket.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './seed.ts';
import { seedDemoAnalysis } from './demo-analysis.ts';
import { seedDemoBestCase } from './demo-best-cases.ts';
import { seedDemoHistory } from './demo-history.ts';
import { seedDemoVideos } from './demo-videos.ts';
import { ffmpegCapabilities, type FfmpegCapabilities } from './media-pipeline/ffmpeg.ts';

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
const log = pino({ level: config.logLevel });

const closers: (() => Promise<void>)[] = [];
let closing = false;
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'db'),
  log,
  onFatal: (err) => {
    process.stderr.write(`${err.message}\n`);
    void shutdown('database', 1);
  },
}).catch(fail);
// The months and days of the statistics are grouped by PostgreSQL: it must know the zone too.
await database.pool.query('SELECT now() AT TIME ZONE $1', [config.timeZone]).catch(async () => {
  await database.close();
  fail(new ConfigError(`Invalid configuration:\n  TIME_ZONE: ${config.timeZone} is unknown to the PostgreSQL server`));
});
const storage = createLocalStorage(path.join(config.dataDir, 'media'));
const queue = await createQueue(database, log);
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log });

/** The operator's line about the media pipeline: which ffmpeg, from where, or what is missing. */
function mediaLine(caps: FfmpegCapabilities): string {
  const from = { env: 'FFMPEG_PATH', system: 'system', npm: 'npm package', missing: 'not found' } as const;
  const tool = (t: FfmpegCapabilities['ffmpeg']) => `${t.version ?? '?'} (${from[t.origin]}, ${t.path})`;
  if (!caps.usable) return `Media pipeline UNUSABLE: ${caps.problems.join('; ')}. Install ffmpeg or set FFMPEG_PATH and FFPROBE_PATH.`;
  return `Media: ffmpeg ${tool(caps.ffmpeg)}, ffprobe ${tool(caps.ffprobe)}`;
}
const mediaTools = await ffmpegCapabilities({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath });
if (!mediaTools.usable) log.error({ problems: mediaTools.problems }, 'media pipeline unusable');

closers.push(() => queue.stop());
let services: Services;
let hub: RealtimeHub;

if (config.workers !== 'only') {
  const built = await buildApp({ config, database, storage, queue, log });
  const { app } = built;
  services = built.services;
  hub = built.hub;
  const { createdDemo } = await seed({
    db: database.db,
    vocabularies: services.vocabularies,
    rpps: services.rpps,
    demoData: config.demoData,
    log,
  });
  releaseStartupMemory();
  await app.listen({ port: config.port, host: config.host });
  closers.unshift(() => app.close());
  const lines = [`Sutura is running at ${config.publicUrl}`, mediaLine(mediaTools)];
  if (createdDemo) {
    lines.push('Demo accounts (password for all: ' + DEMO_PASSWORD + '):');
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.role.padEnd(13)} ${a.email}`);
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
  if (createdDemo && config.demoVideos) {
    seedDemoVideos({ db: database.db, queue, mediaService: services.mediaService, dataDir: config.dataDir, log })
      .then(async (durations) => {
        await seedDemoAnalysis({ db: database.db, voice: services.voice, log, durations, ffmpegPath: config.ffmpegPath });
        await seedDemoBestCase({ db: database.db, log, videoIds: [...durations.keys()] });
      })
      .catch((err: unknown) => log.error({ err }, 'demo videos could not be generated'));
  }
  // Months of analysed cases for the statistics, once (its own marker), beside the demo videos.
  if (config.demoData && config.demoVideos) {
    seedDemoHistory({ db: database.db, storage, log, ffmpegPath: config.ffmpegPath }).catch((err: unknown) =>
      log.error({ err }, 'demo history could not be generated'),
    );
  }
} else {
  // No socket server here: pushes go through the PostgreSQL adapter to the HTTP processes.
  const emitter = await createRealtimeEmitter(database.pool);
  closers.push(emitter.close);
  hub = emitter.hub;
  services = createServices({ config, database, storage, queue, log }, emitter.hub);
  releaseStartupMemory();
  log.info({ media: mediaLine(mediaTools) }, 'worker process started');
}

if (config.workers !== 'off') {
  const { mediaService, notifications } = services;
  const pipeline = { db: database.db, storage, mediaService, notifications, hub, config, log };
  const preparation = { service: services.preparation, jobs: services.preparationJobs };
  await queue.startWorkers(
    createJobHandlers({ mailer, pipeline, housekeeping: services.housekeeping, preparation, analysis: services.analysis }),
  );
}
closers.push(() => database.close());

async function shutdown(signal: string, code = 0) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  for (const close of closers) await close().catch((err: unknown) => log.error({ err }, 'error while closing'));
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
