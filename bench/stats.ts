/**
 * Seeds 100 000 sent cases with their NASA-TLX, steps and submitted analyses (their ratings released
 * to their learners but for a few awaiting a self-assessment) by SQL and times one
 * learner's whole statistics (KPIs, NASA-TLX, step times) against a primary-key lookup on the same
 * database, in the same run: as a process answers them with the averages it keeps, and the first
 * request after a write that changes every average (each read again from the database).
 * Usage: npm run bench:stats -- --analyses 1000000   (default 100 000; BENCH_DATABASE_URL: a
 * PostgreSQL server to use, a fresh database is made on it and dropped. Without it, an embedded
 * server in a temporary folder.)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { medianMs, openBenchDatabase } from './database.ts';
import { DEFAULT_TIME_ZONE } from '@sutura/domain/time-zone';
import { createStatsService } from '../apps/api/src/modules/stats/stats.service.ts';

const sizeArg = process.argv.indexOf('--analyses');
const ANALYSES = Number((sizeArg >= 0 ? process.argv[sizeArg + 1] : process.argv[2]) ?? 100_000);
if (!Number.isInteger(ANALYSES) || ANALYSES < 2_000) throw new Error('--analyses: a whole number of at least 2000');
const LEARNERS = 2_000;
const SURGERIES = 16;
const STEPS = 6;
const RUNS = 30;

/** The median of RUNS calls, in milliseconds. */
const median = (run: () => Promise<unknown>, before?: () => Promise<unknown>) => medianMs(RUNS, run, before);

const { database, drop } = await openBenchDatabase('stats');
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
  // Sixteen surgeries of six steps each, as many as the vocabulary has.
  await db.execute(sql`
    INSERT INTO surgeries (code, name_fr, name_en, position)
    SELECT 'bench-' || i, 'Chirurgie ' || i, 'Surgery ' || i, i FROM generate_series(1, ${SURGERIES}) AS i`);
  await db.execute(sql`
    INSERT INTO surgery_steps (surgery_id, code, name_fr, name_en, position)
    SELECT s.id, 'step-' || p, 'Étape ' || p, 'Step ' || p, p FROM surgeries s, generate_series(1, ${STEPS}) AS p`);
  // Each video belongs to a learner in turn, of a surgery in turn, sent with a NASA-TLX; analyses
  // are spread over the last two years.
  await db.execute(sql`
    WITH learners AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n FROM users),
    ops AS (SELECT id, row_number() OVER (ORDER BY code) - 1 AS n FROM surgeries),
    made AS (
      INSERT INTO videos (author_id, surgery_id, status, media_status, created_at, sent_at, duration, surgery_duration, nasa_tlx)
      SELECT l.id, o.id, 'analysed', 'ready', now() - (i % 730) * interval '1 day', now() - (i % 730) * interval '1 day',
        600 + (i % 7) * 60, 60 + i % 120,
        jsonb_build_object('mentalDemand', 5 * floor(random() * 21)::int, 'physicalDemand', 5 * floor(random() * 21)::int,
          'temporalDemand', 5 * floor(random() * 21)::int, 'performance', 5 * floor(random() * 21)::int,
          'effort', 5 * floor(random() * 21)::int, 'frustration', 5 * floor(random() * 21)::int)
      FROM generate_series(1, ${ANALYSES}) AS i JOIN learners l ON l.n = i % ${LEARNERS}
        JOIN ops o ON o.n = (i / ${LEARNERS}) % ${SURGERIES}
      RETURNING id, created_at)
    INSERT INTO analyses (video_id, status, kpi_ratings, global_rating, submitted_at)
    SELECT id, 'submitted',
      jsonb_build_object('depthPerception', 1 + floor(random() * 5)::int, 'bimanualDexterity', 1 + floor(random() * 5)::int,
        'efficiency', 1 + floor(random() * 5)::int, 'tissueHandling', 1 + floor(random() * 5)::int, 'autonomy', 1 + floor(random() * 5)::int),
      1 + floor(random() * 5)::int, created_at + interval '3 days'
    FROM made`);
  // Five marked steps per video (one step of six skipped in turn), with pauses between them.
  await db.execute(sql`
    INSERT INTO video_steps (video_id, position, surgery_step_id, name, start, "end")
    SELECT v.id, p, ss.id, ss.name_en, p * 110, p * 110 + 90 + (p * 7) % 20
    FROM videos v JOIN surgery_steps ss ON ss.surgery_id = v.surgery_id
      CROSS JOIN LATERAL (SELECT ss.position - 1 AS p) AS x
    WHERE ss.position <> 1 + abs(hashtext(v.id::text)) % ${STEPS}`);
  // Each result released three days after sending, and its ratings to its learner once they
  // answered or skipped their self-assessment (docs/self-assessment.md): some hours later for
  // most, not yet for a third of the last week's cases and for one older case in a hundred that
  // its learner never opened.
  await db.execute(sql`
    UPDATE videos v SET result_released_at = a.submitted_at,
      ratings_released_at = CASE
        WHEN a.submitted_at > now() - interval '7 days' AND abs(hashtext(v.id::text)) % 3 = 0 THEN NULL
        WHEN abs(hashtext(v.id::text)) % 100 = 0 THEN NULL
        ELSE a.submitted_at + (abs(hashtext(v.id::text)) % 48) * interval '1 hour' END
    FROM analyses a WHERE a.video_id = v.id`);
  // As PostgreSQL's autovacuum leaves a table some time after a load: analysed and visible.
  await db.execute(sql`VACUUM ANALYZE`);

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
  const stats = createStatsService({ db, clock: () => new Date(), timeZone: DEFAULT_TIME_ZONE });
  const lookup = () => db.execute(sql`SELECT * FROM analyses WHERE video_id = ${rows[0]!.video_id}`);

  // The whole statistics of the learner: the three requests of the page's tabs, one after the
  // other, against the slower comparison; step times of the surgery of most of their cases.
  const whole = async (compare: 'all' | 'specialty') => {
    await stats.learner(learner, compare);
    await stats.nasaTlx(learner, compare);
    await stats.stepTimes(learner, undefined, 'en');
  };
  // Warm every path so that none pays for the first plan or the cold cache.
  await whole('specialty');
  await whole('all');
  await lookup();
  const keyMs = await median(lookup);
  const kpis = {
    all: await median(() => stats.learner(learner, 'all')),
    specialty: await median(() => stats.learner(learner, 'specialty')),
  };
  const tlx = {
    all: await median(() => stats.nasaTlx(learner, 'all')),
    specialty: await median(() => stats.nasaTlx(learner, 'specialty')),
  };
  const steps = await median(() => stats.stepTimes(learner, undefined, 'en'));
  const statsMs = Math.max(await median(() => whole('all')), await median(() => whole('specialty')));
  // A write that changes the version of every average a process keeps (so that each is read
  // again whole): a rating of an analysis, a NASA-TLX scale of a case and the end of a step, each
  // toggled, in one transaction.
  let toggle = 0;
  const write = async () => {
    toggle = 1 - toggle;
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        UPDATE analyses SET kpi_ratings = kpi_ratings || jsonb_build_object('autonomy', ${2 + toggle}::int)
        WHERE video_id = (SELECT id FROM videos WHERE author_id <> ${learner.id} ORDER BY sent_at DESC LIMIT 1)`);
      await tx.execute(sql`
        UPDATE videos SET nasa_tlx = nasa_tlx || jsonb_build_object('effort', ${50 + 5 * toggle}::int)
        WHERE id = (SELECT id FROM videos WHERE author_id <> ${learner.id} ORDER BY sent_at DESC LIMIT 1)`);
      await tx.execute(sql`
        UPDATE video_steps SET "end" = "end" + ${toggle ? 1 : -1}
        WHERE (video_id, position) = (SELECT video_id, position FROM video_steps WHERE surgery_step_id IS NOT NULL LIMIT 1)`);
    });
  };
  const afterWriteMs = Math.max(await median(() => whole('all'), write), await median(() => whole('specialty'), write));
  const { rows: counted } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM video_steps`);
  console.log(
    `engine: ${database.kind}; seeded ${ANALYSES} analyses of ${LEARNERS} learners, ${counted[0]!.n} video steps, in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(`key lookup: ${keyMs.toFixed(2)} ms (median of ${RUNS})`);
  console.log(
    `KPIs (radar, timeline) against all learners: ${kpis.all.toFixed(1)} ms; against the same specialty: ${kpis.specialty.toFixed(1)} ms`,
  );
  console.log(`NASA-TLX against all learners: ${tlx.all.toFixed(1)} ms; against the same specialty: ${tlx.specialty.toFixed(1)} ms`);
  const shown = await stats.stepTimes(learner, undefined, 'en');
  console.log(`step times of one surgery (${shown.average.cases} cases of it, ${shown.steps.length} steps): ${steps.toFixed(1)} ms`);
  console.log(
    `the first request after a write that changes every average: ${Math.round(afterWriteMs)} ms (ratio ${(afterWriteMs / keyMs).toFixed(1)} of a key lookup)`,
  );
  console.log(
    `stats: ${Math.round(statsMs)} ms for a learner among ${ANALYSES} analyses (ratio ${(statsMs / keyMs).toFixed(1)} of a key lookup)`,
  );
} finally {
  await drop();
}
