import path from 'node:path';
import pino from 'pino';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createQueue } from './jobs/queue.ts';
import { createJobHandlers } from './jobs/workers.ts';
import { createMailer } from './modules/mail/mailer.ts';
import { createLocalStorage } from './storage/storage.ts';
import { buildApp } from './app.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seed } from './seed.ts';

const config = loadConfig();
const log = pino({ level: config.logLevel });

const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') });
const storage = createLocalStorage(path.join(config.dataDir, 'media'));
const queue = await createQueue(database, log);
const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'outbox'), log });

const closers: (() => Promise<void>)[] = [];

if (config.workers !== 'off') await queue.startWorkers(createJobHandlers({ mailer }));
closers.push(() => queue.stop());

if (config.workers !== 'only') {
  const { app, services } = await buildApp({ config, database, storage, queue, log });
  const { createdDemo } = await seed({
    db: database.db,
    vocabularies: services.vocabularies,
    rpps: services.rpps,
    demoData: config.demoData,
    log,
  });
  await app.listen({ port: config.port, host: config.host });
  closers.unshift(() => app.close());
  const lines = [`Sutura is running at ${config.publicUrl}`];
  if (createdDemo) {
    lines.push('Demo accounts (password for all: ' + DEMO_PASSWORD + '):');
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.role.padEnd(13)} ${a.email}`);
  }
  if (!config.smtpUrl) lines.push(`Mail is written to ${path.join(config.dataDir, 'outbox')}`);
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
} else {
  log.info('worker process started');
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
