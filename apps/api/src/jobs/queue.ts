import { AsyncLocalStorage } from 'node:async_hooks';
import { PgBoss, type Db as BossDb, type QueueOptions as BossQueueOptions, type QueuePolicy } from 'pg-boss';
import type pg from 'pg';
import type { Logger } from 'pino';
import { LEASE_SWEEP_CRON } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { Database } from '../db/client.ts';
import type { MailTemplate } from '../modules/mail/mail-templates.ts';
import type { Metrics } from '../metrics.ts';

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
  /** The retention rules, in batches (daily; docs/data-lifecycle.md). */
  'retention.apply': Record<string, never>;
  /** A person's copy of their data: one ZIP streamed into the store (modules/data-export). */
  'data-export.build': { exportId: string };
  /** Hourly: copies of data past their seven days lose their ZIP. */
  'data-export.expire': Record<string, never>;
  /** The HLS ladder of the video's current playable file (media-pipeline/ladder.ts). */
  'video.ladder': { videoId: string };
  /** Hourly and at start: a ladder job for every ready video without one, newest first. */
  'streaming.backfill': Record<string, never>;
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
  'retention.apply',
  'data-export.build',
  'data-export.expire',
  'video.ladder',
  'streaming.backfill',
];

const DEFAULT_HEARTBEAT_SECONDS = 60;

type QueueOptions = BossQueueOptions & { policy?: QueuePolicy };

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
  // A run stopped half-way is taken up by the next one, which finds what is left.
  'retention.apply': { retryLimit: 2, retryDelay: 600, expireInSeconds: 6 * 3600 },
  // Tens of GB read and written once: hours at worst; a dead process hands it on by the heartbeat.
  'data-export.build': { retryLimit: 2, retryDelay: 60, retryBackoff: true, expireInSeconds: 12 * 3600, heartbeatSeconds: 60 },
  'data-export.expire': { retryLimit: 1, retryDelay: 300, expireInSeconds: 3600 },
  // One waiting or running job per video (its id is the key): a backfill never queues a second one.
  // A worker that dies hands the job over by the heartbeat; the rungs already stored are kept.
  'video.ladder': {
    policy: 'exclusive',
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 24 * 3600,
    heartbeatSeconds: 60,
  },
  'streaming.backfill': { policy: 'exclusive', retryLimit: 1, retryDelay: 300, expireInSeconds: 3600 },
};
/** The periodic jobs and their cron, UTC (pg-boss keeps one schedule per name, whatever the processes). */
const SCHEDULES: Partial<Record<JobName, string>> = {
  'uploads.expire': '7 * * * *',
  'storage.sweep': '17 3 * * *',
  'claims.sweep': LEASE_SWEEP_CRON,
  'retention.apply': '37 2 * * *',
  'data-export.expire': '27 * * * *',
  'streaming.backfill': '41 * * * *',
};

/** What a handler knows about the attempt it runs: the last one may record a final failure. */
export interface JobAttempt {
  retryCount: number;
  lastAttempt: boolean;
  /** Aborted when the queue stops. */
  signal: AbortSignal;
}
export type JobHandlers = { [K in JobName]: (payload: JobPayloads[K], attempt: JobAttempt) => Promise<void> };

/**
 * Where a piece of work comes from: the request (or the job) that is running. Log lines written
 * under it carry its ids, and a job it enqueues carries its request id on (see `logContext`).
 */
export interface WorkContext {
  requestId?: string;
  jobId?: string;
  job?: string;
}
export const workContext = new AsyncLocalStorage<WorkContext>();

/** For pino's `mixin`: the ids of the request or job a log line is written under. */
export function logContext(): WorkContext {
  return workContext.getStore() ?? {};
}

/**
 * A drizzle transaction (or anything that wraps one pg client): the job is inserted by the same
 * client, so it exists if and only if the caller's transaction commits.
 */
export type JobTransaction = object;

function transactionClient(tx: JobTransaction): BossDb {
  // drizzle's node-postgres transaction keeps the pool client it runs on in its session.
  const client = (tx as { session?: { client?: pg.PoolClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('queue.send: not a drizzle node-postgres transaction');
  return { executeSql: (text, values) => client.query(text, values) };
}

export interface SendOptions {
  /** Enqueue within this transaction (the state change that makes the job needed). */
  tx?: JobTransaction;
  /** At most one waiting or running job of this key (queues with the `exclusive` policy). */
  singletonKey?: string;
  /** Taken before the jobs of a lower priority (default 0), oldest first within one. */
  priority?: number;
}

export interface Queue {
  send<K extends JobName>(name: K, payload: JobPayloads[K], options?: SendOptions): Promise<void>;
  startWorkers(handlers: JobHandlers): Promise<void>;
  /** Whether the queue's tables answer (for the readiness check). */
  ready(): Promise<boolean>;
  /**
   * Takes no new job; the running ones get `graceSeconds` to finish, then are aborted and go
   * back to the queue (retried by another worker, or by this one after its restart).
   */
  stop(graceSeconds?: number): Promise<void>;
}

interface QueueSettings {
  /** How soon a long job whose process died goes back to the queue (JOB_HEARTBEAT_SECONDS). */
  heartbeatSeconds?: number;
  maintain?: boolean;
}

/**
 * pg-boss on the product's database, with its own small pool. A process that runs no jobs
 * (`maintain: false`, WORKERS=off) only sends: the processes running the jobs keep the schedules
 * and the queue's upkeep, and this one loads none of the cron machinery (nor its time zone data).
 */
export async function createQueue(database: Database, log: Logger, metrics?: Metrics, opts: QueueSettings = {}): Promise<Queue> {
  const queue = unstartedQueue(database, log, metrics, opts);
  await queue.start();
  return queue;
}

/**
 * `createQueue` before it connects: the server hands it to the services while the database
 * starts, and calls `start` once the database answers. What is sent meanwhile waits for it.
 */
export function unstartedQueue(
  database: Database,
  log: Logger,
  metrics?: Metrics,
  opts: QueueSettings = {},
): Queue & { start(): Promise<void> } {
  const heartbeat = opts.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS;
  const maintain = opts.maintain ?? true;
  const boss = new PgBoss({
    connectionString: database.url,
    schema: 'pgboss',
    max: 4,
    // The sweep that hands a silent job to another worker runs at least once per heartbeat.
    superviseIntervalSeconds: Math.min(60, heartbeat),
    monitorIntervalSeconds: Math.min(60, heartbeat),
    ...(maintain ? {} : { supervise: false, schedule: false }),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  let started: Promise<void> | undefined;
  const start = () => (started ??= connect());
  async function connect() {
    await boss.start();
    // What the database already has, read once: at an ordinary restart every queue and schedule is
    // there as wanted, and nothing more is written (two statements per queue, one per schedule,
    // one after the other, were most of the queue's share of the start-up).
    const queues = new Map((await boss.getQueues()).map((q) => [q.name, q as unknown as Record<string, unknown>]));
    for (const name of JOB_NAMES) {
      const options = QUEUE_OPTIONS[name].heartbeatSeconds ? { ...QUEUE_OPTIONS[name], heartbeatSeconds: heartbeat } : QUEUE_OPTIONS[name];
      const known = queues.get(name);
      if (!known) {
        await boss.createQueue(name, options);
        continue;
      }
      // A queue made by an earlier version or setting takes the options of now (its policy stays).
      const { policy: _policy, ...changeable } = options;
      if (Object.entries(changeable).some(([key, value]) => known[key] !== value)) await boss.updateQueue(name, changeable);
    }
    if (maintain) {
      const schedules = new Map((await boss.getSchedules()).map((s) => [s.name, s.cron]));
      for (const [name, cron] of Object.entries(SCHEDULES)) if (schedules.get(name) !== cron) await boss.schedule(name, cron, {});
    }
  }
  return {
    start,
    async send(name, payload, options = {}) {
      await started;
      const requestId = workContext.getStore()?.requestId;
      const data = requestId ? { ...payload, requestId } : payload;
      await boss.send(name, data as object, {
        ...(options.tx ? { db: transactionClient(options.tx) } : {}),
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
      });
    },
    async startWorkers(handlers) {
      for (const name of JOB_NAMES) {
        const handler = handlers[name] as (payload: unknown, attempt: JobAttempt) => Promise<void>;
        const retryLimit = QUEUE_OPTIONS[name].retryLimit ?? 0;
        await boss.work(name, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) {
            const { requestId } = job.data as { requestId?: string };
            const context: WorkContext = { jobId: job.id, job: name, ...(requestId ? { requestId } : {}) };
            const end = metrics?.jobDuration.startTimer({ kind: name });
            try {
              await workContext.run(context, () =>
                handler(job.data, { retryCount: job.retryCount, lastAttempt: job.retryCount >= retryLimit, signal: job.signal }),
              );
              end?.({ outcome: 'completed' });
            } catch (err) {
              end?.({ outcome: 'failed' });
              log.warn({ err, job: name, jobId: job.id, requestId: context.requestId, retryCount: job.retryCount }, 'job failed');
              throw err;
            }
          }
        });
      }
    },
    async ready() {
      return boss.isInstalled().catch(() => false);
    },
    async stop(graceSeconds = 5) {
      await boss.stop({ graceful: true, timeout: graceSeconds * 1000 });
    },
  };
}
