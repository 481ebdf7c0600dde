import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Language } from '@sutura/domain/i18n';
import type { Database } from '../db/client.ts';
import type { MailTemplate } from '../modules/mail/mail-templates.ts';

/** Every job the product runs and its payload. */
export interface JobPayloads {
  'mail.send': { to: string; lang: Language; template: MailTemplate };
}
export type JobName = keyof JobPayloads;
export const JOB_NAMES: JobName[] = ['mail.send'];

export type JobHandlers = { [K in JobName]: (payload: JobPayloads[K]) => Promise<void> };

export interface Queue {
  send<K extends JobName>(name: K, payload: JobPayloads[K]): Promise<void>;
  startWorkers(handlers: JobHandlers): Promise<void>;
  stop(): Promise<void>;
}

/** pg-boss on the product's database: the embedded connection, or its own pool on a server. */
export async function createQueue(database: Database, log: Logger): Promise<Queue> {
  const boss = database.bossDb
    ? new PgBoss({ db: database.bossDb, backend: 'pglite', schema: 'pgboss' })
    : new PgBoss({ connectionString: database.url!, schema: 'pgboss', max: 4 });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  for (const name of JOB_NAMES) {
    await boss.createQueue(name, { retryLimit: 5, retryDelay: 5, retryBackoff: true });
  }
  return {
    async send(name, payload) {
      await boss.send(name, payload as object);
    },
    async startWorkers(handlers) {
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (payload: unknown) => Promise<void>;
        await boss.work(name, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) await handler(job.data);
        });
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}
