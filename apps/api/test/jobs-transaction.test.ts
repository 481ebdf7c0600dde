// @database-server: jobs enqueued in the caller's transaction (pg-boss's own SQL and tables, a trigger on them)
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../src/db/schema.ts';
import { createQueue } from '../src/jobs/queue.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

/**
 * A job that a state change makes needed is enqueued in the transaction of that change: it
 * exists if and only if the change was committed, so no crash between the two can leave a case
 * waiting for a job that nobody will run.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

async function jobsFor(name: string, videoId: string) {
  const { rows } = await ctx.database.pool.query<{ state: string; data: { videoId: string; requestId?: string } }>(
    `select state::text, data from pgboss.job where name = $1 and data->>'videoId' = $2`,
    [name, videoId],
  );
  return rows;
}

describe('jobs enqueued in the caller’s transaction', () => {
  it('exists when the transaction commits, and never when it rolls back', async () => {
    const videoId = crypto.randomUUID();
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await ctx.queue.send('video.process', { videoId }, { tx });
        throw new Error('the process died before the commit');
      }),
    ).rejects.toThrow('died');
    expect(await jobsFor('video.process', videoId)).toEqual([]);

    await ctx.database.db.transaction(async (tx) => {
      await ctx.queue.send('video.process', { videoId }, { tx });
      // Not visible outside the transaction before it commits.
      expect(await jobsFor('video.process', videoId)).toEqual([]);
    });
    expect(await jobsFor('video.process', videoId)).toMatchObject([{ state: 'created' }]);
  });

  it('moves a finished upload to processing together with its job, or leaves it uploading with none', async () => {
    const learner = await ctx.createUser('learner');
    const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: learner.token, body: await videoForm(ctx) });
    const videoId = created.json().data.id as string;
    const uploadId = crypto.randomUUID();
    await ctx.database.db.update(videos).set({ uploadId, mediaStatus: 'uploading' }).where(eq(videos.id, videoId));

    // The job cannot be written (its queue's table refuses it for a moment): the status change is undone with it.
    const { rows } = await ctx.database.pool.query<{ t: string }>(`select table_name as t from pgboss.queue where name = 'video.process'`);
    const table = `pgboss.${rows[0]!.t}`;
    await ctx.database.pool.query(`create or replace function pg_temp_refuse() returns trigger language plpgsql as $$
      begin raise exception 'the queue is out of reach'; end $$`);
    await ctx.database.pool.query(`create trigger refuse_jobs before insert on ${table} for each row execute function pg_temp_refuse()`);
    try {
      await expect(ctx.services.videos.uploadFinished(uploadId, 1234)).rejects.toThrow();
    } finally {
      await ctx.database.pool.query(`drop trigger refuse_jobs on ${table}`);
    }
    const [still] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(still).toMatchObject({ mediaStatus: 'uploading', sourceKey: null });
    expect(await jobsFor('video.process', videoId)).toEqual([]);

    // The client repeats its last request: both happen, once.
    await ctx.services.videos.uploadFinished(uploadId, 1234);
    await ctx.services.videos.uploadFinished(uploadId, 1234);
    const [processing] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(processing).toMatchObject({ mediaStatus: 'processing', sourceSize: 1234 });
    expect(await jobsFor('video.process', videoId)).toHaveLength(1);
  });

  it('carries the id of the request that enqueued the job', async () => {
    const learner = await ctx.createUser('learner');
    const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: learner.token, body: await videoForm(ctx) });
    const videoId = created.json().data.id as string;
    await ctx.database.db.update(videos).set({ mediaStatus: 'failed', sourceKey: null }).where(eq(videos.id, videoId));
    const requestId = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const res = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${videoId}/retry`,
      token: learner.token,
      body: {},
      headers: { 'x-request-id': requestId },
    });
    // Without its source a retry is refused, and nothing is queued.
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.headers['x-request-id']).toBe(requestId);
    expect(await jobsFor('video.process', videoId)).toEqual([]);

    const shared = await ctx.createUser('learner');
    const share = await ctx.inject({
      method: 'POST',
      url: `/v1/videos/${videoId}/shares`,
      token: learner.token,
      body: { email: shared.email },
      headers: { 'x-request-id': requestId },
    });
    expect(share.statusCode, share.body).toBe(200);
    const { rows } = await ctx.database.pool.query<{ data: { to: string; requestId?: string } }>(
      `select data from pgboss.job where name = 'mail.send' and data->>'to' = $1`,
      [shared.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data.requestId).toBe(requestId);
  });
});

describe('the queues and schedules at start', () => {
  it('takes the options of now at a restart, and writes nothing when they are already there', async () => {
    const pino = (await import('pino')).default;
    const log = pino({ level: 'silent' });
    const settings = async () =>
      (
        await ctx.database.pool.query<{ name: string; heartbeat_seconds: number | null; updated_on: Date }>(
          `select name, heartbeat_seconds, updated_on from pgboss.queue where name in ('video.process', 'mail.send') order by name`,
        )
      ).rows;
    const schedules = async () =>
      (await ctx.database.pool.query<{ name: string; cron: string }>(`select name, cron from pgboss.schedule order by name`)).rows;
    // A restart with another heartbeat (JOB_HEARTBEAT_SECONDS): the long jobs' queues take it.
    const restarted = await createQueue(ctx.database, log, undefined, { heartbeatSeconds: 77 });
    await restarted.stop();
    const after = await settings();
    expect(after.find((q) => q.name === 'video.process')?.heartbeat_seconds).toBe(77);
    const wanted = await schedules();
    expect(wanted.length).toBeGreaterThan(0);
    // The same settings again: no queue is written (their time of change stays), the schedules are the same.
    const again = await createQueue(ctx.database, log, undefined, { heartbeatSeconds: 77 });
    await again.stop();
    expect(await settings()).toEqual(after);
    expect(await schedules()).toEqual(wanted);
    // A schedule changed behind its back (an earlier version's) is put back as the product wants it.
    await ctx.database.pool.query(`update pgboss.schedule set cron = '0 0 1 1 *' where name = $1`, [wanted[0]!.name]);
    const fixed = await createQueue(ctx.database, log, undefined, { heartbeatSeconds: 77 });
    await fixed.stop();
    expect(await schedules()).toEqual(wanted);
  });
});
