import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@sutura/domain/dashboard';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import { analyses, preparations, surgeries, videos } from '../src/db/schema.ts';
import { createDashboardService, monthStart } from '../src/modules/dashboard/dashboard.service.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
let port: number;
const sockets: Socket[] = [];
type Person = Awaited<ReturnType<TestContext['createUser']>>;
const people = {} as Record<'learner' | 'other' | 'hidden' | 'editor' | 'editor2' | 'expert' | 'both' | 'admin', Person>;
const ids = {} as Record<string, string>;
const HOUR = 3_600_000;
let surgeryId: string;

async function video(name: string, authorId: string, status: string, extra: Partial<typeof videos.$inferInsert> = {}) {
  const [row] = await ctx.database.db
    .insert(videos)
    .values({ authorId, status, mediaStatus: 'ready', surgeryId, sentAt: status === 'saved' ? null : new Date(), ...extra })
    .returning({ id: videos.id });
  ids[name] = row!.id;
  return row!.id;
}

/**
 * An analysed case whose result was released at `submittedAt`; its learner then skips their
 * self-assessment, so that its ratings reach them (docs/self-assessment.md).
 */
async function analysed(name: string, author: Person, expertId: string, submittedAt: Date, globalRating: number) {
  const id = await video(name, author.id, 'analysed', { resultReleasedAt: submittedAt });
  await ctx.database.db.insert(analyses).values({ videoId: id, expertId, status: 'submitted', globalRating, submittedAt });
  const skipped = await ctx.inject({ method: 'POST', url: `/v1/videos/${id}/self-assessment/skip`, token: author.token, body: {} });
  expect(skipped.statusCode, skipped.body).toBe(200);
  expect(skipped.json().data.ratingsReleasedAt).not.toBeNull();
}

async function dashboard(person: Person | undefined) {
  const res = await ctx.inject({ method: 'GET', url: '/v1/dashboard?langCode=en', token: person?.token });
  return { status: res.statusCode, data: res.json().data as Dashboard };
}

beforeAll(async () => {
  ctx = await createTestContext({ listen: true, workers: false });
  port = (ctx.app.server.address() as AddressInfo).port;
  const [surgery] = await ctx.database.db.select().from(surgeries).where(eq(surgeries.code, 'pyeloplasty'));
  surgeryId = surgery!.id;
  people.learner = await ctx.createUser('learner');
  people.other = await ctx.createUser('learner');
  people.hidden = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: false } });
  people.editor = await ctx.createUser('editor');
  people.editor2 = await ctx.createUser('editor');
  people.expert = await ctx.createUser('expert');
  people.both = await ctx.createUser('editor', { roles: ['editor', 'expert'] });
  people.admin = await ctx.createUser('administrator');
  const { learner, other, hidden, editor, editor2, expert } = people;
  const now = new Date();
  const lastMonth = new Date(monthStart(now, ctx.config.timeZone).getTime() - 24 * HOUR);

  // The learner: one case of each state, one whose file never arrived.
  await video('saved', learner.id, 'saved');
  await video('uploading', learner.id, 'saved', { mediaStatus: 'uploading' });
  await video('pendingPreparation', learner.id, 'pending_preparation');
  await video('claimedByEditor', learner.id, 'pending_preparation');
  await video('rendering', learner.id, 'processing');
  await video('pendingAnalysis', learner.id, 'pending_analysis');
  await video('claimedByExpert', learner.id, 'pending_analysis');
  await analysed('older', learner, expert.id, lastMonth, 3);
  await analysed('latest', learner, expert.id, new Date(now.getTime() - 1000), 4);
  // The editor prepared two: one this month, one last month.
  await ctx.database.db.insert(preparations).values([
    { videoId: ids.rendering!, editorId: editor.id, phase: 'steps', submittedAt: now, renderStatus: 'rendering' },
    { videoId: ids.pendingAnalysis!, editorId: editor.id, phase: 'steps', submittedAt: lastMonth, renderStatus: 'done' },
  ]);
  // Others' cases in the pools, one of each held under a lease that ran out (claimable again).
  await video('otherPending', other.id, 'pending_preparation');
  await video('expiredPreparation', other.id, 'in_preparation', {
    claimHolderId: editor2.id,
    leaseEndsAt: new Date(now.getTime() - HOUR),
    fencingToken: 1,
  });
  await video('otherAnalysis', other.id, 'pending_analysis');
  await video('expiredAnalysis', other.id, 'in_analysis', {
    claimHolderId: expert.id,
    leaseEndsAt: new Date(now.getTime() - HOUR),
    fencingToken: 1,
  });
  // A case of a learner who hides ratings.
  await analysed('hiddenAnalysed', hidden, expert.id, now, 5);

  for (const [who, path, id] of [
    [editor, 'editor', ids.claimedByEditor],
    [expert, 'expert', ids.claimedByExpert],
  ] as const) {
    const res = await ctx.inject({ method: 'POST', url: `/v1/${path}/videos/${id}/claim`, token: who.token });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await ctx?.close();
});

describe('GET /v1/dashboard', () => {
  it('refuses an anonymous caller', async () => {
    expect((await dashboard(undefined)).status).toBe(401);
  });

  it("counts a learner's cases: uploaded, waiting by stage, analysed, the latest feedback and the mean rating", async () => {
    const { status, data } = await dashboard(people.learner);
    expect(status).toBe(200);
    expect(Object.keys(data)).toEqual(['learner']);
    expect(data.learner).toEqual({
      // Every case but the one still uploading.
      uploaded: 8,
      waiting: { total: 5, preparation: 3, analysis: 2 },
      analysed: 2,
      latestFeedback: {
        videoId: ids.latest,
        surgery: 'Pyeloplasty',
        submittedAt: expect.any(String),
        awaitingSelfAssessment: false,
        globalRating: 4,
      },
      averageGlobalRating: 3.5,
    });
  });

  it('names the surgery in the language of the request', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/dashboard?langCode=fr', token: people.learner.token });
    expect(res.json().data.learner.latestFeedback.surgery).toBe('Pyéloplastie');
  });

  it('sends no rating at all to a learner whose showRatings is off', async () => {
    const { data } = await dashboard(people.hidden);
    expect(data.learner!.analysed).toBe(1);
    expect(data.learner!.latestFeedback).toEqual({
      videoId: ids.hiddenAnalysed,
      surgery: 'Pyeloplasty',
      submittedAt: expect.any(String),
      awaitingSelfAssessment: false,
    });
    expect(data.learner).not.toHaveProperty('averageGlobalRating');
    expect(JSON.stringify(data)).not.toContain('globalRating');
  });

  it("counts an editor's pool (expired leases included), the cases held with hours left, and the month's work", async () => {
    const { data } = await dashboard(people.editor);
    expect(Object.keys(data)).toEqual(['editor']);
    expect(data.editor).toEqual({
      pool: 3,
      held: [{ videoId: ids.claimedByEditor, surgery: 'Pyeloplasty', leaseEndsAt: expect.any(String), hoursLeft: 12 }],
      doneThisMonth: 1,
    });
    expect((await dashboard(people.editor2)).data.editor).toEqual({ pool: 3, held: [], doneThisMonth: 0 });
  });

  it("counts an expert's pool, held cases and the analyses submitted this month", async () => {
    const { data } = await dashboard(people.expert);
    expect(Object.keys(data)).toEqual(['expert']);
    expect(data.expert).toEqual({
      pool: 3,
      held: [{ videoId: ids.claimedByExpert, surgery: 'Pyeloplasty', leaseEndsAt: expect.any(String), hoursLeft: 12 }],
      // The latest and the hidden learner's; the older one was last month.
      doneThisMonth: 2,
    });
  });

  it('gives a person with several roles each of their sections, and an administrator none', async () => {
    const { data } = await dashboard(people.both);
    expect(Object.keys(data).sort()).toEqual(['editor', 'expert']);
    expect(data.editor!.pool).toBe(3);
    expect(data.expert!.pool).toBe(3);
    expect((await dashboard(people.admin)).data).toEqual({});
  });

  it('counts the hours left down, rounded up, and drops a lease once it has run out', async () => {
    ctx.clock.advance(4.5 * HOUR);
    expect((await dashboard(people.editor)).data.editor!.held[0]!.hoursLeft).toBe(8);
    ctx.clock.advance(8 * HOUR);
    const { data } = await dashboard(people.editor);
    expect(data.editor!.held).toEqual([]);
    // Run out, the case is in the pool again.
    expect(data.editor!.pool).toBe(4);
    ctx.clock.advance(-12.5 * HOUR);
  });
});

describe('live dashboards', () => {
  async function connect(person: Person) {
    const socket = io(`http://127.0.0.1:${port}`, { auth: { token: person.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const received: unknown[] = [];
    socket.on(SOCKET_EVENTS.dashboardChanged, (payload: unknown) => received.push(payload));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    // Acknowledged once the socket sits in its rooms.
    await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.initialize, { id: person.id });
    return { socket, received };
  }
  function roundTrip(socket: Socket): Promise<void> {
    return new Promise((resolve) => {
      socket.once(SOCKET_EVENTS.restartConnection, () => resolve());
      socket.emit(SOCKET_EVENTS.restartConnection);
    });
  }
  async function until(check: () => boolean, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('no dashboard event');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('tells every editor, and the author, when a case enters the pool — not the experts', async () => {
    const editor = await connect(people.editor2);
    const expert = await connect(people.expert);
    const author = await connect(people.other);
    const id = await video('sentLive', people.other.id, 'saved');
    const res = await ctx.inject({ method: 'POST', url: `/v1/videos/${id}/send`, token: people.other.token, body: { priority: false } });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => editor.received.length > 0 && author.received.length > 0);
    expect(editor.received).toEqual([null]);
    await roundTrip(expert.socket);
    expect(expert.received).toEqual([]);
    expect((await dashboard(people.editor2)).data.editor!.pool).toBe(4);
  });

  it('tells the other editors when a case is claimed, and the experts when one is released to their pool', async () => {
    const editor = await connect(people.editor2);
    const expert = await connect(people.both);
    const claim = await ctx.inject({ method: 'POST', url: `/v1/editor/videos/${ids.sentLive}/claim`, token: people.editor.token });
    expect(claim.statusCode).toBe(200);
    await until(() => editor.received.length > 0);
    expect((await dashboard(people.editor2)).data.editor!.pool).toBe(3);

    const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${ids.otherAnalysis}/claim`, token: people.expert.token });
    expect(expert.received.length).toBeGreaterThan(0);
    const before = expert.received.length;
    await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${ids.otherAnalysis}/release`,
      token: people.expert.token,
      body: { fencingToken: claimed.json().data.fencingToken },
    });
    await until(() => expert.received.length > before);
  });

  it('tells the expert once the submitted analysis is committed: a refetch on the event already counts it', async () => {
    const id = await video('submittedLive', people.learner.id, 'pending_analysis');
    const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${id}/claim`, token: people.expert.token });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const baseline = (await dashboard(people.expert)).data.expert!.doneThisMonth;
    const expert = await connect(people.expert);
    // What the web app does: fetch the dashboard again the moment the event arrives.
    const seen: number[] = [];
    expert.socket.on(SOCKET_EVENTS.dashboardChanged, () => {
      void dashboard(people.expert).then(({ data }) => seen.push(data.expert!.doneThisMonth));
    });
    // The analysis' submission takes a while, so that a refetch during it would read the old numbers.
    await ctx.database.pool.query(`
      CREATE FUNCTION slow_submit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.video_id = '${id}' AND NEW.status = 'submitted' THEN PERFORM pg_sleep(0.5); END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER slow_submit BEFORE UPDATE ON analyses FOR EACH ROW EXECUTE FUNCTION slow_submit();`);
    try {
      const done = await ctx.inject({
        method: 'POST',
        url: `/v1/expert/videos/${id}/finalize`,
        token: people.expert.token,
        body: { fencingToken: claimed.json().data.fencingToken, confirmAnyway: true },
      });
      expect(done.statusCode, done.body).toBe(200);
    } finally {
      await ctx.database.pool.query('DROP TRIGGER slow_submit ON analyses; DROP FUNCTION slow_submit();');
    }
    await until(() => seen.length > 0);
    expect(seen).toEqual([baseline + 1]);
  });
});

describe("the month's work", () => {
  it("is counted by the month of the installation's clock (Paris by default), not UTC, summer time included", async () => {
    const db = ctx.database.db;
    expect(ctx.config.timeZone).toBe('Europe/Paris');
    const editor = await ctx.createUser('editor');
    const expert = await ctx.createUser('expert');
    const at = (iso: string) => new Date(iso);
    // Submitted at 23:30 on 31 October and at 00:30 on 1 November, Paris time (UTC+1).
    const october = await video('octoberWork', people.other.id, 'analysed');
    const november = await video('novemberWork', people.other.id, 'analysed');
    // At 00:30 on 1 April, Paris summer time (UTC+2).
    const april = await video('aprilWork', people.other.id, 'analysed');
    await db.insert(preparations).values([
      { videoId: october, editorId: editor.id, phase: 'steps', submittedAt: at('2026-10-31T22:30:00Z'), renderStatus: 'done' },
      { videoId: november, editorId: editor.id, phase: 'steps', submittedAt: at('2026-10-31T23:30:00Z'), renderStatus: 'done' },
      { videoId: april, editorId: editor.id, phase: 'steps', submittedAt: at('2026-03-31T22:30:00Z'), renderStatus: 'done' },
    ]);
    await db.insert(analyses).values([
      { videoId: october, expertId: expert.id, status: 'submitted', globalRating: 3, submittedAt: at('2026-10-31T22:30:00Z') },
      { videoId: november, expertId: expert.id, status: 'submitted', globalRating: 3, submittedAt: at('2026-10-31T23:30:00Z') },
      { videoId: april, expertId: expert.id, status: 'submitted', globalRating: 3, submittedAt: at('2026-03-31T22:30:00Z') },
    ]);
    const viewer = (person: Person, role: 'editor' | 'expert') => ({
      id: person.id,
      sessionId: 'test',
      sessionEndsAt: new Date(8.64e15),
      roles: [role],
      preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings: true },
    });
    const done = async (iso: string, timeZone = 'Europe/Paris') => {
      const service = createDashboardService({ db, clock: () => at(iso), timeZone });
      const [e, x] = await Promise.all([service.of(viewer(editor, 'editor'), 'en'), service.of(viewer(expert, 'expert'), 'en')]);
      return [e.editor!.doneThisMonth, x.expert!.doneThisMonth];
    };
    // Mid-November: the work of 00:30 on 1 November only; on a UTC clock both were October's.
    expect(await done('2026-11-15T12:00:00Z')).toEqual([1, 1]);
    expect(await done('2026-11-15T12:00:00Z', 'UTC')).toEqual([0, 0]);
    // April in Paris began at 22:00Z on 31 March.
    expect(await done('2026-04-10T12:00:00Z')).toEqual([1, 1]);
    expect(await done('2026-04-10T12:00:00Z', 'UTC')).toEqual([0, 0]);
  });
});
