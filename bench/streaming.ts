/**
 * Adaptive streaming measured in a real browser on emulated links (docs/streaming.md).
 * Usage: node bench/streaming.ts   (BENCH_SECONDS: the clip's length and the playback watched,
 *                                   default 120; CHROMIUM_PATH: default /usr/bin/chromium)
 *
 * In one run:
 *   1. makes a 1080p clip (25 fps, a moving pattern under grain, ~6 Mbit/s: as hard to compress as
 *      a laparoscopy) and starts the real server (apps/api/src/main.js, temporary DATA_DIR, demo
 *      accounts), which serves the built web app;
 *   2. the demo learner uploads it by tus; once the video is ready, times the worker making its
 *      ladder (this machine, every core), and weighs the ladder against the MP4;
 *   3. in Chromium, with DevTools network emulation (Network.emulateNetworkConditions, cache
 *      disabled), opens the case on three links: 3 Mbit/s with 40 ms latency, 1 Mbit/s with 40 ms,
 *      and unthrottled; presses play as soon as the player knows how it plays, and watches the
 *      whole playback: time from play to the first frame presented, stalls (`waiting` after the
 *      first frame), the rungs played over time, when the top one was reached.
 * Targets: first frame ≤ 2 s and no stall at 3 Mbit/s; 360p and no stall at 1 Mbit/s; the top rung
 * within 10 s unthrottled.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SECONDS = Math.max(20, Number(process.env.BENCH_SECONDS ?? 120));
const DEMO_LEARNER = { email: 'learner@sutura.local', password: 'sutura2026' };
const LINKS = [
  { name: '3 Mbit/s, 40 ms', kbps: 3000, latency: 40 },
  { name: '1 Mbit/s, 40 ms', kbps: 1000, latency: 40 },
  { name: 'unthrottled', kbps: 0, latency: 0 },
];

const say = (line: string) => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function makeClip(file: string): void {
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=25:duration=${SECONDS},noise=alls=12:allf=t`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M', '-maxrate', '7M', '-bufsize', '12M', '-g', '50', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart', file],
    ],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('the clip was not made');
}

async function api<T>(base: string, method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { success: boolean; data: T; error?: unknown };
  if (!json.success) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
}

/** The demo learner's case with the clip, uploaded by tus; answers its id once ready. */
async function uploadCase(base: string, token: string, clip: string): Promise<string> {
  const surgeries = await api<{ id: string; organId: string | null; steps: { id: string }[] }[]>(
    base,
    'GET',
    '/v1/vocabularies/surgeries',
    token,
  );
  const surgery = surgeries.find((s) => s.organId && s.steps.length >= 2)!;
  const { id } = await api<{ id: string }>(base, 'POST', '/v1/videos', token, {
    kind: 'video',
    surgeryId: surgery.id,
    organId: surgery.organId,
    keyStepIds: surgery.steps.slice(0, 2).map((s) => s.id),
    equipmentBrand: 'Intuitive Surgical',
    equipmentUsed: 'da Vinci Xi',
    ageRange: '45_59',
    patientSex: 'man',
    bmi: 'under_30',
    complication: false,
    surgicalHistory: '',
    radiationHistory: false,
    medicalBackground: [],
    mainHand: 'right',
    surgeryDuration: 95,
    messageToProctor: 'Streaming benchmark',
    nasaTlx: { mentalDemand: 50, physicalDemand: 50, temporalDemand: 50, performance: 50, effort: 50, frustration: 50 },
  });
  const bytes = await readFile(clip);
  const created = await fetch(`${base}/v1/uploads/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `videoId ${Buffer.from(id).toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
    },
  });
  if (created.status !== 201) throw new Error(`tus create: ${created.status}`);
  const location = new URL(created.headers.get('location')!, base).pathname;
  const patched = await fetch(`${base}${location}`, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  if (patched.status !== 204) throw new Error(`tus patch: ${patched.status}`);
  await until(
    'the video ready',
    async () => ((await api<{ mediaStatus: string }>(base, 'GET', `/v1/videos/${id}`, token)).mediaStatus === 'ready' ? true : undefined),
    30 * 60_000,
  );
  return id;
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

interface Watch {
  firstFrameMs: number;
  stalls: number;
  stalledMs: number;
  rungs: { at: number; height: number }[];
  topAtMs: number | null;
  finalHeight: number | null;
  mode: string;
}

async function watch(base: string, videoId: string, link: (typeof LINKS)[number], top: number): Promise<Watch> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const session = await context.request.post(`${base}/v1/auth`, {
      data: DEMO_LEARNER,
      headers: { 'x-sutura-session': 'cookie' },
    });
    if (session.status() !== 200) throw new Error(`sign-in: ${session.status()}`);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (link.kbps > 0) {
      const bytesPerSecond = (link.kbps * 1000) / 8;
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: link.latency,
        downloadThroughput: bytesPerSecond,
        uploadThroughput: bytesPerSecond,
      });
    }
    await page.goto(`${base}/videos/${videoId}`);
    const player = page.getByTestId('video-player');
    await player.waitFor({ timeout: 60_000 });
    await until(
      'the player chose how it plays',
      async () => ((await player.getAttribute('data-playback')) !== 'pending' ? true : undefined),
      60_000,
      50,
    );
    const mode = (await player.getAttribute('data-playback')) ?? '';
    // Watched from inside the page: the first frame presented, every stall, the rung of each moment.
    await page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="video-player"] video')!;
      const w = window as unknown as { watch: { pressed: number; first: number; stalls: number; stalledMs: number; since: number } };
      w.watch = { pressed: performance.now(), first: 0, stalls: 0, stalledMs: 0, since: 0 };
      v.requestVideoFrameCallback(() => {
        w.watch.first = performance.now();
      });
      v.addEventListener('waiting', () => {
        if (w.watch.first && !v.seeking && !v.ended) {
          w.watch.stalls += 1;
          w.watch.since = performance.now();
        }
      });
      v.addEventListener('playing', () => {
        if (w.watch.since) w.watch.stalledMs += performance.now() - w.watch.since;
        w.watch.since = 0;
      });
      v.muted = true;
      void v.play();
    });
    const started = Date.now();
    const rungs: { at: number; height: number }[] = [];
    let topAtMs: number | null = null;
    const playbackEnd = started + (SECONDS + 30) * 1000;
    for (;;) {
      const state = await page.evaluate(() => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="video-player"] video')!;
        return {
          time: v.currentTime,
          ended: v.ended,
          quality: document.querySelector('[data-testid="video-player"]')!.getAttribute('data-quality'),
        };
      });
      const height = state.quality ? Number(state.quality) : null;
      if (height !== null && rungs.at(-1)?.height !== height) rungs.push({ at: Date.now() - started, height });
      if (height === top && topAtMs === null) topAtMs = Date.now() - started;
      if (state.ended || state.time >= SECONDS - 0.5 || Date.now() > playbackEnd) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const measured = await page.evaluate(
      () => (window as unknown as { watch: { pressed: number; first: number; stalls: number; stalledMs: number } }).watch,
    );
    return {
      firstFrameMs: Math.round(measured.first - measured.pressed),
      stalls: measured.stalls,
      stalledMs: Math.round(measured.stalledMs),
      rungs,
      topAtMs,
      finalHeight: rungs.at(-1)?.height ?? null,
      mode,
    };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const build = spawnSync('npm', ['run', 'build', '-w', '@sutura/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('the web app did not build');
  const work = await mkdtemp(path.join(tmpdir(), 'sutura-bench-streaming-'));
  await chmod(work, 0o711);
  const clip = path.join(work, 'case-1080p.mp4');
  say(`making a ${SECONDS} s 1080p clip…`);
  makeClip(clip);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(work, 'data');
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/api/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'on',
      DEMO_VIDEOS: 'off',
      // A signed URL outlives the playback watched (and its stalls, on the slowest link).
      SIGNED_URL_TTL_SECONDS: '3600',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await until('the server', async () => ((await fetch(`${base}/v1/health`)).ok ? true : undefined), 180_000);
    const { token } = await api<{ token: string }>(base, 'POST', '/v1/auth', null, DEMO_LEARNER);
    const videoId = await uploadCase(base, token, clip);
    const readyAt = Date.now();
    const { videoUrl } = await api<{ videoUrl: string }>(base, 'GET', `/v1/videos/${videoId}`, token);
    const master = `${base}${videoUrl.replace('?', '/hls/master.m3u8?')}`;
    await until('the ladder', async () => ((await fetch(master)).status === 200 ? true : undefined), 60 * 60_000, 500);
    const ladderSeconds = (Date.now() - readyAt) / 1000;
    const videoDir = path.join(dataDir, 'media', 'videos', videoId);
    const mp4 = (await stat(path.join(videoDir, 'video.mp4'))).size;
    const ladder = await bytesUnder(path.join(videoDir, 'hls'));
    const perHour = (ladderSeconds * 3600) / SECONDS / 60;
    say(`ladder: ${ladderSeconds.toFixed(1)} s of worker time for ${SECONDS} s of 1080p, ${perHour.toFixed(0)} min per hour of 1080p`);
    say(
      `storage: MP4 ${(mp4 / 1e6).toFixed(1)} MB, ladder ${(ladder / 1e6).toFixed(1)} MB, overhead ×${(ladder / mp4).toFixed(2)} of the MP4`,
    );
    const results: string[] = [];
    for (const link of LINKS) {
      const w = await watch(base, videoId, link, 1080);
      const path = w.rungs.map((r) => `${r.height}p@${(r.at / 1000).toFixed(1)}s`).join(' → ');
      say(
        `${link.name}: ${w.mode}, first frame ${w.firstFrameMs} ms, ${w.stalls} stall(s) (${w.stalledMs} ms), rungs ${path || 'none'}` +
          (link.kbps === 0 ? `, top rung at ${w.topAtMs === null ? 'never' : `${(w.topAtMs / 1000).toFixed(1)} s`}` : ''),
      );
      results.push(
        link.kbps === 0
          ? `unthrottled top ${w.topAtMs === null ? 'never' : `${(w.topAtMs / 1000).toFixed(1)}s`}`
          : `${link.kbps / 1000} Mbit/s ${w.firstFrameMs} ms/${w.stalls} stalls/${w.finalHeight ?? '?'}p`,
      );
    }
    say(`streaming: ${results.join('; ')}; ladder ${perHour.toFixed(0)} min/h of 1080p, storage ×${(ladder / mp4).toFixed(2)}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(work, { recursive: true, force: true });
  }
}

await main();
