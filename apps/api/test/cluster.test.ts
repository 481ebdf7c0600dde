// @database-server: the cluster (nginx, two API processes and a worker on the server's database) and a PostgreSQL server that restarts
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import S3rver from 's3rver';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import { openDatabase, type Database } from '../src/db/client.ts';
import { media, notifications, users, videos } from '../src/db/schema.ts';
import { testPeoplePasswordHash } from '../src/modules/auth/auth.service.ts';
import {
  createClusterDatabase,
  freePort,
  nginxBinary,
  postgresBin,
  startNginx,
  startThrowawayPostgres,
  startSutura,
  waitReady,
  waitUntil,
  type SuturaProcess,
} from './cluster-harness.ts';
import { makePatternClip } from './frame-pattern.ts';
import type { TestContext } from './harness.ts';
import { makeClip, tusMetadata, videoForm } from './video-fixtures.ts';

/**
 * Sutura as a cluster: nginx with the configuration of docs/production.md in front of two API processes
 * (WORKERS=off) and one worker process (WORKERS=only), on a fresh database of the PostgreSQL
 * server of TEST_DATABASE_URL and an S3-compatible server (s3rver). Every process is a real
 * `node apps/api/src/main.js`; everything started here is stopped in afterAll.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const enabled = Boolean(serverUrl && nginxBinary);

const AUTH_PER_MINUTE = 4;
const PASSWORD = 'cluster-password-1';
const JWT_SECRET = 'cluster-test-secret-cluster-test-secret-0123456789';
const METRICS_TOKEN = 'metrics-token-for-the-cluster-test';

interface Person {
  id: string;
  email: string;
  token: string;
}

let dir: string;
let dropDatabase: (() => Promise<void>) | undefined;
let database: Database | undefined;
let s3: S3rver | undefined;
let s3Port = 0;
const BUCKET = 'sutura-cluster';

/** s3rver on its port, its objects in the test's folder: stopped and started again by the S3 fault. */
async function startS3(): Promise<void> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: s3Port,
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: [{ name: BUCKET }],
  });
  s3Port = ((await server.run()) as AddressInfo).port;
  s3 = server;
}
let readyVideo1: { id: string; url: string } | undefined;
let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
const processes: SuturaProcess[] = [];
const sockets: Socket[] = [];
let env: Record<string, string>;
let ports: { a: number; b: number; nginx: number; workerMetrics: number };
let learner: Person;
let colleague: Person;
let editor: Person;
let clip: string;

const base = {
  a: () => `http://127.0.0.1:${ports.a}`,
  b: () => `http://127.0.0.1:${ports.b}`,
  proxy: () => `http://127.0.0.1:${ports.nginx}`,
};
let apiA: SuturaProcess;
let apiB: SuturaProcess;
let worker: SuturaProcess;

async function call(origin: string, method: string, url: string, who?: Person, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}/v1${url}`, {
    method,
    headers: {
      ...(who ? { authorization: `Bearer ${who.token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: { success: boolean; data?: unknown; error?: { code: string; message: string } } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

async function person(role: string): Promise<Person> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@cluster.example.org`;
  const [row] = await database!.db
    .insert(users)
    .values({
      email,
      passwordHash: await testPeoplePasswordHash(PASSWORD),
      roles: [role as 'learner'],
      firstName: 'Cluster',
      lastName: role,
      emailVerifiedAt: new Date(),
      preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' },
      notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    })
    .returning();
  const res = await call(base.proxy(), 'POST', '/auth', undefined, { email, password: PASSWORD });
  expect(res.status, res.text).toBe(200);
  return { id: row!.id, email, token: (res.json!.data as { token: string }).token };
}

function processEnv(name: string, port: number, workers: 'off' | 'only', extra: Record<string, string> = {}): Record<string, string> {
  return { ...env, PORT: String(port), WORKERS: workers, SCRATCH_DIR: path.join(dir, `scratch-${name}`), ...extra };
}

function tus(origin: string, method: string, url: string, who: Person, headers: Record<string, string> = {}, body?: Buffer) {
  return fetch(new URL(url, origin), {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${who.token}`, ...headers },
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}

async function newCase(who: Person): Promise<string> {
  const form = await videoForm({ database } as unknown as TestContext);
  const res = await call(base.proxy(), 'POST', '/videos', who, form);
  expect(res.status, res.text).toBe(201);
  return (res.json!.data as { id: string }).id;
}

async function videoRow(id: string) {
  const [row] = await database!.db.select().from(videos).where(eq(videos.id, id));
  return row!;
}

/** Creates the upload through `first`, sends half there, the rest through `second`. */
async function uploadAcross(who: Person, videoId: string, bytes: Buffer, first: string, second: string) {
  const created = await tus(first, 'POST', '/v1/uploads/', who, {
    'upload-length': String(bytes.length),
    'upload-metadata': tusMetadata({ videoId, filename: 'case.mp4', filetype: 'video/mp4' }),
  });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get('location')!, first).pathname;
  const half = Math.floor(bytes.length / 2);
  const head = { 'content-type': 'application/offset+octet-stream' };
  const p1 = await tus(first, 'PATCH', location, who, { ...head, 'upload-offset': '0' }, bytes.subarray(0, half));
  expect(p1.status).toBe(204);
  const offset = Number((await tus(second, 'HEAD', location, who)).headers.get('upload-offset'));
  expect(offset).toBe(half);
  const p2 = await tus(second, 'PATCH', location, who, { ...head, 'upload-offset': String(half) }, bytes.subarray(half));
  expect(p2.status).toBe(204);
  return { location, requestId: p2.headers.get('x-request-id') };
}

async function readyVideo(who: Person, bytes: Buffer): Promise<string> {
  const id = await newCase(who);
  await uploadAcross(who, id, bytes, base.a(), base.b());
  await waitUntil('the video to be processed', async () => ((await videoRow(id)).mediaStatus === 'ready' ? true : undefined), 90_000);
  return id;
}

async function submitPreparation(origin: string, videoId: string, trims: { start: number; end: number }[]) {
  const claim = await call(origin, 'POST', `/editor/videos/${videoId}/claim`, editor, {});
  expect(claim.status, claim.text).toBe(200);
  const fencingToken = (claim.json!.data as { fencingToken: number }).fencingToken;
  // Steps in the source's time, inside the kept parts: one per part, or the only part in two.
  const steps =
    trims.length > 1
      ? trims.map((t, i) => ({ surgeryStepId: null, name: `Step ${i + 1}`, start: t.start, end: t.end }))
      : [
          { surgeryStepId: null, name: 'Exposure', start: trims[0]!.start, end: (trims[0]!.start + trims[0]!.end) / 2 },
          { surgeryStepId: null, name: 'Dissection', start: (trims[0]!.start + trims[0]!.end) / 2, end: trims[0]!.end },
        ];
  for (const [method, url, body] of [
    ['PUT', 'trims', { fencingToken, trims }],
    ['PUT', 'phase', { fencingToken, phase: 'steps' }],
    ['PUT', 'steps', { fencingToken, steps }],
    ['POST', 'submit', { fencingToken }],
  ] as const) {
    const res = await call(origin, method, `/editor/videos/${videoId}/${url}`, editor, body);
    expect(res.status, `${url}: ${res.text}`).toBe(200);
  }
}

async function renderJobs(videoId: string) {
  const { rows } = await database!.pool.query<{ state: string; retry_count: number }>(
    `select state::text, retry_count from pgboss.job where name = 'preparation.render' and data->>'videoId' = $1`,
    [videoId],
  );
  return rows;
}

async function preparedFiles(videoId: string) {
  const rows = await database!.db
    .select()
    .from(media)
    .where(and(eq(media.videoId, videoId), eq(media.kind, 'prepared-video')));
  return rows.length;
}

describe.skipIf(!enabled)('Sutura as a cluster behind nginx', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sutura-cluster-'));
    const db = await createClusterDatabase(serverUrl!);
    dropDatabase = db.drop;
    await startS3();
    ports = { a: await freePort(), b: await freePort(), nginx: await freePort(), workerMetrics: await freePort() };
    const vapid = webpush.generateVAPIDKeys();
    env = {
      DATABASE_URL: db.url,
      // One media folder for the tus uploads of every process (one host); the media in S3.
      DATA_DIR: path.join(dir, 'data'),
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      // s3rver's own keys.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      JWT_SECRET,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUBLIC_URL: `http://127.0.0.1:${ports.nginx}`,
      HOST: '127.0.0.1',
      TRUST_PROXY: '127.0.0.1',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'info',
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE),
      METRICS_TOKEN,
      JOB_HEARTBEAT_SECONDS: '10',
      SHUTDOWN_GRACE_SECONDS: '5',
    };
    // A applies the migrations and seeds the vocabulary; B and the worker start on that database.
    apiA = await startSutura('api-a', processEnv('a', ports.a, 'off'), dir);
    processes.push(apiA);
    await waitReady(apiA, base.a());
    apiB = await startSutura('api-b', processEnv('b', ports.b, 'off'), dir);
    worker = await startSutura('worker', processEnv('w', 0, 'only', { METRICS_PORT: String(ports.workerMetrics) }), dir);
    processes.push(apiB, worker);
    await waitReady(apiB, base.b());
    await waitUntil('the worker to serve its metrics', async () => {
      const res = await fetch(`http://127.0.0.1:${ports.workerMetrics}/metrics`);
      return res.ok ? true : undefined;
    });
    nginx = await startNginx({ port: ports.nginx, upstreams: [ports.a, ports.b], dir: path.join(dir, 'nginx') });
    database = await openDatabase({ url: db.url });
    learner = await person('learner');
    colleague = await person('learner');
    editor = await person('editor');
    clip = path.join(dir, 'clip.mp4');
    makeClip(clip, 4);
  }, 180_000);

  afterAll(async () => {
    // Each step runs whatever happened to the one before: nothing started here outlives the file.
    const quietly = (step: () => Promise<unknown> | undefined) => Promise.resolve(step()).catch(() => undefined);
    for (const socket of sockets) socket.close();
    await Promise.all(processes.map((p) => quietly(() => p.stop(5000))));
    await quietly(() => nginx?.stop());
    await quietly(() => database?.close());
    await quietly(() => s3?.close());
    await quietly(() => dropDatabase?.());
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('answers through nginx, with the request id nginx gives, and each API process is ready', async () => {
    const res = await call(base.proxy(), 'GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.json!.data).toMatchObject({ ready: true, checks: { database: true, queue: true, storage: true, mediaPipeline: true } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    for (const origin of [base.a(), base.b()]) expect((await call(origin, 'GET', '/health')).status).toBe(200);
  });

  it('brings a notification made through A to a socket connected to B', async () => {
    const socket = io(base.b(), { auth: { token: colleague.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => socket.emit(SOCKET_EVENTS.initialize, { id: colleague.id }, () => resolve()));
      socket.once('connect_error', reject);
    });
    const received = new Promise<{ key?: string; content: string }>((resolve) => socket.once(SOCKET_EVENTS.notificationReceived, resolve));
    const videoId = await newCase(learner);
    const shared = await call(base.a(), 'POST', `/videos/${videoId}/shares`, learner, { email: colleague.email });
    expect(shared.status, shared.text).toBe(200);
    const notification = await Promise.race([
      received,
      new Promise<never>((_r, reject) => setTimeout(() => reject(new Error('no notification on B')), 15_000)),
    ]);
    const [stored] = await database!.db.select().from(notifications).where(eq(notifications.userId, colleague.id));
    expect(stored).toBeDefined();
    expect(notification).toMatchObject({ id: stored!.id });
    expect(notification.content.length).toBeGreaterThan(0);
  });

  it('finishes through B an upload started through A; the worker processes it; signed links work through both', async () => {
    const bytes = await readFile(clip);
    const videoId = await newCase(learner);
    const { requestId } = await uploadAcross(learner, videoId, bytes, base.a(), base.b());
    await waitUntil(
      'the video to be processed',
      async () => ((await videoRow(videoId)).mediaStatus === 'ready' ? true : undefined),
      90_000,
    );
    // The request id of the upload's last request follows the job into the worker's log lines.
    expect(requestId).toBeTruthy();
    await waitUntil('the worker to log the job under the request id', async () =>
      (await worker.log()).includes(`"requestId":"${requestId}"`) ? true : undefined,
    );

    const detail = await call(base.proxy(), 'GET', `/videos/${videoId}`, learner);
    const url = (detail.json!.data as { videoUrl: string }).videoUrl;
    expect(url).toMatch(/^\/v1\/media\//);
    const bodies: string[] = [];
    for (const origin of [base.a(), base.b(), base.proxy()]) {
      const res = await fetch(`${origin}${url}`, { headers: { range: 'bytes=0-1023' } });
      expect(res.status, origin).toBe(206);
      bodies.push(
        createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex'),
      );
    }
    expect(new Set(bodies).size).toBe(1);
    readyVideo1 = { id: videoId, url };
    const tampered = await fetch(`${base.b()}${url.replace(/sig=[^&]+/, 'sig=AAAA')}`);
    expect(tampered.status).toBe(404);
  }, 120_000);

  it('plays the ladder the worker made through both API processes and nginx', async () => {
    expect(readyVideo1).toBeDefined();
    // The signed link may have been issued a while ago: a fresh one.
    const detail = await call(base.proxy(), 'GET', `/videos/${readyVideo1!.id}`, learner);
    const url = (detail.json!.data as { videoUrl: string }).videoUrl;
    const master = url.replace('?', '/hls/master.m3u8?');
    await waitUntil('the ladder', async () => ((await fetch(`${base.proxy()}${master}`)).status === 200 ? true : undefined), 90_000);
    const playlist = await (await fetch(`${base.a()}${master}`)).text();
    const rung = playlist.split('\n').find((line) => line.startsWith('src/index.m3u8?'))!;
    expect(rung).toBeTruthy();
    const prefix = master.slice(0, master.indexOf('master.m3u8'));
    const segments = (await (await fetch(`${base.b()}${prefix}${rung}`)).text()).split('\n').filter((l) => l.startsWith('seg-'));
    expect(segments.length).toBeGreaterThan(0);
    const bodies: string[] = [];
    for (const origin of [base.a(), base.b(), base.proxy()]) {
      const res = await fetch(`${origin}${prefix}src/${segments[0]}`);
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      bodies.push(
        createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex'),
      );
    }
    expect(new Set(bodies).size).toBe(1);
  }, 120_000);

  it('renders once a preparation submitted through B', async () => {
    const videoId = await readyVideo(learner, await readFile(clip));
    const sent = await call(base.a(), 'POST', `/videos/${videoId}/send`, learner, { priority: false });
    expect(sent.status, sent.text).toBe(200);
    await submitPreparation(base.b(), videoId, [{ start: 0, end: 3 }]);
    await waitUntil('the render', async () => ((await videoRow(videoId)).status === 'pending_analysis' ? true : undefined), 90_000);
    // The job is marked completed once its handler has returned.
    const jobs = await waitUntil('the render job to complete', async () => {
      const rows = await renderJobs(videoId);
      return rows.every((j) => j.state === 'completed') ? rows : undefined;
    });
    expect(jobs).toHaveLength(1);
    expect(await preparedFiles(videoId)).toBe(1);
  }, 150_000);

  it('holds the sign-in rate limit across the two API processes', async () => {
    const target = await person('learner');
    const statuses: number[] = [];
    // Wrong passwords for one account, alternately through A and B.
    for (let i = 0; i < AUTH_PER_MINUTE + 2; i++) {
      const origin = i % 2 ? base.b() : base.a();
      statuses.push((await call(origin, 'POST', '/auth', undefined, { email: target.email, password: 'wrong-password-9' })).status);
    }
    // `person` signed in once already: one attempt of the minute is spent.
    expect(statuses.slice(0, AUTH_PER_MINUTE - 1).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(AUTH_PER_MINUTE - 1)).toEqual([429, 429, 429]);
    const limited = await call(base.b(), 'POST', '/auth?langCode=fr', undefined, { email: target.email, password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.json!.error!.code).toBe('RATE_LIMITED');
  });

  it('exposes metrics to a bearer of the token and on the worker’s internal listener, never through nginx', async () => {
    expect((await fetch(`${base.a()}/metrics`)).status).toBe(404);
    expect((await fetch(`${base.a()}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token-1234' } })).status).toBe(404);
    const a = await fetch(`${base.a()}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(a.status).toBe(200);
    const text = await a.text();
    expect(text).toMatch(/sutura_http_request_duration_seconds_count\{method="POST",route="\/v1\/uploads\/",status="201"\} \d+/);
    expect(text).toMatch(/sutura_upload_bytes_total \d+/);
    expect(text).toMatch(/sutura_realtime_sockets \d+/);
    expect(text).toMatch(/sutura_queue_jobs/);
    const w = await (await fetch(`http://127.0.0.1:${ports.workerMetrics}/metrics`)).text();
    expect(w).toMatch(/sutura_job_duration_seconds_count\{kind="video.process",outcome="completed"\} [1-9]/);
    expect((await fetch(`${base.proxy()}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
  });

  describe('faults', () => {
    it('resumes through B an upload whose API process A was killed in the middle of a request', async () => {
      const bytes = await readFile(clip);
      const videoId = await newCase(learner);
      const created = await tus(base.a(), 'POST', '/v1/uploads/', learner, {
        'upload-length': String(bytes.length),
        'upload-metadata': tusMetadata({ videoId, filename: 'case.mp4', filetype: 'video/mp4' }),
      });
      const location = new URL(created.headers.get('location')!, base.a()).pathname;
      const octets = { 'content-type': 'application/offset+octet-stream' };
      // A first request through A completes: its bytes are kept, whatever happens to A next.
      const kept = Math.floor(bytes.length / 4);
      const first = await tus(base.a(), 'PATCH', location, learner, { ...octets, 'upload-offset': '0' }, bytes.subarray(0, kept));
      expect(first.status).toBe(204);
      // The next one sends part of the rest, then A dies with SIGKILL in the middle of it.
      const req = http.request(`${base.a()}${location}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${learner.token}`,
          'tus-resumable': '1.0.0',
          'upload-offset': String(kept),
          ...octets,
          'content-length': String(bytes.length - kept),
        },
      });
      req.on('error', () => {});
      const sent = kept + Math.floor((bytes.length - kept) / 3);
      await new Promise<void>((resolve) => req.write(bytes.subarray(kept, sent), () => resolve()));
      await new Promise((r) => setTimeout(r, 500));
      await apiA.kill();
      req.destroy();
      try {
        // B knows how far the upload got: at least what A acknowledged (with local files, also
        // what A had written of the cut request; with S3, parts are kept once a request ends).
        const offset = Number((await tus(base.b(), 'HEAD', location, learner)).headers.get('upload-offset'));
        expect(offset).toBeGreaterThanOrEqual(kept);
        expect(offset).toBeLessThanOrEqual(sent);
        const rest = await tus(
          base.b(),
          'PATCH',
          location,
          learner,
          { 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
          bytes.subarray(offset),
        );
        expect(rest.status).toBe(204);
        await waitUntil(
          'the video to be processed',
          async () => ((await videoRow(videoId)).mediaStatus === 'ready' ? true : undefined),
          90_000,
        );
        // Through nginx meanwhile: A is down, B answers every request.
        for (let i = 0; i < 4; i++) expect((await call(base.proxy(), 'GET', '/health')).status).toBe(200);
      } finally {
        apiA = await startSutura('api-a', apiA.env, dir);
        processes.push(apiA);
        await waitReady(apiA, base.a());
      }
    }, 150_000);

    it('completes exactly once a render whose worker was killed with SIGKILL in the middle, and the case is never stuck', async () => {
      // A longer source re-encoded at uneven cuts, so that the render is still running when the worker dies.
      const long = path.join(dir, 'long.mp4');
      await makePatternClip({ seconds: 40, frameRate: 25, gop: 10, width: 640, height: 360 }, long);
      const videoId = await readyVideo(learner, await readFile(long));
      expect((await call(base.a(), 'POST', `/videos/${videoId}/send`, learner, { priority: false })).status).toBe(200);
      await submitPreparation(base.b(), videoId, [
        { start: 0.52, end: 17.36 },
        { start: 21.12, end: 38.88 },
      ]);
      await waitUntil('the render to start', async () => ((await renderJobs(videoId))[0]?.state === 'active' ? true : undefined), 60_000);
      await worker.kill();
      worker = await startSutura('worker', worker.env, dir);
      processes.push(worker);
      expect((await renderJobs(videoId))[0]!.state).toBe('active');
      expect(await videoRow(videoId)).toMatchObject({ status: 'processing' });

      await waitUntil(
        'the render after the restart',
        async () => ((await videoRow(videoId)).status === 'pending_analysis' ? true : undefined),
        150_000,
      );
      const jobs = await waitUntil('the render job to complete', async () => {
        const rows = await renderJobs(videoId);
        return rows.every((j) => j.state === 'completed') ? rows : undefined;
      });
      expect(jobs).toHaveLength(1);
      expect(await preparedFiles(videoId)).toBe(1);
      expect(jobs[0]!.retry_count).toBeGreaterThanOrEqual(1);
      const told = await database!.db.select().from(notifications).where(eq(notifications.userId, learner.id));
      expect(told.filter((n) => n.key === 'videoPrepared' && n.link === `/videos/${videoId}`)).toHaveLength(1);
    }, 240_000);

    it('fails reads and uploads with a clear message while the S3 server is stopped, leaves nothing half-written, and resumes when it returns', async () => {
      expect(readyVideo1).toBeDefined();
      const picture = path.join(dir, 'picture.png');
      execFileSync('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x240',
        '-frames:v',
        '1',
        picture,
      ]);
      const caseId = await newCase(learner);
      const upload = async (origin: string) => {
        const form = new FormData();
        form.set('purpose', 'picture');
        form.set('videoId', caseId);
        form.set('file', new Blob([new Uint8Array(await readFile(picture))], { type: 'image/png' }), 'picture.png');
        const res = await fetch(`${origin}/v1/common/medias/create/upload?langCode=en`, {
          method: 'POST',
          headers: { authorization: `Bearer ${learner.token}` },
          body: form,
        });
        return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
      };
      const pictures = async () =>
        (
          await database!.db
            .select()
            .from(media)
            .where(and(eq(media.videoId, caseId), eq(media.kind, 'picture')))
        ).length;
      const objects = async () =>
        (await readdir(path.join(dir, 's3', BUCKET), { recursive: true }).catch(() => [] as string[])).filter(
          (f) => f.includes(caseId) && f.endsWith('._S3rver_object'),
        );

      await s3!.close();
      s3 = undefined;
      try {
        for (const origin of [base.a(), base.b()]) {
          const read = await fetch(`${origin}${readyVideo1!.url}`, { headers: { range: 'bytes=0-1023' } });
          expect(read.status, origin).toBe(503);
          expect(((await read.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
          const refused = await upload(origin);
          expect(refused.status, JSON.stringify(refused.body)).toBe(503);
          expect(refused.body.error!.message).toMatch(/briefly unavailable/);
        }
        expect((await call(base.a(), 'GET', '/ready')).json!.data).toMatchObject({
          ready: false,
          checks: { storage: false, database: true },
        });
        expect(await pictures()).toBe(0);
      } finally {
        await startS3();
      }
      const read = await fetch(`${base.b()}${readyVideo1!.url}`, { headers: { range: 'bytes=0-1023' } });
      expect(read.status).toBe(206);
      const stored = await upload(base.a());
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(await pictures()).toBe(1);
      // The refused uploads left no object behind: one picture, its one object.
      expect(await objects()).toHaveLength(1);
      expect((await call(base.a(), 'GET', '/ready')).status).toBe(200);
    }, 60_000);

    it('stops on SIGTERM: the socket of a client is closed so that it reconnects to the other process', async () => {
      const socket = io(base.b(), { auth: { token: colleague.token }, transports: ['websocket'], reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const reason = new Promise<string>((resolve) => socket.once('disconnect', (r) => resolve(r)));
      const started = Date.now();
      await apiB.stop(10_000);
      // Closed at the transport, which a client takes as a lost connection (it reconnects).
      expect(await reason).toBe('transport close');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await apiB.log()).toMatch(/"msg":"stopped"/);
      for (let i = 0; i < 4; i++) expect((await call(base.proxy(), 'GET', '/health')).status).toBe(200);
      apiB = await startSutura('api-b', apiB.env, dir);
      processes.push(apiB);
      await waitReady(apiB, base.b());
    }, 60_000);
  });
});

// With the other database server tests (TEST_DATABASE_URL set), from the binaries of that installation:
// its own throwaway server, which it stops and starts again.
describe.skipIf(!postgresBin || !serverUrl)('Sutura when its PostgreSQL server restarts', () => {
  let pgDir: string;
  let server: Awaited<ReturnType<typeof startThrowawayPostgres>> | undefined;
  const started: SuturaProcess[] = [];
  let api: string;

  beforeAll(async () => {
    pgDir = await mkdtemp(path.join(tmpdir(), 'sutura-pg-restart-'));
    server = await startThrowawayPostgres(path.join(pgDir, 'server'));
    const url = new URL(server.url);
    url.pathname = '/sutura';
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE sutura');
    await admin.end();
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const common = {
      DATABASE_URL: url.href,
      DATA_DIR: path.join(pgDir, 'data'),
      JWT_SECRET,
      HOST: '127.0.0.1',
      DEMO_DATA: 'off',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_SECONDS: '5',
    };
    const vapid = webpush.generateVAPIDKeys();
    const keys = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey };
    const a = await startSutura('pg-api', { ...common, ...keys, PORT: String(port), WORKERS: 'off' }, pgDir);
    started.push(a);
    await waitReady(a, api);
    started.push(await startSutura('pg-worker', { ...common, ...keys, WORKERS: 'only' }, pgDir));
    await waitUntil('the worker to start', async () => ((await started[1]!.log()).includes('worker process started') ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((p) => p.stop(5000)));
    await server?.destroy();
    if (pgDir) await rm(pgDir, { recursive: true, force: true });
  }, 60_000);

  it('answers 503 with a clear message while it is away, loses no write, and every process recovers by itself', async () => {
    const url = new URL(server!.url);
    url.pathname = '/sutura';
    const db = await openDatabase({ url: url.href });
    const email = `restart-${Date.now()}@cluster.example.org`;
    await db.db.insert(users).values({
      email,
      passwordHash: await testPeoplePasswordHash(PASSWORD),
      roles: ['learner'],
      firstName: 'Restart',
      lastName: 'Learner',
      emailVerifiedAt: new Date(),
      preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' },
      notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    });
    const colleagueEmail = `colleague-${Date.now()}@cluster.example.org`;
    await db.db.insert(users).values({
      email: colleagueEmail,
      passwordHash: await testPeoplePasswordHash(PASSWORD),
      roles: ['learner'],
      firstName: 'Restart',
      lastName: 'Colleague',
      emailVerifiedAt: new Date(),
      preferences: { ...DEFAULT_PREFERENCES, langCode: 'en' },
      notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    });
    const form = await videoForm({ database: db } as unknown as TestContext);
    await db.close();
    const signIn = await call(api, 'POST', '/auth', undefined, { email, password: PASSWORD });
    const who = { id: '', email, token: (signIn.json!.data as { token: string }).token };
    const acknowledged: string[] = [];
    const create = () => call(api, 'POST', '/videos', who, form);
    const first = await create();
    expect(first.status, first.text).toBe(201);
    acknowledged.push((first.json!.data as { id: string }).id);

    await server!.stop();
    for (const lang of ['en', 'fr']) {
      const refused = await call(api, 'POST', `/videos?langCode=${lang}`, who, form);
      expect(refused.status, refused.text).toBe(503);
      expect(refused.json!.error!.code).toBe('SERVICE_UNAVAILABLE');
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.json!.error!.message).toMatch(lang === 'en' ? /briefly unavailable/ : /momentanément indisponible/);
    }
    const notReady = await call(api, 'GET', '/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.json!.data).toMatchObject({ ready: false, checks: { database: false } });
    expect((await call(api, 'GET', '/health')).status).toBe(200);

    await server!.start();
    // No process is restarted: the API answers again by itself…
    const again = await waitUntil(
      'the API to write again',
      async () => {
        const res = await create();
        return res.status === 201 ? res : undefined;
      },
      30_000,
    );
    acknowledged.push((again.json!.data as { id: string }).id);
    expect((await call(api, 'GET', '/ready')).status).toBe(200);
    // …and the worker takes jobs again: a share's notification mail is written by it.
    const shared = await call(api, 'POST', `/videos/${acknowledged[1]}/shares`, who, { email: colleagueEmail });
    expect(shared.status, shared.text).toBe(200);
    await waitUntil(
      'the worker to send the mail',
      async () => {
        const files = await readdir(path.join(pgDir, 'data', 'outbox')).catch(() => [] as string[]);
        return files.some((f) => f.endsWith(`-${colleagueEmail}.eml`)) ? true : undefined;
      },
      60_000,
    );
    // Every acknowledged write is there, the refused ones are not.
    const list = await call(api, 'GET', '/videos?limit=100', who);
    const ids = (list.json!.data as { data: { id: string }[] }).data.map((v) => v.id).sort();
    expect(ids).toEqual([...acknowledged].sort());
  }, 120_000);
});
