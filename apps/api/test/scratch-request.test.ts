import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses, videos } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

/**
 * An HTTP request that needs the scratch space (a voice advice: the recording and its transcode)
 * waits a bounded time for room (SCRATCH_REQUEST_WAIT_SECONDS), then is answered SCRATCH_BUSY,
 * 503 with Retry-After, in the caller's language, having changed nothing; once there is room,
 * the same request succeeds and leaves nothing in the scratch space.
 */
const MAX_BYTES = 64 * 1024 * 1024;
let ctx: TestContext;
let work: string;
let scratchDir: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'sutura-scratch-request-'));
  scratchDir = path.join(work, 'scratch');
  ctx = await createTestContext({
    env: { SCRATCH_DIR: scratchDir, SCRATCH_MAX_BYTES: String(MAX_BYTES), SCRATCH_REQUEST_WAIT_SECONDS: '1' },
  });
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function voiceUpload(videoId: string, token: number, bytes: Buffer, expertToken: string, lang: 'fr' | 'en') {
  const boundary = `----sutura${Math.random().toString(16).slice(2)}`;
  return ctx.app.inject({
    method: 'POST',
    url: `/v1/expert/videos/${videoId}/voice`,
    headers: {
      authorization: `Bearer ${expertToken}`,
      'accept-language': lang,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="fencingToken"\r\n\r\n${token}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="voice.webm"\r\nContent-Type: audio/webm\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
}

describe('a request that needs scratch space while it is full', () => {
  it('answers SCRATCH_BUSY (503, Retry-After) after a bounded wait, changes nothing, and succeeds once there is room', async () => {
    const learner = await ctx.createUser('learner');
    const expert = await ctx.createUser('expert');
    const { kind: _kind, ...fields } = await videoForm(ctx);
    const [video] = await ctx.database.db
      .insert(videos)
      .values({
        ...fields,
        authorId: learner.id,
        kind: 'video',
        status: 'pending_analysis',
        mediaStatus: 'ready',
        duration: 60,
        sentAt: new Date(),
      })
      .returning();
    const claimed = await ctx.inject({ method: 'POST', url: `/v1/expert/videos/${video!.id}/claim`, token: expert.token, body: {} });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const fencingToken = claimed.json().data.fencingToken as number;

    const recording = path.join(work, 'voice.webm');
    execFileSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=2'],
        ...['-c:a', 'libopus', '-b:a', '24k', '-f', 'webm', recording],
      ],
      { stdio: 'ignore' },
    );
    const bytes = await readFile(recording);

    // Another live process of the host (the test runner's parent) holds the whole bound: a sparse
    // file counts for its size without filling the disk.
    const others = path.join(scratchDir, `render-${process.ppid}.0badc0de-held`);
    await mkdir(others, { recursive: true });
    await writeFile(path.join(others, 'source.mp4'), '');
    await truncate(path.join(others, 'source.mp4'), MAX_BYTES);

    const started = performance.now();
    const refused = await voiceUpload(video!.id, fencingToken, bytes, expert.token, 'fr');
    const waited = performance.now() - started;
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toMatchObject({
      success: false,
      error: { code: 'SCRATCH_BUSY', message: expect.stringContaining("pas d'espace de travail libre") },
    });
    // It waited for room (1 s here), and no longer.
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(15_000);
    const [draft] = await ctx.database.db.select().from(analyses).where(eq(analyses.videoId, video!.id));
    expect(draft?.voiceMediaId ?? null).toBeNull();
    expect((await readdir(scratchDir)).sort()).toEqual([path.basename(others)]);

    // In English too.
    const english = await voiceUpload(video!.id, fencingToken, bytes, expert.token, 'en');
    expect(english.statusCode).toBe(503);
    expect(english.json().error.message).toContain('no working space free');

    // Room again: the same request is stored, and its folder is gone afterwards.
    await rm(others, { recursive: true, force: true });
    const stored = await voiceUpload(video!.id, fencingToken, bytes, expert.token, 'en');
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json().data).toMatchObject({ contentType: 'audio/mp4' });
    expect(await readdir(scratchDir)).toEqual([]);
  }, 120_000);
});
