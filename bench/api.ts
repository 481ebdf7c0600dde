/**
 * How close the product's read routes come to the physical limit of the machine.
 * Usage: npm run bench:api   (BENCH_SECONDS=15, BENCH_CONNECTIONS=50, BENCH_ROUTES=list,detail to
 * run some routes only; BENCH_DATABASE_URL to run
 * on a PostgreSQL server instead of the embedded default; BENCH_PROFILE=1 writes a CPU profile of
 * the product's process into the working folder, which is then kept)
 *
 * In one run: the real server (apps/api/src/main.js in a child process as `npm start` runs it,
 * temporary DATA_DIR, WORKERS=off) on the embedded PostgreSQL server, seeded with SQL with
 * 100 000 videos over 1 000 learners (100 each) and 50 notifications per learner; beside it, in
 * its own process on the same database, bench/api-bare.ts: bare Fastify routes that run the same
 * SQL through the same driver after the same token check. Each route is loaded at N connections
 * for S seconds on each server, product and bare taking turns by the second, signed in as 20
 * learners in turn:
 *   list           GET /v1/videos?page=1&limit=20         (a learner's newest 20 of ~100)
 *   detail         GET /v1/videos/:id                      (one of that learner's videos)
 *   notifications  GET /v1/notification/list?page=1&limit=20
 * Each line gives req/s and p99 of both; the last line sums up the product's ratio to bare.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { NOTIFICATION_KINDS } from '@sutura/domain/notifications';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { embeddedUrl, startEmbeddedServer } from '../apps/api/src/db/embedded-server.ts';
import { hashPassword } from '../apps/api/src/modules/auth/auth.service.ts';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PRODUCT_PORT = Number(process.env.BENCH_PORT ?? 3121);
const BARE_PORT = PRODUCT_PORT + 1;
const SERVER_URL = process.env.BENCH_DATABASE_URL;
const PASSWORD = 'bench-password-1';
const LEARNERS = 1000;
const VIDEOS_PER_LEARNER = 100;
const NOTIFICATIONS_PER_LEARNER = 50;
const SIGNED_IN = 20;

const say = (line: string) => process.stdout.write(`${line}\n`);

function startProcess(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    const up = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** 1 000 learners, 100 videos each over the vocabularies, 50 notifications each: SQL, seconds. */
async function seed(client: pg.Client): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  const kinds = Object.keys(NOTIFICATION_KINDS);
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO users (email, password_hash, roles, first_name, last_name, email_verified_at, preferences, notification_settings)
     SELECT 'learner' || g || '@bench.local', $1, '{learner}', 'Prénom' || g, 'Nom' || g, now(), $2::jsonb, $3::jsonb
     FROM generate_series(1, ${LEARNERS}) g`,
    [hash, JSON.stringify(DEFAULT_PREFERENCES), JSON.stringify(DEFAULT_NOTIFICATION_SETTINGS)],
  );
  await client.query(
    `WITH s AS (SELECT array_agg(id ORDER BY id) AS ids FROM surgeries), o AS (SELECT array_agg(id ORDER BY id) AS ids FROM organs),
          l AS (SELECT id, row_number() OVER (ORDER BY email) AS n FROM users WHERE email LIKE '%@bench.local')
     INSERT INTO videos (author_id, kind, status, media_status, processing_progress, surgery_id, organ_id, duration, width, height,
                         favourite, priority, age_range, patient_sex, bmi, main_hand, surgery_duration, created_at, updated_at)
     SELECT l.id, 'video', (ARRAY['saved', 'pending_preparation', 'analysed'])[1 + g % 3], 'ready', 100,
            s.ids[1 + (l.n + g) % cardinality(s.ids)], o.ids[1 + (l.n * 7 + g) % cardinality(o.ids)],
            600 + (g * 37) % 3600, 1920, 1080, g % 10 = 0, g % 7 = 0, '40-49', 'female', '25-30', 'right', 120,
            now() - make_interval(hours => (g * 5 + l.n % 5)::int), now() - make_interval(hours => (g * 5)::int)
     FROM l, s, o, generate_series(1, ${VIDEOS_PER_LEARNER}) g`,
  );
  await client.query(
    `INSERT INTO notifications (user_id, key, params, link, status, created_at)
     SELECT u.id, ($1::text[])[1 + g % cardinality($1::text[])], '{"firstName": "Hélène"}'::jsonb, '/videos', CASE WHEN g % 4 = 0 THEN 'unread' ELSE 'read' END,
            now() - make_interval(mins => g * 13)
     FROM users u, generate_series(1, ${NOTIFICATIONS_PER_LEARNER}) g WHERE u.email LIKE '%@bench.local'`,
    [kinds],
  );
  await client.query('COMMIT');
  await client.query('ANALYZE');
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
  /** CPU time of the server's process per request (Linux), where the two differ when the machine is busy. */
  cpuMs: number | undefined;
}

/** CPU time a process has used so far, from /proc (undefined elsewhere). */
function cpuTime(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/**
 * N keep-alive connections per server, each sending its next request as soon as the previous
 * answer is read; product and bare take turns by the second, so that both meet the same
 * machine (on a shared machine, other loads come and go within a run).
 */
async function compare(targets: { port: number; pid: number; next: () => { path: string; token: string } }[]): Promise<Result[]> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }));
  const latencies: number[][] = targets.map(() => []);
  const errors = targets.map(() => 0);
  const cpu = targets.map(() => 0 as number | undefined);
  const one = (i: number, target: { path: string; token: string }) =>
    new Promise<number>((resolve) => {
      const headers = { authorization: `Bearer ${target.token}` };
      const req = http.get({ host: '127.0.0.1', port: targets[i]!.port, path: target.path, agent: agents[i], headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
    });
  for (let second = 0; second < SECONDS; second++) {
    for (let i = 0; i < targets.length; i++) {
      const end = performance.now() + 1000;
      const cpuBefore = cpuTime(targets[i]!.pid);
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < end) {
            const started = performance.now();
            const status = await one(i, targets[i]!.next());
            latencies[i]!.push(performance.now() - started);
            if (status !== 200) errors[i]!++;
          }
        }),
      );
      const cpuAfter = cpuTime(targets[i]!.pid);
      cpu[i] = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpu[i]! + cpuAfter - cpuBefore;
    }
  }
  for (const agent of agents) agent.destroy();
  return latencies.map((l, i) => {
    l.sort((a, b) => a - b);
    return {
      rps: l.length / SECONDS,
      p99: l[Math.floor(l.length * 0.99)] ?? 0,
      errors: errors[i]!,
      cpuMs: cpu[i]! / Math.max(1, l.length),
    };
  });
}

const work = process.env.BENCH_WORK ?? (await mkdtemp(path.join(tmpdir(), 'sutura-bench-api-')));
const children: ChildProcess[] = [];
try {
  const product = startProcess(
    process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${work}`, 'apps/api/src/main.js'] : ['apps/api/src/main.js'],
    {
      DATA_DIR: work,
      PORT: String(PRODUCT_PORT),
      HOST: '127.0.0.1',
      WORKERS: 'off',
      DEMO_DATA: 'off',
      DEMO_VIDEOS: 'off',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      DATABASE_URL: SERVER_URL ?? '',
    },
  );
  children.push(product);
  await waitFor(`http://127.0.0.1:${PRODUCT_PORT}/v1/health`, product);

  // The database the product runs on: its embedded server (over its socket), or the given one.
  const embedded = SERVER_URL
    ? undefined
    : await startEmbeddedServer({ dir: path.join(work, 'db'), log: pino({ level: 'silent' }), attach: true });
  const url = SERVER_URL ?? embeddedUrl(embedded!.connection);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  const started = performance.now();
  await seed(client);
  say(`seeded ${LEARNERS * VIDEOS_PER_LEARNER} videos over ${LEARNERS} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const bare = startProcess(['bench/api-bare.ts'], {
    BENCH_BARE_DATABASE_URL: url,
    BENCH_BARE_PORT: String(BARE_PORT),
    BENCH_JWT_SECRET: (await readFile(path.join(work, 'jwt-secret'), 'utf8')).trim(),
  });
  children.push(bare);
  await waitFor(`http://127.0.0.1:${BARE_PORT}/bare/videos`, bare);

  const learners: { token: string; videoIds: string[] }[] = [];
  for (let n = 1; n <= SIGNED_IN; n++) {
    const email = `learner${n * 37}@bench.local`;
    const res = await fetch(`http://127.0.0.1:${PRODUCT_PORT}/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const token = ((await res.json()) as { data: { token: string } }).data.token;
    const { rows } = await client.query<{ id: string }>(
      'SELECT v.id FROM videos v JOIN users u ON u.id = v.author_id WHERE u.email = $1 ORDER BY v.created_at DESC',
      [email],
    );
    learners.push({ token, videoIds: rows.map((r) => r.id) });
  }
  await client.end();
  await embedded?.stop();

  let turn = 0;
  const next = () => learners[turn++ % learners.length]!;
  const routes = [
    { name: 'list', product: '/v1/videos?page=1&limit=20', bare: '/bare/videos', byVideo: false },
    { name: 'detail', product: '/v1/videos/', bare: '/bare/videos/', byVideo: true },
    { name: 'notifications', product: '/v1/notification/list?page=1&limit=20', bare: '/bare/notifications', byVideo: false },
  ];
  const summary: string[] = [];
  let ok = true;
  const only = process.env.BENCH_ROUTES?.split(',');
  for (const route of routes.filter((r) => !only || only.includes(r.name))) {
    const target = (prefix: string) => () => {
      const learner = next();
      const video = learner.videoIds[turn % learner.videoIds.length]!;
      return { path: route.byVideo ? prefix + video : prefix, token: learner.token };
    };
    const [p, b] = (await compare([
      { port: PRODUCT_PORT, pid: product.pid!, next: target(route.product) },
      { port: BARE_PORT, pid: bare.pid!, next: target(route.bare) },
    ])) as [Result, Result];
    const ratio = p.rps / b.rps;
    const cpu = (r: Result) => (r.cpuMs === undefined ? '' : `, ${r.cpuMs.toFixed(2)} ms CPU/req`);
    say(
      `${route.name.padEnd(13)} product ${p.rps.toFixed(0).padStart(5)} req/s p99 ${p.p99.toFixed(0).padStart(4)} ms${cpu(p)}` +
        ` | bare ${b.rps.toFixed(0).padStart(5)} req/s p99 ${b.p99.toFixed(0).padStart(4)} ms${cpu(b)} | ratio ${ratio.toFixed(2)}` +
        (p.errors + b.errors ? ` | ${p.errors} + ${b.errors} errors` : ''),
    );
    if (p.errors || b.errors) ok = false;
    summary.push(`${route.name} ${ratio.toFixed(2)}${route.name === 'list' ? ' of bare' : ''} (p99 ${p.p99.toFixed(0)} ms)`);
  }
  const where = SERVER_URL ? `on PostgreSQL (${new URL(SERVER_URL).host})` : 'on the embedded default';
  say(`api: ${summary.join(', ')} ${where}${ok ? '' : ' (with errors: see above)'}`);
} finally {
  for (const child of children.reverse()) await stopProcess(child);
  if (process.env.BENCH_PROFILE) say(`CPU profile in ${work}`);
  else await rm(work, { recursive: true, force: true });
}
