import path from 'node:path';
import pino from 'pino';
import { missingLegalSettings } from '@sutura/domain/legal';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseLockedError, openDatabase } from './db/client.ts';
import { createQueue } from './jobs/queue.ts';
import { createJobHandlers } from './jobs/workers.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { createLocalStorage } from './storage/storage.ts';
import { releaseStartupMemory } from './memory.ts';
import { buildApp, createServices, type Services } from './app.ts';
import type { RealtimeHub } from './modules/notifications/notifications.service.ts';
import { createRealtimeEmitter } from './realtime/socket.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './seed.ts';
import { seedDemoVideos } from './demo-videos.ts';

/** Stops with the reason alone when the operator has something to fix. */
function fail(err: unknown): never {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError) {
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

const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') }).catch(fail);
const storage = createLocalStorage(path.join(config.dataDir, 'media'));
const queue = await createQueue(database, log);
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log });

const closers: (() => Promise<void>)[] = [];

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
  const lines = [`Sutura is running at ${config.publicUrl}`];
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
    seedDemoVideos({ db: database.db, queue, mediaService: services.mediaService, dataDir: config.dataDir, log }).catch((err: unknown) =>
      log.error({ err }, 'demo videos could not be generated'),
    );
  }
} else {
  // No socket server here: pushes go through the PostgreSQL adapter to the HTTP processes.
  // On the embedded database there is no other process, hence nobody to push to.
  const emitter = database.pool ? await createRealtimeEmitter(database.pool) : undefined;
  if (emitter) closers.push(emitter.close);
  hub = emitter?.hub ?? { emitToUser: () => {} };
  services = createServices({ config, database, storage, queue, log }, hub);
  releaseStartupMemory();
  log.info('worker process started');
}

if (config.workers !== 'off') {
  const { mediaService, notifications } = services;
  const pipeline = { db: database.db, storage, mediaService, notifications, hub, config, log };
  await queue.startWorkers(createJobHandlers({ mailer, pipeline }));
}
closers.push(() => database.close());

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  for (const close of closers) await close().catch((err: unknown) => log.error({ err }, 'error while closing'));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
