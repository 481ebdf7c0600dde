/**
 * The cohort view of a training programme (docs/learning-curves.md): seeds by SQL a programme of 60
 * learners with 40 analysed cases each (a tenth of them reviewed twice, their ratings released to
 * their learners) among other learners' cases, and times the cohort's answer against a primary-key
 * lookup on the same database, in the same run: once the read model is up to date (what a director
 * reads), and the first read after a case of one learner was rated (that learner's curves computed
 * again first).
 * Usage: npm run bench:cohort   (BENCH_DATABASE_URL: a PostgreSQL server to use, a fresh database
 * is made on it and dropped. Without it, an embedded server in a temporary folder.)
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { medianMs, openBenchDatabase } from './database.ts';
import pino from 'pino';
import { DEFAULT_TIME_ZONE } from '@sutura/domain/time-zone';
import { createQueue } from '../apps/api/src/jobs/queue.ts';
import { createAudit } from '../apps/api/src/modules/audit/audit.service.ts';
import { createNotificationService } from '../apps/api/src/modules/notifications/notifications.service.ts';
import { createProgrammeService } from '../apps/api/src/modules/programmes/programmes.service.ts';

const LEARNERS = 60;
const CASES = 40;
/** Other learners' cases beside the programme's: the cohort must not read them. */
const OTHER_CASES = 50_000;
const SURGERIES = 3;
const RUNS = 30;

/** The median of RUNS calls, in milliseconds. */
const median = (run: () => Promise<unknown>, before?: () => Promise<unknown>) => medianMs(RUNS, run, before);

const { database, drop } = await openBenchDatabase('cohort');
const { db } = database;
const log = pino({ level: 'silent' });
try {
  const seedStart = performance.now();
  await db.execute(sql`
    INSERT INTO users (email, password_hash, first_name, last_name, preferences, notification_settings)
    SELECT 'learner' || i || '@bench.test', 'x', 'Learner', 'N' || lpad(i::text, 4, '0'),
      '{"langCode":"en","theme":"auto","showRatings":true}', '{}'
    FROM generate_series(1, ${LEARNERS + 1000}) AS i`);
  await db.execute(sql`
    INSERT INTO users (email, password_hash, roles, first_name, last_name, preferences, notification_settings)
    VALUES ('director@bench.test', 'x', '{expert}', 'Dora', 'Director', '{"langCode":"en","theme":"auto","showRatings":true}', '{}')`);
  await db.execute(sql`
    INSERT INTO surgeries (code, name_fr, name_en, position)
    SELECT 'bench-' || i, 'Chirurgie ' || i, 'Surgery ' || i, 100 + i FROM generate_series(1, ${SURGERIES}) AS i`);
  // The programme's learners (learner1 … learner60): 40 cases each over the surgeries, the rating
  // climbing with practice; the others: cases of their own.
  await db.execute(sql`
    WITH learners AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS n, email FROM users WHERE email LIKE 'learner%'),
    ops AS (SELECT id, row_number() OVER (ORDER BY code) - 1 AS n FROM surgeries WHERE code LIKE 'bench-%'),
    planned AS (
      SELECT l.id AS author, o.id AS surgery, c AS k, l.n AS who
      FROM learners l CROSS JOIN generate_series(0, ${CASES - 1}) AS c JOIN ops o ON o.n = c % ${SURGERIES}
      WHERE l.email ~ ${`^learner([1-9]|[1-5][0-9]|60)@`}
      UNION ALL
      SELECT l.id, o.id, i, l.n FROM generate_series(1, ${OTHER_CASES}) AS i
        JOIN learners l ON l.n = ${LEARNERS} + i % 1000 JOIN ops o ON o.n = i % ${SURGERIES}),
    made AS (
      INSERT INTO videos (author_id, surgery_id, status, media_status, created_at, sent_at, operated_on, reviews_required)
      SELECT author, surgery, 'analysed', 'ready', now() - (400 - k) * interval '1 day', now() - (400 - k) * interval '1 day',
        (now() - (401 - k) * interval '1 day')::date, CASE WHEN k % 10 = 3 THEN 2 ELSE 1 END
      FROM planned
      RETURNING id, created_at, reviews_required, extract(day FROM now() - created_at)::int AS age)
    INSERT INTO analyses (video_id, round, status, kpi_ratings, global_rating, submitted_at)
    SELECT id, r, 'submitted',
      jsonb_build_object('depthPerception', g, 'bimanualDexterity', g, 'efficiency', g, 'tissueHandling', g, 'autonomy', g),
      g, created_at + interval '3 days'
    FROM made CROSS JOIN generate_series(1, reviews_required) AS r
      CROSS JOIN LATERAL (SELECT least(5, greatest(1, round(2 + (400 - age) / 12.0 + random() * 1.4 - 0.7)))::int AS g) AS x`);
  await db.execute(
    sql`UPDATE videos SET result_released_at = created_at + interval '3 days', ratings_released_at = created_at + interval '4 days'`,
  );
  await db.execute(sql`INSERT INTO programmes (name) VALUES ('Bench residents')`);
  await db.execute(sql`
    INSERT INTO programme_directors (programme_id, user_id)
    SELECT p.id, u.id FROM programmes p, users u WHERE u.email = 'director@bench.test'`);
  await db.execute(sql`
    INSERT INTO programme_members (programme_id, user_id)
    SELECT p.id, u.id FROM programmes p, users u WHERE u.email ~ ${`^learner([1-9]|[1-5][0-9]|60)@`}`);
  await db.execute(sql`VACUUM ANALYZE`);
  const seedMs = performance.now() - seedStart;

  const queue = await createQueue(database, log, undefined, { maintain: false });
  const notifications = createNotificationService({
    db,
    hub: { emitToUser: () => {}, disconnectSessions: () => {}, emitToRole: () => {} },
    queue,
    publicUrl: 'http://localhost',
    timeZone: DEFAULT_TIME_ZONE,
  });
  const programmes = createProgrammeService({
    db,
    audit: createAudit(db),
    notifications,
    clock: () => new Date(),
    timeZone: DEFAULT_TIME_ZONE,
  });
  const { rows: ids } = await db.execute<{ programme: string; director: string; learner: string; video: string }>(sql`
    SELECT (SELECT id FROM programmes) AS programme, (SELECT id FROM users WHERE email = 'director@bench.test') AS director,
      u.id AS learner, (SELECT id FROM videos WHERE author_id = u.id ORDER BY created_at DESC LIMIT 1) AS video
    FROM users u WHERE u.email = 'learner7@bench.test'`);
  const { programme, director, video } = ids[0]!;
  const viewer = {
    id: director,
    sessionId: 'bench',
    sessionEndsAt: new Date(8.64e15),
    roles: ['expert' as const],
    preferences: { langCode: 'en' as const, theme: 'auto' as const, showRatings: true },
  };
  const cohort = () => programmes.cohort(viewer, programme, '127.0.0.1', 'en');
  const lookup = () => db.execute(sql`SELECT * FROM analyses WHERE video_id = ${video} AND round = 1`);

  // The first read computes every learner's curves (all were just rated): the read model fills.
  const fillStart = performance.now();
  const first = await cohort();
  const fillMs = performance.now() - fillStart;
  await lookup();
  const keyMs = await median(lookup);
  const cohortMs = await median(cohort);
  let toggle = 0;
  // A further review of one learner's latest case: that learner's curves are stale until the next read.
  const write = async () => {
    toggle = 1 - toggle;
    await db.execute(sql`UPDATE analyses SET global_rating = ${3 + toggle} WHERE video_id = ${video} AND round = 1`);
  };
  const afterWriteMs = await median(cohort, write);
  const { rows: counted } = await db.execute<{ n: number; rows: number }>(
    sql`SELECT (SELECT count(*)::int FROM analyses) AS n, (SELECT count(*)::int FROM programme_curves) AS rows`,
  );
  console.log(
    `engine: ${database.kind}; seeded ${LEARNERS} learners × ${CASES} analysed cases in a programme among ${counted[0]!.n} reviews, in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(`key lookup: ${keyMs.toFixed(2)} ms (median of ${RUNS})`);
  console.log(
    `first read, every learner's curves computed: ${Math.round(fillMs)} ms (${first.rows.length} rows, read model ${counted[0]!.rows} rows)`,
  );
  console.log(
    `the first read after a case of one learner was rated again: ${afterWriteMs.toFixed(1)} ms (ratio ${(afterWriteMs / keyMs).toFixed(1)} of a key lookup)`,
  );
  console.log(
    `cohort: ${cohortMs.toFixed(1)} ms for ${LEARNERS} learners × ${CASES} cases (ratio ${(cohortMs / keyMs).toFixed(1)} of a key lookup; goal < 200 ms)`,
  );
  await queue.stop(0);
} finally {
  await drop();
}
