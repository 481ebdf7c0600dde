import { PgBoss, type QueueOptions } from 'pg-boss';
import type { Logger } from 'pino';
import { LEASE_SWEEP_CRON } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { Database } from '../db/client.ts';
import type { MailTemplate } from '../modules/mail/mail-templates.ts';

/** Every job the product runs and its payload. */
export interface JobPayloads {
  'mail.send': { to: string; lang: Language; template: MailTemplate };
  /** Probe, remux or transcode an uploaded video, then poster and storyboard (media-pipeline). */
  'video.process': { videoId: string };
  /** Warn about, then remove, unfinished uploads that receive nothing (hourly). */
  'uploads.expire': Record<string, never>;
  /** Remove files that no row names (daily). */
  'storage.sweep': Record<string, never>;
  /** Scene changes, dark and washed-out stretches of a source sent for preparation. */
  'preparation.suggest': { videoId: string };
  /** Joins the kept ranges of a submitted preparation; `attempt` names the submit it renders. */
  'preparation.render': { videoId: string; attempt: number };
  /** Periodic: leases of the workflow stages that ran out go back to their pools. */
  'claims.sweep': Record<string, never>;
}
export type JobName = keyof JobPayloads;
export const JOB_NAMES: JobName[] = [
  'mail.send',
  'video.process',
  'uploads.expire',
  'storage.sweep',
  'preparation.suggest',
  'preparation.render',
  'claims.sweep',
];

/** Retries of every queue, and what differs per job. */
const QUEUE_OPTIONS: Record<JobName, QueueOptions> = {
  'mail.send': { retryLimit: 5, retryDelay: 5, retryBackoff: true },
  // A transcode of hours of surgery outlasts pg-boss's 15-minute default; the heartbeat still
  // hands the job to another worker within a minute when its process dies.
  'video.process': { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 24 * 3600, heartbeatSeconds: 60 },
  'uploads.expire': { retryLimit: 1, retryDelay: 60, expireInSeconds: 3600 },
  'storage.sweep': { retryLimit: 1, retryDelay: 300, expireInSeconds: 6 * 3600 },
  'preparation.suggest': { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 6 * 3600, heartbeatSeconds: 60 },
  // A render that dies with its process is handed to another worker by the heartbeat; the
  // handler is idempotent and records its result once (see modules/preparation/preparation.jobs.ts).
  'preparation.render': { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 12 * 3600, heartbeatSeconds: 60 },
  'claims.sweep': { retryLimit: 0, expireInSeconds: 300 },
};
/** The periodic jobs and their cron, UTC (pg-boss keeps one schedule per name, whatever the processes). */
const SCHEDULES: Partial<Record<JobName, string>> = {
  'uploads.expire': '7 * * * *',
  'storage.sweep': '17 3 * * *',
  'claims.sweep': LEASE_SWEEP_CRON,
};

/** What a handler knows about the attempt it runs: the last one may record a final failure. */
export interface JobAttempt {
  retryCount: number;
  lastAttempt: boolean;
  /** Aborted when the queue stops. */
  signal: AbortSignal;
}
export type JobHandlers = { [K in JobName]: (payload: JobPayloads[K], attempt: JobAttempt) => Promise<void> };

export interface Queue {
  send<K extends JobName>(name: K, payload: JobPayloads[K]): Promise<void>;
  startWorkers(handlers: JobHandlers): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the product's database, with its own small pool. A process that runs no jobs
 * (`maintain: false`, WORKERS=off) only sends: the processes running the jobs keep the schedules
 * and the queue's upkeep, and this one loads none of the cron machinery (nor its time zone data).
 */
export async function createQueue(database: Database, log: Logger, opts: { maintain?: boolean } = {}): Promise<Queue> {
  const maintain = opts.maintain ?? true;
  const boss = new PgBoss({
    connectionString: database.url,
    schema: 'pgboss',
    max: 4,
    ...(maintain ? {} : { supervise: false, schedule: false }),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  for (const name of JOB_NAMES) {
    await boss.createQueue(name, QUEUE_OPTIONS[name]);
  }
  if (maintain) for (const [name, cron] of Object.entries(SCHEDULES)) await boss.schedule(name, cron, {});
  return {
    async send(name, payload) {
      await boss.send(name, payload as object);
    },
    async startWorkers(handlers) {
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (payload: unknown, attempt: JobAttempt) => Promise<void>;
        const retryLimit = QUEUE_OPTIONS[name].retryLimit ?? 0;
        await boss.work(name, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) {
            await handler(job.data, { retryCount: job.retryCount, lastAttempt: job.retryCount >= retryLimit, signal: job.signal });
          }
        });
      }
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}
