// @media: runs ffmpeg and ffprobe
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS } from '@sutura/domain/claims';
import { ERRORS } from '@sutura/domain/errors';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { MAX_STEPS, PREPARATION_SOCKET_EVENTS, type PoolChangedEvent } from '@sutura/domain/preparation';
import { media, notifications, surgerySteps, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { makePatternClip, readFrameNumbers } from './frame-pattern.ts';
import { videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let dir: string;
let clip: string;
let learner: Person;
let editor: Person;
let other: Person;
let expert: Person;
let admin: Person;
const sockets: Socket[] = [];

/** A processed video the learner sent: the pattern clip as its playable file. */
async function sentVideo(opts: { priority?: boolean; sentAt?: Date } = {}) {
  const form = await videoForm(ctx);
  const db = ctx.database.db;
  const [video] = await db
    .insert(videos)
    .values({
      authorId: learner.id,
      kind: 'video',
      status: 'pending_preparation',
      mediaStatus: 'ready',
      surgeryId: form.surgeryId,
      organId: form.organId,
      keyStepIds: form.keyStepIds,
      priority: opts.priority ?? false,
      sentAt: opts.sentAt ?? new Date(),
      duration: 20,
      frameRate: 25,
      width: 320,
      height: 240,
    })
    .returning();
  const key = `videos/${video!.id}/video.mp4`;
  const { size } = await ctx.storage.put(key, createReadStream(clip));
  const [row] = await db
    .insert(media)
    .values({ ownerId: learner.id, videoId: video!.id, kind: 'video', storageKey: key, contentType: 'video/mp4', size })
    .returning();
  await db.update(videos).set({ videoMediaId: row!.id }).where(eq(videos.id, video!.id));
  return { id: video!.id, surgeryId: form.surgeryId };
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: Person, body?: unknown) =>
  ctx.inject({ method, url: `/v1${url}`, token: who.token, ...(body !== undefined ? { body } : method === 'GET' ? {} : { body: {} }) });

async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ listen: true });
  dir = await mkdtemp(path.join(tmpdir(), 'sutura-preparation-'));
  clip = path.join(dir, 'clip.mp4');
  await makePatternClip({ seconds: 20, frameRate: 25, gop: 2 }, clip);
  learner = await ctx.createUser('learner');
  editor = await ctx.createUser('editor');
  other = await ctx.createUser('editor');
  expert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await ctx?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the pool', () => {
  it('lists sent videos to editors, priority first then oldest, filtered by surgery, paged', async () => {
    const base = Date.now() - 3600_000;
    const old = await sentVideo({ sentAt: new Date(base) });
    const urgent = await sentVideo({ priority: true, sentAt: new Date(base + 60_000) });
    const recent = await sentVideo({ sentAt: new Date(base + 120_000) });
    const res = await call('GET', '/editor/pool?limit=100', other);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json().data.data as { id: string }[]).map((v) => v.id);
    expect(ids.indexOf(urgent.id)).toBeLessThan(ids.indexOf(old.id));
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(recent.id));
    const item = res.json().data.data.find((v: { id: string }) => v.id === old.id);
    expect(item).toMatchObject({ duration: 20, priority: false, surgery: { id: old.surgeryId } });
    expect(item.waitingSeconds).toBeGreaterThanOrEqual(3600);

    const filtered = await call('GET', `/editor/pool?filter=surgeryId==${old.surgeryId}&limit=1&page=2`, other);
    expect(filtered.json().data).toMatchObject({ page: 2, limit: 1 });
    expect(filtered.json().data.data).toHaveLength(1);
    const none = await call('GET', `/editor/pool?filter=organId==${crypto.randomUUID()}`, other);
    expect(none.json().data.data).toEqual([]);
    const bad = await call('GET', '/editor/pool?filter=surgeryId==nope', other);
    expect(bad.statusCode).toBe(400);
  });

  it('takes a claimed video out of every other editor’s pool at once, over the socket', async () => {
    const video = await sentVideo();
    const { port } = ctx.app.server.address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token: other.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
    const events: PoolChangedEvent[] = [];
    socket.on(PREPARATION_SOCKET_EVENTS.poolChanged, (e: PoolChangedEvent) => events.push(e));
    // Acknowledged once the socket sits in its rooms.
    await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.initialize, { id: other.id });

    const claim = await call('POST', `/editor/videos/${video.id}/claim`, editor);
    expect(claim.statusCode, claim.body).toBe(200);
    await waitFor(async () => events.find((e) => e.videoId === video.id && e.change === 'claimed'), 5000);
    const pool = await call('GET', '/editor/pool?limit=100', other);
    expect((pool.json().data.data as { id: string }[]).map((v) => v.id)).not.toContain(video.id);
  });
});

describe('who may see and change a preparation', () => {
  it('answers 404 to another editor, 403 to learners, experts and administrators', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const token = claim.fencingToken as number;
    const writes = [
      ['GET', `/editor/videos/${video.id}`, undefined],
      ['POST', `/editor/videos/${video.id}/release`, { fencingToken: token }],
      ['PUT', `/editor/videos/${video.id}/trims`, { fencingToken: token, trims: [{ start: 0, end: 5 }] }],
      ['PUT', `/editor/videos/${video.id}/phase`, { fencingToken: token, phase: 'steps' }],
      ['PUT', `/editor/videos/${video.id}/steps`, { fencingToken: token, steps: [] }],
      ['POST', `/editor/videos/${video.id}/submit`, { fencingToken: token }],
    ] as const;
    for (const [method, url, body] of writes) {
      const res = await call(method, url, other, body);
      expect(res.statusCode, `${method} ${url} by another editor: ${res.body}`).toBe(404);
      for (const person of [learner, expert, admin]) {
        expect((await call(method, url, person, body)).statusCode, `${method} ${url}`).toBe(403);
      }
    }
    const claimOther = await call('POST', `/editor/videos/${video.id}/claim`, other);
    expect(claimOther.statusCode).toBe(409);
    expect(claimOther.json().error).toEqual({ code: 'CLAIM_TAKEN', message: ERRORS.CLAIM_TAKEN.fr });
    for (const person of [learner, expert, admin]) {
      expect((await call('POST', `/editor/videos/${video.id}/claim`, person)).statusCode).toBe(403);
      for (const list of ['/editor/pool', '/editor/held', '/editor/prepared']) {
        expect((await call('GET', list, person)).statusCode).toBe(403);
      }
    }
    // The holder still has it, untouched.
    const held = (await call('GET', '/editor/held', editor)).json().data.data;
    expect(held.find((h: { id: string }) => h.id === video.id)).toMatchObject({ hoursLeft: 12, fencingToken: token, phase: 'trim' });
    const detail = await call('GET', `/editor/videos/${video.id}`, editor);
    expect(detail.json().data.sourceUrl).toMatch(/^\/v1\/media\//);
    expect((await call('GET', '/editor/held', other)).json().data.data).toEqual([]);
    // Paged as the pool: the same query string, the same envelope.
    const paged = await call('GET', '/editor/held?limit=1&page=1', editor);
    expect(paged.statusCode, paged.body).toBe(200);
    expect(paged.json().data).toMatchObject({ total: held.length, page: 1, limit: 1 });
    expect(paged.json().data.data).toHaveLength(1);
    expect((await call('GET', '/editor/held?limit=101', editor)).statusCode).toBe(400);
  });

  it("refuses a stale holder's writes after the lease ran out and another editor took the video", async () => {
    const video = await sentVideo();
    const stale = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const trims = { fencingToken: stale.fencingToken, trims: [{ start: 1, end: 6 }] };
    expect((await call('PUT', `/editor/videos/${video.id}/trims`, editor, trims)).statusCode).toBe(200);
    ctx.clock.advance(LEASE_MS + 1000);
    try {
      expect((await call('PUT', `/editor/videos/${video.id}/trims`, editor, trims)).json().error.code).toBe('LEASE_LOST');
      const fresh = await call('POST', `/editor/videos/${video.id}/claim`, other);
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect(fresh.json().data.fencingToken).toBe(stale.fencingToken + 1);
      // The old holder is told, and may change nothing more.
      const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, editor.id));
      expect(told.map((n) => n.key)).toContain('preparationLeaseExpired');
      for (const [method, url, body] of [
        ['PUT', `/editor/videos/${video.id}/trims`, trims],
        ['POST', `/editor/videos/${video.id}/release`, { fencingToken: stale.fencingToken }],
        ['POST', `/editor/videos/${video.id}/submit`, { fencingToken: stale.fencingToken }],
        ['GET', `/editor/videos/${video.id}`, undefined],
      ] as const) {
        const res = await call(method, url, editor, body);
        expect(res.statusCode, `${method} ${url}`).toBe(409);
        expect(res.json().error.code).toBe('LEASE_LOST');
      }
      // The new editor starts afresh: nobody sees another editor's draft.
      const detail = (await call('GET', `/editor/videos/${video.id}`, other)).json().data;
      expect(detail.trims).toEqual([]);
    } finally {
      ctx.clock.advance(-(LEASE_MS + 1000));
    }
  });

  it('drops the trims and steps of a video given back: the next claim, by anyone, starts from the source', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const token = { fencingToken: claim.fencingToken };
    expect((await call('PUT', `/editor/videos/${video.id}/trims`, editor, { ...token, trims: [{ start: 1, end: 9 }] })).statusCode).toBe(
      200,
    );
    expect((await call('PUT', `/editor/videos/${video.id}/phase`, editor, { ...token, phase: 'steps' })).statusCode).toBe(200);
    const steps = [
      { surgeryStepId: null, name: 'Dissection', start: 1, end: 4 },
      { surgeryStepId: null, name: 'Suture', start: 4, end: 9 },
    ];
    expect((await call('PUT', `/editor/videos/${video.id}/steps`, editor, { ...token, steps })).statusCode).toBe(200);

    // A release under another token is refused and keeps everything.
    const wrong = await call('POST', `/editor/videos/${video.id}/release`, editor, { fencingToken: claim.fencingToken + 1 });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.statusCode).toBeLessThan(500);
    expect((await call('GET', `/editor/videos/${video.id}`, editor)).json().data.steps).toHaveLength(2);

    const released = await call('POST', `/editor/videos/${video.id}/release`, editor, token);
    expect(released.statusCode, released.body).toBe(200);
    const again = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const detail = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data;
    expect(detail).toMatchObject({ phase: 'trim', trims: [], steps: [], savedAt: null, fencingToken: again.fencingToken });
    expect((await call('POST', `/editor/videos/${video.id}/release`, editor, { fencingToken: again.fencingToken })).statusCode).toBe(200);
  });

  it('returns expired leases to the pool with the periodic job, and tells the editor', async () => {
    const video = await sentVideo();
    await call('POST', `/editor/videos/${video.id}/claim`, other);
    ctx.clock.advance(LEASE_MS);
    try {
      expect(await ctx.services.preparation.tidyExpiredLeases()).toBeGreaterThanOrEqual(1);
      const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
      expect(row!.status).toBe('pending_preparation');
      const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, other.id));
      expect(told.map((n) => n.key)).toContain('preparationLeaseExpired');
    } finally {
      ctx.clock.advance(-LEASE_MS);
    }
  });
});

describe('preparing a video', () => {
  it('serves the cut suggestions found in the source once the analysis job ran', async () => {
    const video = await sentVideo();
    // Claimed before any analysis (a source sent before this stage existed): the claim asks for it.
    await call('POST', `/editor/videos/${video.id}/claim`, editor);
    const suggestions = await waitFor(async () => {
      const detail = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data;
      return detail.suggestions ?? undefined;
    });
    // The pattern clip is one continuous scene: analysed, nothing to suggest.
    expect(suggestions).toEqual([]);
  });

  it('checks trims and steps on the server, renders the kept ranges and shows the steps to the learner', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const fencingToken = claim.fencingToken as number;
    const url = `/editor/videos/${video.id}`;
    const code = async (method: 'PUT' | 'POST', suffix: string, body: object) => {
      const res = await call(method, `${url}${suffix}`, editor, { fencingToken, ...body });
      return res.statusCode === 200 ? 'OK' : (res.json().error.code as string);
    };

    // Trims: inside the source, sorted, not overlapping, long enough; snapped to frames.
    expect(await code('PUT', '/trims', { trims: [{ start: 2, end: 25 }] })).toBe('TRIM_POSITION');
    expect(
      await code('PUT', '/trims', {
        trims: [
          { start: 2, end: 8 },
          { start: 6, end: 10 },
        ],
      }),
    ).toBe('TRIM_POSITION');
    expect(await code('PUT', '/trims', { trims: [{ start: 2, end: 2.5 }] })).toBe('TRIM_TOO_SHORT');
    expect(await code('PUT', '/steps', { steps: [] })).toBe('PREPARATION_WRONG_PHASE');
    expect(await code('PUT', '/phase', { phase: 'steps' })).toBe('TRIMS_REQUIRED');
    const saved = await call('PUT', `${url}/trims`, editor, {
      fencingToken,
      trims: [
        { start: 1.01, end: 7.5 },
        { start: 11.04, end: 17.29 },
      ],
    });
    expect(saved.json().data.trims).toEqual([
      { start: 1, end: 7.52 },
      { start: 11.04, end: 17.28 },
    ]);
    expect(saved.json().data.savedAt).not.toBeNull();

    // Steps: inside the kept ranges, at most MAX_STEPS, named, at least 2 at submit.
    expect(await code('PUT', '/phase', { phase: 'steps' })).toBe('OK');
    expect(await code('PUT', '/trims', { trims: [] })).toBe('PREPARATION_WRONG_PHASE');
    const [vocabulary] = await ctx.database.db.select().from(surgerySteps).where(eq(surgerySteps.surgeryId, video.surgeryId));
    const step = (start: number, end: number, name = 'Dissection') => ({ surgeryStepId: null, name, start, end });
    expect(await code('PUT', '/steps', { steps: [step(8, 9)] })).toBe('STEP_OUTSIDE_TRIMS');
    expect(await code('PUT', '/steps', { steps: [step(5, 4)] })).toBe('STEP_ORDER');
    expect(await code('PUT', '/steps', { steps: Array.from({ length: MAX_STEPS + 1 }, () => step(1, 2)) })).toBe('STEPS_MAX');
    expect(await code('PUT', '/steps', { steps: [{ surgeryStepId: crypto.randomUUID(), name: '', start: 1, end: 2 }, step(2, 3)] })).toBe(
      'VALIDATION',
    );
    expect(await code('PUT', '/steps', { steps: [step(1, 3)] })).toBe('OK');
    expect(await code('POST', '/submit', {})).toBe('STEPS_MIN');
    expect(await code('PUT', '/steps', { steps: [step(1, 3), step(3, 5, ' ')] })).toBe('OK');
    expect(await code('POST', '/submit', {})).toBe('STEPS_UNNAMED');
    // Back to trim drops the steps.
    expect(await code('PUT', '/phase', { phase: 'trim' })).toBe('OK');
    expect((await call('GET', url, editor)).json().data).toMatchObject({ phase: 'trim', steps: [] });
    expect(await code('PUT', '/phase', { phase: 'steps' })).toBe('OK');
    const steps = [
      { surgeryStepId: vocabulary!.id, name: '', start: 2, end: 7.52 },
      step(11.04, 12.52, 'Bladder neck'),
      step(13, 17.28, 'Anastomosis'),
    ];
    expect(await code('PUT', '/steps', { steps })).toBe('OK');

    const submitted = await call('POST', `${url}/submit`, editor, { fencingToken });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data).toMatchObject({ status: 'processing', renderStatus: 'rendering', fencingToken: null });
    expect(await code('PUT', '/steps', { steps })).toBe('LEASE_LOST');

    const detail = await waitFor(async () => {
      const res = await call('GET', `/videos/${video.id}`, learner);
      return res.json().data.status === 'pending_analysis' ? res.json().data : undefined;
    });
    // 6.52 s + 6.24 s kept; steps in seconds of the result.
    expect(Math.abs(detail.duration - 12.76)).toBeLessThanOrEqual(0.04);
    expect(detail.steps).toEqual([
      expect.objectContaining({ position: 0, surgeryStepId: vocabulary!.id, name: vocabulary!.nameFr, start: 1, end: 6.52 }),
      expect.objectContaining({ position: 1, name: 'Bladder neck', start: 6.52, end: 8 }),
      expect.objectContaining({ position: 2, name: 'Anastomosis', start: 8.48, end: 12.76 }),
    ]);
    expect(detail.sourceUrl).toMatch(/^\/v1\/media\//);
    expect(detail.sourceUrl).not.toBe(detail.videoUrl);

    // The file served is the rendered one, frame for frame.
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    const [file] = await ctx.database.db.select().from(media).where(eq(media.id, row!.videoMediaId!));
    const local = path.join(dir, 'rendered.mp4');
    const { pipeline } = await import('node:stream/promises');
    const { createWriteStream } = await import('node:fs');
    await pipeline(await ctx.storage.read(file!.storageKey), createWriteStream(local));
    const frames = await readFrameNumbers(local);
    expect(frames.length).toBe(163 + 156);
    expect([frames[0], frames[162], frames[163], frames[318]]).toEqual([25, 187, 276, 431]);

    // The editor sees it among the videos prepared, with the rendered video; both are told.
    const prepared = (await call('GET', '/editor/prepared', editor)).json().data.data;
    expect(prepared.find((p: { id: string }) => p.id === video.id)).toMatchObject({ status: 'pending_analysis', stepCount: 3 });
    const done = (await call('GET', url, editor)).json().data;
    expect(done).toMatchObject({ renderStatus: 'done', sourceUrl: null });
    expect(done.renderedUrl).toMatch(/^\/v1\/media\//);
    const keys = async (userId: string) =>
      (await ctx.database.db.select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.key);
    expect(await keys(editor.id)).toContain('preparationRendered');
    expect(await keys(learner.id)).toEqual(expect.arrayContaining(['videoInPreparation', 'videoPrepared']));

    // Running the same render again records nothing twice.
    await ctx.services.preparationJobs.render(video.id, 1);
    expect((await keys(learner.id)).filter((k) => k === 'videoPrepared')).toHaveLength(1);
    // Nobody else sees the source: a shared colleague or an administrator gets no sourceUrl.
    const asAdmin = (await call('GET', `/videos/${video.id}`, admin)).json().data;
    expect(asAdmin.sourceUrl).toBeNull();
    expect(asAdmin.videoUrl).not.toBeNull();
  }, 180_000);

  it('moves the video to processing with its render or not at all: a failure half-way leaves it with its editor', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const body = (extra: object) => ({ fencingToken: claim.fencingToken, ...extra });
    await call('PUT', `/editor/videos/${video.id}/trims`, editor, body({ trims: [{ start: 0, end: 10 }] }));
    await call('PUT', `/editor/videos/${video.id}/phase`, editor, body({ phase: 'steps' }));
    const steps = [
      { surgeryStepId: null, name: 'A', start: 0, end: 4 },
      { surgeryStepId: null, name: 'B', start: 4, end: 10 },
    ];
    expect((await call('PUT', `/editor/videos/${video.id}/steps`, editor, body({ steps }))).statusCode).toBe(200);
    // The database refuses this preparation's render: the write after the video's move fails.
    await ctx.database.pool.query(`
      CREATE FUNCTION refuse_render() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.video_id = '${video.id}' AND NEW.render_status = 'rendering' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_render BEFORE UPDATE ON preparations FOR EACH ROW EXECUTE FUNCTION refuse_render();`);
    try {
      const failed = await call('POST', `/editor/videos/${video.id}/submit`, editor, body({}));
      expect(failed.statusCode).toBe(500);
    } finally {
      await ctx.database.pool.query('DROP TRIGGER refuse_render ON preparations; DROP FUNCTION refuse_render();');
    }
    const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
    expect(row).toMatchObject({ status: 'in_preparation', claimHolderId: editor.id, fencingToken: claim.fencingToken });
    expect(row!.leaseEndsAt).not.toBeNull();
    const detail = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data;
    expect(detail).toMatchObject({ status: 'in_preparation', renderStatus: 'idle' });
  });

  it('marks a render failed only with its work back to the editor: a failure half-way leaves it rendering', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    await ctx.services.claims.finish('preparation', video.id, editor.id, claim.fencingToken, 'processing');
    const { preparations } = await import('../src/db/schema.ts');
    await ctx.database.db
      .update(preparations)
      .set({ renderStatus: 'rendering', renderAttempt: 3, submittedAt: new Date() })
      .where(eq(preparations.videoId, video.id));
    // The database refuses the new claim's record: the write after the render's failure fails.
    await ctx.database.pool.query(`
      CREATE FUNCTION refuse_reopen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.video_id = '${video.id}' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_reopen BEFORE INSERT ON claims FOR EACH ROW EXECUTE FUNCTION refuse_reopen();`);
    try {
      await expect(ctx.services.preparationJobs.renderFailed(video.id, 3)).rejects.toThrow();
    } finally {
      await ctx.database.pool.query('DROP TRIGGER refuse_reopen ON claims; DROP FUNCTION refuse_reopen();');
    }
    const [prep] = await ctx.database.db.select().from(preparations).where(eq(preparations.videoId, video.id));
    expect(prep).toMatchObject({ renderStatus: 'rendering', renderError: null });
    expect((await ctx.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]!.status).toBe('processing');
    // The queue's next try of the same failure goes through.
    await ctx.services.preparationJobs.renderFailed(video.id, 3);
    expect((await ctx.database.db.select().from(videos).where(eq(videos.id, video.id)))[0]).toMatchObject({
      status: 'in_preparation',
      claimHolderId: editor.id,
    });
  });

  it('gives a failed render back to its editor, who may submit again', async () => {
    const video = await sentVideo();
    const claim = (await call('POST', `/editor/videos/${video.id}/claim`, editor)).json().data;
    const body = (extra: object) => ({ fencingToken: claim.fencingToken, ...extra });
    await call('PUT', `/editor/videos/${video.id}/trims`, editor, body({ trims: [{ start: 0, end: 10 }] }));
    await call('PUT', `/editor/videos/${video.id}/phase`, editor, body({ phase: 'steps' }));
    const steps = [
      { surgeryStepId: null, name: 'A', start: 0, end: 4 },
      { surgeryStepId: null, name: 'B', start: 4, end: 10 },
    ];
    await call('PUT', `/editor/videos/${video.id}/steps`, editor, body({ steps }));
    // The render job is not started by the queue here: its last try failed.
    await ctx.services.claims.finish('preparation', video.id, editor.id, claim.fencingToken, 'processing');
    const { preparations } = await import('../src/db/schema.ts');
    await ctx.database.db
      .update(preparations)
      .set({ renderStatus: 'rendering', renderAttempt: 7, submittedAt: new Date() })
      .where(eq(preparations.videoId, video.id));
    await ctx.services.preparationJobs.renderFailed(video.id, 7);

    const detail = (await call('GET', `/editor/videos/${video.id}`, editor)).json().data;
    expect(detail).toMatchObject({ status: 'in_preparation', renderStatus: 'failed', renderError: 'RENDER_FAILED', phase: 'steps' });
    expect(detail.steps).toHaveLength(2);
    expect(detail.fencingToken).toBe(claim.fencingToken + 1);
    const told = await ctx.database.db.select().from(notifications).where(eq(notifications.userId, editor.id));
    expect(told.map((n) => n.key)).toContain('preparationRenderFailed');
    const again = await call('POST', `/editor/videos/${video.id}/submit`, editor, { fencingToken: detail.fencingToken });
    expect(again.statusCode, again.body).toBe(200);
    // A second run of the same render beside the queue's (a worker that died and was replaced).
    await Promise.all([
      ctx.services.preparationJobs.render(video.id, 8),
      waitFor(async () => {
        const [row] = await ctx.database.db.select().from(videos).where(eq(videos.id, video.id));
        return row!.status === 'pending_analysis' ? row : undefined;
      }),
    ]);
    const files = await ctx.database.db.select().from(media).where(eq(media.videoId, video.id));
    expect(files.filter((f) => f.kind === 'prepared-video')).toHaveLength(1);
    // The learner is told once the render is recorded (after its commit), by whichever run recorded it.
    const prepared = async () =>
      (await ctx.database.db.select().from(notifications).where(eq(notifications.userId, learner.id))).filter(
        (n) => n.key === 'videoPrepared' && n.link === `/videos/${video.id}`,
      );
    await waitFor(async () => ((await prepared()).length > 0 ? true : undefined));
    // Only the run that recorded the render tells: the other dropped its outputs.
    expect(await prepared()).toHaveLength(1);
  }, 180_000);
});
