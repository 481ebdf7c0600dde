import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videos } from '../src/db/schema.ts';
import { makePatternClip } from './frame-pattern.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { tusMetadata, videoForm } from './video-fixtures.ts';

/**
 * The scratch disk full, for real: ffmpeg's folder is a small tmpfs (mounted here, as root), so
 * the pipeline meets ENOSPC from the kernel, not a limit of the product's own. The job fails
 * cleanly (nothing left in the scratch space, the case still processing), is retried, and
 * completes once there is room.
 */
const root = process.getuid?.() === 0;
let mountPoint: string | undefined;
let mounted = false;
if (root) {
  mountPoint = await mkdtemp(path.join(tmpdir(), 'sutura-scratch-full-'));
  mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]).status === 0;
}

let ctx: TestContext;
let work: string;

describe.skipIf(!mounted)('a scratch disk that is full', () => {
  beforeAll(async () => {
    ctx = await createTestContext({ env: { SCRATCH_DIR: mountPoint! } });
    work = await mkdtemp(path.join(tmpdir(), 'sutura-scratch-src-'));
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('fails the job cleanly, retries it, and processes the video once there is room', async () => {
    const clip = path.join(work, 'source.mp4');
    await makePatternClip({ seconds: 40, frameRate: 25, gop: 2, width: 640, height: 360 }, clip);
    const bytes = await readFile(clip);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024); // more than the 1 MiB scratch disk
    const learner = await ctx.createUser('learner');
    const created = await ctx.inject({ method: 'POST', url: '/v1/videos', token: learner.token, body: await videoForm(ctx) });
    const videoId = created.json().data.id as string;
    const tus = { 'tus-resumable': '1.0.0' };
    const start = await ctx.inject({
      method: 'POST',
      url: '/v1/uploads/',
      token: learner.token,
      headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': tusMetadata({ videoId, filename: 'a.mp4' }) },
    });
    expect(start.statusCode, start.body).toBe(201);
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: new URL(start.headers.location as string, 'http://x').pathname,
      headers: {
        ...tus,
        authorization: `Bearer ${learner.token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: bytes,
    });
    expect(patched.statusCode, patched.body).toBe(204);

    const job = async () => {
      const { rows } = await ctx.database.pool.query<{ state: string; retry_count: number }>(
        `select state::text, retry_count from pgboss.job where name = 'video.process' and data->>'videoId' = $1`,
        [videoId],
      );
      return rows[0];
    };
    // The first try meets ENOSPC: the job waits for its retry, the case is still processing.
    const deadline = Date.now() + 60_000;
    while ((await job())?.state !== 'retry') {
      if (Date.now() > deadline) throw new Error(`no failed try: ${JSON.stringify(await job())}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const { rows } = await ctx.database.pool.query<{ output: string }>(
      `select output::text from pgboss.job where name = 'video.process' and data->>'videoId' = $1`,
      [videoId],
    );
    // The kernel's answer, not a limit of the product's.
    expect(rows[0]!.output).toMatch(/ENOSPC|No space left on device/);
    const [waiting] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
    expect(waiting).toMatchObject({ mediaStatus: 'processing' });
    // Nothing half-written is left in the scratch space.
    expect(await readdir(mountPoint!, { recursive: true })).toEqual([]);

    // Room again (an operator frees the disk): the retry completes.
    expect(spawnSync('mount', ['-o', 'remount,size=256m', mountPoint!]).status).toBe(0);
    // The retry's delay (half a minute) gone by: the queue hands the job out again.
    await ctx.database.pool.query(`update pgboss.job set start_after = now() where name = 'video.process' and data->>'videoId' = $1`, [
      videoId,
    ]);
    const done = Date.now() + 120_000;
    for (;;) {
      const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, videoId));
      if (row!.mediaStatus === 'ready') break;
      expect(row!.mediaStatus).toBe('processing');
      if (Date.now() > done) throw new Error('not processed after the retry');
      await new Promise((r) => setTimeout(r, 250));
    }
    // The video is ready before pg-boss records the job's end (the handler returns first).
    for (let i = 0; i < 100 && (await job())?.state === 'active'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await job()).toMatchObject({ state: 'completed', retry_count: 1 });
  }, 240_000);
});

afterAll(async () => {
  if (mounted) spawnSync('umount', [mountPoint!]);
  if (mountPoint) await rm(mountPoint, { recursive: true, force: true });
});
