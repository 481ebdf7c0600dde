// @database-server: a holder's write racing an administrator's release transaction (row locks, commit order)
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisComments, analyses, preparations, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

type Person = Awaited<ReturnType<TestContext['createUser']>>;

let ctx: TestContext;
let learner: Person;
let editor: Person;
let expert: Person;
let admin: Person;

beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  learner = await ctx.createUser('learner');
  editor = await ctx.createUser('editor');
  expert = await ctx.createUser('expert');
  admin = await ctx.createUser('administrator');
}, 180_000);

afterAll(async () => {
  await ctx?.close();
});

async function waitingVideo(status: 'pending_preparation' | 'pending_analysis') {
  const form = await videoForm(ctx);
  const { kind: _kind, ...fields } = form;
  const [row] = await ctx.database.db
    .insert(videos)
    .values({
      ...fields,
      authorId: learner.id,
      kind: 'video',
      status,
      mediaStatus: 'ready',
      duration: 60,
      frameRate: 25,
      sentAt: new Date(),
    })
    .returning();
  return row!;
}

async function claim(stage: 'editor' | 'expert', videoId: string, who: Person): Promise<number> {
  const res = await ctx.inject({ method: 'POST', url: `/v1/${stage}/videos/${videoId}/claim`, token: who.token, body: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.fencingToken as number;
}

/**
 * An administrator's "end the hold" caught in the middle: the video is back in the pool and the
 * draft deleted, not yet committed, while the holder's write arrives; then it commits. This is
 * the order of the release's own transaction (claims.forceRelease, then the draft).
 */
async function releaseInFlight(videoId: string, pending: 'pending_preparation' | 'pending_analysis', write: () => Promise<unknown>) {
  const client = new pg.Client({ connectionString: ctx.database.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE videos SET status = $2, claim_holder_id = NULL, lease_ends_at = NULL WHERE id = $1', [videoId, pending]);
    await client.query("UPDATE claims SET ended_at = now(), end_reason = 'force_released' WHERE video_id = $1 AND ended_at IS NULL", [
      videoId,
    ]);
    if (pending === 'pending_analysis') await client.query("DELETE FROM analyses WHERE video_id = $1 AND status = 'draft'", [videoId]);
    const answer = write();
    await new Promise((r) => setTimeout(r, 400));
    await client.query('COMMIT');
    return await answer;
  } finally {
    await client.end();
  }
}

describe('a holder’s write racing an administrator who ends the hold', () => {
  it('a comment answers LEASE_LOST and leaves nothing behind', async () => {
    const video = await waitingVideo('pending_analysis');
    const token = await claim('expert', video.id, expert);
    const res = (await releaseInFlight(video.id, 'pending_analysis', () =>
      ctx.inject({
        method: 'POST',
        url: `/v1/expert/videos/${video.id}/comments`,
        token: expert.token,
        body: { fencingToken: token, start: 3, text: 'Bonne exposition' },
      }),
    )) as Awaited<ReturnType<TestContext['inject']>>;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('LEASE_LOST');
    expect(await ctx.database.db.select().from(analysisComments).where(eq(analysisComments.videoId, video.id))).toEqual([]);
    expect(await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video.id))).toEqual([]);
  });

  it('an autosave of the analysis answers LEASE_LOST, not a draft that was never saved', async () => {
    const video = await waitingVideo('pending_analysis');
    const token = await claim('expert', video.id, expert);
    const res = (await releaseInFlight(video.id, 'pending_analysis', () =>
      ctx.inject({
        method: 'PUT',
        url: `/v1/expert/videos/${video.id}/analysis`,
        token: expert.token,
        body: { fencingToken: token, advice: 'Garder la traction' },
      }),
    )) as Awaited<ReturnType<TestContext['inject']>>;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('LEASE_LOST');
    expect(await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video.id))).toEqual([]);
  });

  it('an editor’s trims answer LEASE_LOST and the draft keeps what it had', async () => {
    const video = await waitingVideo('pending_preparation');
    const token = await claim('editor', video.id, editor);
    const res = (await releaseInFlight(video.id, 'pending_preparation', () =>
      ctx.inject({
        method: 'PUT',
        url: `/v1/editor/videos/${video.id}/trims`,
        token: editor.token,
        body: { fencingToken: token, trims: [{ start: 1, end: 9 }] },
      }),
    )) as Awaited<ReturnType<TestContext['inject']>>;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('LEASE_LOST');
    const [prep] = await ctx.database.db.select().from(preparations).where(eq(preparations.videoId, video.id));
    expect(prep?.trims ?? []).toEqual([]);
  });

  it('with the real endpoint, simultaneous comments and an end of hold never answer 500', async () => {
    const video = await waitingVideo('pending_analysis');
    const token = await claim('expert', video.id, expert);
    const comments = Array.from({ length: 8 }, (_, i) =>
      ctx.inject({
        method: 'POST',
        url: `/v1/expert/videos/${video.id}/comments`,
        token: expert.token,
        body: { fencingToken: token, start: i, text: `Remarque ${i}` },
      }),
    );
    const release = ctx.inject({ method: 'POST', url: `/v1/admin/surgery-videos/${video.id}/release`, token: admin.token, body: {} });
    const answers = await Promise.all([...comments, release]);
    expect(answers.at(-1)!.statusCode, answers.at(-1)!.body).toBe(200);
    for (const res of answers.slice(0, -1)) {
      expect([201, 200, 409], res.body).toContain(res.statusCode);
      if (res.statusCode === 409) expect(res.json().error.code).toBe('LEASE_LOST');
    }
    // Whatever was written before the end went with the draft.
    expect(await ctx.database.db.select().from(analysisComments).where(eq(analysisComments.videoId, video.id))).toEqual([]);
    const [after] = await ctx.database.db
      .select({ status: videos.status })
      .from(videos)
      .where(and(eq(videos.id, video.id)));
    expect(after!.status).toBe('pending_analysis');
  });
});

describe('a multipart body cut short is a 400', () => {
  const cut = (boundary: string, name: string, type: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x"\r\nContent-Type: ${type}\r\n\r\nabcdef`);

  it('for a voice advice, as for a picture and an avatar', async () => {
    const video = await waitingVideo('pending_analysis');
    const token = await claim('expert', video.id, expert);
    const boundary = 'cutshort';
    const voice = await ctx.inject({
      method: 'POST',
      url: `/v1/expert/videos/${video.id}/voice`,
      token: expert.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
      body: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fencingToken"\r\n\r\n${token}\r\n`),
        cut(boundary, 'file', 'audio/webm'),
      ]),
    });
    expect(voice.statusCode, voice.body).toBe(400);
    expect(voice.json().error).toMatchObject({ code: 'VALIDATION', details: [{ path: 'file', code: 'INVALID_VALUE' }] });

    for (const purpose of ['avatar', 'picture']) {
      const res = await ctx.inject({
        method: 'POST',
        url: '/v1/common/medias/create/upload',
        token: learner.token,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`),
          cut(boundary, 'file', 'image/png'),
        ]),
      });
      expect(res.statusCode, `${purpose}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION');
    }
  });
});
