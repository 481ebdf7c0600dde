/**
 * Seeds 100 000 submitted analyses by SQL and times one learner's statistics against a
 * primary-key lookup on the same database, in the same run.
 * Usage: node bench/stats.ts [analyses]   (BENCH_DATABASE_URL: a PostgreSQL server to use;
 * a fresh database is made on it and dropped. Without it, an embedded server in a temporary folder.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../apps/api/src/db/client.ts';
import { createStatsService } from '../apps/api/src/modules/stats/stats.service.ts';

const ANALYSES = Number(process.argv[2] ?? 100_000);
const LEARNERS = 2_000;
const RUNS = 30;

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    // The embedded default: its own PostgreSQL server in a temporary folder.
    const dir = await mkdtemp(path.join(tmpdir(), 'sutura-bench-stats-'));
    const database = await openDatabase({ dataDir: path.join(dir, 'db') });
    return {
      database,
      drop: async () => {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `sutura_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.href });
  return {
    database,
    drop: async () => {
      await database.close();
      // The pool's connections may still be closing; forcing them out would raise an error nobody hears.
      for (let tries = 0; tries < 50; tries++) {
        const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const { database, drop } = await open();
const { db } = database;
try {
  const seedStart = performance.now();
  await db.execute(sql`INSERT INTO specialties (code, name_fr, name_en) VALUES ('bench-a', 'A', 'A'), ('bench-b', 'B', 'B')`);
  await db.execute(sql`
    INSERT INTO users (email, password_hash, first_name, last_name, specialty_id, preferences, notification_settings)
    SELECT 'learner' || i || '@bench.test', 'x', 'L', 'N' || i,
      (SELECT id FROM specialties WHERE code = CASE WHEN i % 2 = 0 THEN 'bench-a' ELSE 'bench-b' END),
      '{"langCode":"en","theme":"auto","showRatings":true}', '{}'
    FROM generate_series(1, ${LEARNERS}) AS i`);
  // Each video belongs to a learner in turn; analyses are spread over the last two years.
  await db.execute(sql`
    WITH learners AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users),
    made AS (
      INSERT INTO videos (author_id, status, media_status, created_at)
      SELECT l.id, 'analysed', 'ready', now() - (i % 730) * interval '1 day'
      FROM generate_series(1, ${ANALYSES}) AS i JOIN learners l ON l.n = i % ${LEARNERS}
      RETURNING id, created_at)
    INSERT INTO analyses (video_id, status, kpi_ratings, global_rating, submitted_at)
    SELECT id, 'submitted',
      jsonb_build_object('depthPerception', 1 + floor(random() * 5)::int, 'bimanualDexterity', 1 + floor(random() * 5)::int,
        'efficiency', 1 + floor(random() * 5)::int, 'tissueHandling', 1 + floor(random() * 5)::int, 'autonomy', 1 + floor(random() * 5)::int),
      1 + floor(random() * 5)::int, created_at + interval '3 days'
    FROM made`);
  await db.execute(sql`ANALYZE`);

  const seedMs = performance.now() - seedStart;

  const { rows } = await db.execute<{ id: string; video_id: string }>(
    sql`SELECT u.id, (SELECT v.id FROM videos v WHERE v.author_id = u.id LIMIT 1) AS video_id FROM users u WHERE u.email = 'learner7@bench.test'`,
  );
  const learner = {
    id: rows[0]!.id,
    sessionId: 'bench',
    sessionEndsAt: new Date(8.64e15),
    roles: ['learner' as const],
    preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings: true },
  };
  const stats = createStatsService({ db, clock: () => new Date() });
  const lookup = () => db.execute(sql`SELECT * FROM analyses WHERE video_id = ${rows[0]!.video_id}`);

  // Warm both paths so that neither pays for the first plan or the cold cache.
  await stats.learner(learner, 'specialty');
  await lookup();
  const keyMs = await median(lookup);
  const allMs = await median(() => stats.learner(learner, 'all'));
  const specialtyMs = await median(() => stats.learner(learner, 'specialty'));
  const statsMs = Math.max(allMs, specialtyMs);
  console.log(`engine: ${database.kind}; seeded ${ANALYSES} analyses of ${LEARNERS} learners in ${(seedMs / 1000).toFixed(1)} s`);
  console.log(`key lookup: ${keyMs.toFixed(2)} ms (median of ${RUNS})`);
  console.log(`statistics against all learners: ${allMs.toFixed(1)} ms; against the same specialty: ${specialtyMs.toFixed(1)} ms`);
  console.log(
    `stats: ${Math.round(statsMs)} ms for a learner among ${ANALYSES} analyses (ratio ${(statsMs / keyMs).toFixed(1)} of a key lookup)`,
  );
} finally {
  await drop();
}
