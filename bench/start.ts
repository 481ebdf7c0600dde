/**
 * How long the server takes from `node` to a healthy `/v1/health`, against a Fastify hello world.
 * Usage: node bench/start.ts [RUNS]   (default 5 runs per case, the median kept;
 *                                     BENCH_SERVER: another entry to time, e.g. an older checkout's;
 *                                     BENCH_FROM_SOURCES=1: the server from its sources, not its bundle)
 *
 * In one run, each start a child process as `npm start` runs the server (apps/api/src/main.js,
 * embedded PostgreSQL, demo accounts, DEMO_VIDEOS=off so that no video is generated meanwhile,
 * WORKERS on), timed from the spawn to the first 200 of GET /v1/health (polled every 10 ms):
 *   (a) a Fastify hello world answering /v1/health: the floor of any Node HTTP server here;
 *   (b) the server on an existing DATA_DIR (database, accounts, vocabularies there), the module
 *       compile cache warm: an ordinary restart;
 *   (c) the same with an empty compile cache (the first start after an install or an upgrade);
 *   (d) the server on an empty DATA_DIR: PostgreSQL's initdb, the migrations, the demo accounts
 *       and the RPPS sample;
 *   (e) what Node's type stripping of our TypeScript costs, measured in this process on the
 *       files the server loads (apps/api/src, packages/domain/src): the compile cache keeps its
 *       output, so (b) pays none of it and (c) and (d) all of it.
 * Each start also gives the server's processor time (user + system, PostgreSQL not counted) and
 * its resident memory once healthy; the restarts of (b) also its idle memory 5 s later, once
 * start-up has settled (target ≤ 120 MB; the web build is served when it is there, as `npm start` does),
 * and the same restarts as an API process of a deployment with worker processes (WORKERS=off). The last line sums it up:
 * `start: existing folder T s (R× hello world), empty folder T s (R×), cold cache T s (R×); hello world T s;
 * processor on an existing folder T s (R× hello world); idle RSS N MB (M MB for an API process, WORKERS=off); load L` — on a busy machine the processor time is
 * the steadier figure: the wall time mostly measures the wait for a processor.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { stripTypeScriptTypes } from 'node:module';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildApi } from '../scripts/build-api.js';

const RUNS = Math.max(1, Number(process.argv[2] ?? 5));
const root = path.resolve(import.meta.dirname, '..');
const SERVER = path.resolve(process.env.BENCH_SERVER ?? path.join(root, 'apps/api/src/main.js'));
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () => loadavg()[0]!.toFixed(1);

interface Start {
  ms: number;
  cpuMs: number;
  rssMb: number;
  /** Resident memory once start-up has settled (IDLE_AFTER_MS after the first healthy answer). */
  idleRssMb?: number;
}

/** The idle figure is read this long after the server first answers: start-up has settled. */
const IDLE_AFTER_MS = 5000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/v1/health', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.setTimeout(1000, () => req.destroy());
  });
}

const TICK_MS = 1000 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

/** The process's own processor time (user + system) and resident memory, from /proc. */
async function usage(pid: number): Promise<{ cpuMs: number; rssMb: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssMb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0) / 1024;
  return { cpuMs, rssMb };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/** Spawns `args`, waits for a healthy /v1/health on `port`, stops it. */
async function timeStart(args: string[], port: number, env: NodeJS.ProcessEnv, idle = false): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = started + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode}: ${stderr}`);
      if (await healthy(port)) break;
      if (performance.now() > deadline) throw new Error('no healthy /v1/health within 2 minutes');
      await new Promise((r) => setTimeout(r, 10));
    }
    const ms = performance.now() - started;
    const healthyUsage = await usage(child.pid!);
    if (!idle) return { ms, ...healthyUsage };
    await new Promise((r) => setTimeout(r, IDLE_AFTER_MS));
    return { ms, ...healthyUsage, idleRssMb: (await usage(child.pid!)).rssMb };
  } finally {
    await stop(child);
  }
}

const HELLO = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/v1/health', async () => ({ success: true, data: { status: 'ok' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;

async function helloWorld(): Promise<Start> {
  const port = await freePort();
  return timeStart(['--input-type=module', '-e', HELLO], port, { ...process.env, PORT: String(port) });
}

async function sutura(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}, idle = false): Promise<Start> {
  const port = await freePort();
  return timeStart(
    [SERVER, ...serverArgs],
    port,
    {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DEMO_DATA: 'on',
      DEMO_VIDEOS: 'off',
      WORKERS: 'on',
      ...extraEnv,
    },
    idle,
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function summary(label: string, starts: Start[], hello?: Start[]): { ms: number; cpuMs: number; idleRssMb: number | undefined } {
  const ms = median(starts.map((s) => s.ms));
  const cpuMs = median(starts.map((s) => s.cpuMs));
  const ratio = hello ? `, ${(ms / median(hello.map((s) => s.ms))).toFixed(1)}× hello world` : '';
  const idle = starts.flatMap((s) => (s.idleRssMb === undefined ? [] : [s.idleRssMb]));
  const idleRss = idle.length ? `, idle ${median(idle).toFixed(0)} MB ${IDLE_AFTER_MS / 1000} s later` : '';
  const cpuRatio = hello ? ` ${(cpuMs / median(hello.map((s) => s.cpuMs))).toFixed(1)}×` : '';
  say(
    `${label.padEnd(34)} ${(ms / 1000).toFixed(2)} s${ratio} (processor ${(cpuMs / 1000).toFixed(2)} s${cpuRatio}, ` +
      `RSS ${median(starts.map((s) => s.rssMb)).toFixed(0)} MB${idleRss}; runs ${starts.map((s) => (s.ms / 1000).toFixed(2)).join(' ')}; load ${load()})`,
  );
  return { ms, cpuMs, idleRssMb: idle.length ? median(idle) : undefined };
}

/** (e): our TypeScript files stripped as Node strips them at load, median of 5 passes. */
function typeStripping(): { files: number; kb: number; ms: number; firstMs: number } {
  const folders = [path.join(root, 'apps/api/src'), path.join(root, 'packages/domain/src')];
  const files = folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => path.join(e.parentPath, e.name)),
  );
  const sources = files.map((file) => readFileSync(file, 'utf8'));
  // The stripper (a WebAssembly module) is set up at its first use in a process.
  const first = spawnSync(
    process.execPath,
    [
      '-e',
      `const m = require('node:module'); const t = performance.now(); m.stripTypeScriptTypes('const a: number = 1'); console.log(performance.now() - t)`,
    ],
    { encoding: 'utf8' },
  );
  const passes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    for (const source of sources) stripTypeScriptTypes(source);
    passes.push(performance.now() - started);
  }
  return {
    files: files.length,
    kb: sources.reduce((sum, s) => sum + s.length, 0) / 1024,
    ms: median(passes),
    firstMs: Number(first.stdout.trim()),
  };
}

// As `npm start` runs it: from the bundle of the server, made now when older than the sources
// (scripts/build-api.js). BENCH_FROM_SOURCES=1 times the server from its sources instead.
const fromSources = process.env.BENCH_FROM_SOURCES === '1';
if (!fromSources && !process.env.BENCH_SERVER) await buildApi({ log: say });
const serverArgs = fromSources ? ['--from-sources'] : [];
const work = await mkdtemp(path.join(tmpdir(), 'sutura-bench-start-'));
// As root, the embedded PostgreSQL runs as its own system user, which must pass through here.
await chmod(work, 0o711);
try {
  say(
    `Start-up ${fromSources ? 'from the sources' : 'from the bundle'}, ${RUNS} runs per case (median), load average ${load()} on ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} processors`,
  );
  const hello: Start[] = [];
  for (let i = 0; i < RUNS; i++) hello.push(await helloWorld());
  const helloRun = summary('(a) Fastify hello world', hello);
  const helloMs = helloRun.ms;

  // The first start creates the folder the restarts use, and warms the compile cache.
  const existing = path.join(work, 'existing');
  await sutura(existing);
  const restarts: Start[] = [];
  for (let i = 0; i < RUNS; i++) restarts.push(await sutura(existing, {}, true));
  const existingRun = summary('(b) existing DATA_DIR', restarts, hello);
  const existingMs = existingRun.ms;
  // An API process of a deployment with worker processes (WORKERS=off): no job workers in it.
  const apiOnly: Start[] = [];
  for (let i = 0; i < RUNS; i++) apiOnly.push(await sutura(existing, { WORKERS: 'off' }, true));
  const apiOnlyRun = summary('(b) same, WORKERS=off', apiOnly, hello);

  const cold: Start[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cache = path.join(work, `compile-cache-${i}`);
    await mkdir(cache);
    cold.push(await sutura(existing, { NODE_COMPILE_CACHE: cache }));
  }
  const coldMs = summary('(c) existing DATA_DIR, cold cache', cold, hello).ms;

  const empty: Start[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(RUNS / 2)); i++) {
    const dataDir = path.join(work, `empty-${i}`);
    empty.push(await sutura(dataDir));
    // PostgreSQL may still be writing its last files as it stops: the removal starts again on what is there.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    await rm(`${dataDir}.lock`, { force: true });
  }
  const emptyMs = summary('(d) empty DATA_DIR', empty, hello).ms;

  const strip = typeStripping();
  say(
    `(e) type stripping: ${strip.ms.toFixed(0)} ms for ${strip.files} files (${strip.kb.toFixed(0)} KB), ` +
      `plus ${strip.firstMs.toFixed(0)} ms to set the stripper up; none of it with a warm compile cache`,
  );
  say(
    `start: existing folder ${(existingMs / 1000).toFixed(2)} s (${(existingMs / helloMs).toFixed(1)}× hello world), ` +
      `empty folder ${(emptyMs / 1000).toFixed(2)} s (${(emptyMs / helloMs).toFixed(1)}×), ` +
      `cold cache ${(coldMs / 1000).toFixed(2)} s (${(coldMs / helloMs).toFixed(1)}×); hello world ${(helloMs / 1000).toFixed(2)} s; ` +
      `processor on an existing folder ${(existingRun.cpuMs / 1000).toFixed(2)} s (${(existingRun.cpuMs / helloRun.cpuMs).toFixed(1)}× hello world); ` +
      `idle RSS ${existingRun.idleRssMb?.toFixed(0)} MB (${apiOnlyRun.idleRssMb?.toFixed(0)} MB for an API process, WORKERS=off); load ${load()}`,
  );
} finally {
  await rm(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}
