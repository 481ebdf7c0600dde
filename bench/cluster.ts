/**
 * The video list through nginx in front of two API processes against one.
 * Usage: npm run bench:cluster   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres:
 * the PostgreSQL server on which a fresh database is made and dropped; BENCH_SECONDS=10,
 * BENCH_CONNECTIONS=50)
 *
 * In one run: 20 000 videos over 200 learners seeded with SQL; two API processes
 * (apps/api/src/main.js, WORKERS=off) on that database; two nginx instances with the
 * configuration of docs/production.md (deploy/nginx/sutura.conf), one whose upstream is process A alone, one with A
 * and B. GET /v1/videos?page=1&limit=20 is loaded at N keep-alive connections through each nginx,
 * taking turns by the second so that both meet the same machine. Prints req/s and p99 of both
 * and the ratio two/one. On a machine with fewer cores than processes (two Node processes, nginx,
 * PostgreSQL and the load generator), the ratio shows what the second process and the proxy
 * cost, not a speed-up: the speed-up needs the processes on cores (or machines) of their own.
 */
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import { hashPassword } from '../apps/api/src/modules/auth/auth.service.ts';
import {
  createClusterDatabase,
  freePort,
  nginxBinary,
  startNginx,
  startSutura,
  waitReady,
  type SuturaProcess,
} from '../apps/api/test/cluster-harness.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'bench-password-1';
const LEARNERS = 200;
const VIDEOS_PER_LEARNER = 100;
const SIGNED_IN = 20;

const say = (line: string) => process.stdout.write(`${line}\n`);

async function seed(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const hash = await hashPassword(PASSWORD);
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
  await client.query('COMMIT');
  await client.query('ANALYZE');
  await client.end();
}

interface Result {
  rps: number;
  p99: number;
  errors: number;
}

/** N keep-alive connections per target, turn by turn each second. */
async function compare(ports: number[], tokens: string[]): Promise<Result[]> {
  const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS }));
  const latencies: number[][] = ports.map(() => []);
  const errors = ports.map(() => 0);
  let turn = 0;
  const one = (i: number) =>
    new Promise<number>((resolve) => {
      const headers = { authorization: `Bearer ${tokens[turn++ % tokens.length]}` };
      const req = http.get({ host: '127.0.0.1', port: ports[i], path: '/v1/videos?page=1&limit=20', agent: agents[i], headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
    });
  for (let second = 0; second < SECONDS; second++) {
    for (let i = 0; i < ports.length; i++) {
      const end = performance.now() + 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < end) {
            const started = performance.now();
            const status = await one(i);
            latencies[i]!.push(performance.now() - started);
            if (status !== 200) errors[i]!++;
          }
        }),
      );
    }
  }
  for (const agent of agents) agent.destroy();
  return latencies.map((l, i) => {
    l.sort((a, b) => a - b);
    return { rps: l.length / SECONDS, p99: l[Math.floor(l.length * 0.99)] ?? 0, errors: errors[i]! };
  });
}

if (!nginxBinary) {
  say('bench:cluster needs nginx (apt-get install nginx)');
  process.exit(1);
}
const work = await mkdtemp(path.join(tmpdir(), 'sutura-bench-cluster-'));
const db = await createClusterDatabase(SERVER_URL);
const processes: SuturaProcess[] = [];
const proxies: Awaited<ReturnType<typeof startNginx>>[] = [];
try {
  const ports = { a: await freePort(), b: await freePort(), one: await freePort(), two: await freePort() };
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: path.join(work, 'data'),
    JWT_SECRET: 'bench-cluster-secret-bench-cluster-secret-012345',
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    WORKERS: 'off',
    DEMO_DATA: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
  };
  const a = await startSutura('bench-a', { ...env, PORT: String(ports.a) }, work);
  processes.push(a);
  await waitReady(a, `http://127.0.0.1:${ports.a}`);
  const b = await startSutura('bench-b', { ...env, PORT: String(ports.b) }, work);
  processes.push(b);
  await waitReady(b, `http://127.0.0.1:${ports.b}`);
  proxies.push(await startNginx({ port: ports.one, upstreams: [ports.a], dir: path.join(work, 'nginx-one') }));
  proxies.push(await startNginx({ port: ports.two, upstreams: [ports.a, ports.b], dir: path.join(work, 'nginx-two') }));
  const started = performance.now();
  await seed(db.url);
  say(`seeded ${LEARNERS * VIDEOS_PER_LEARNER} videos over ${LEARNERS} learners in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const tokens: string[] = [];
  for (let n = 1; n <= SIGNED_IN; n++) {
    const res = await fetch(`http://127.0.0.1:${ports.two}/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `learner${n * 7}@bench.local`, password: PASSWORD }),
    });
    tokens.push(((await res.json()) as { data: { token: string } }).data.token);
  }
  // Warm-up: each process prepares its statements and fills its caches.
  await compare([ports.one, ports.two], tokens).catch(() => undefined);
  const load = loadavg()[0]!.toFixed(1);
  const [one, two] = (await compare([ports.one, ports.two], tokens)) as [Result, Result];
  const line = (name: string, r: Result) =>
    `${name.padEnd(26)} ${r.rps.toFixed(0).padStart(5)} req/s  p99 ${r.p99.toFixed(0).padStart(4)} ms${r.errors ? `  ${r.errors} errors` : ''}`;
  say(line('nginx -> one API process', one));
  say(line('nginx -> two API processes', two));
  say(
    `cluster: video list through nginx, two processes ${(two.rps / one.rps).toFixed(2)} of one ` +
      `(p99 ${two.p99.toFixed(0)} ms against ${one.p99.toFixed(0)} ms), ${CONNECTIONS} connections, ` +
      `${cpus().length} cores, load average ${load}`,
  );
} finally {
  for (const proxy of proxies) await proxy.stop();
  await Promise.all(processes.map((p) => p.stop(10_000)));
  await db.drop();
  await rm(work, { recursive: true, force: true });
}
