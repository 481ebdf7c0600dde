import { sql, type SQL } from 'drizzle-orm';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
import { zonedDaysBefore, zonedMonthKey, zonedMonthStart, zonedMonthsBefore } from '@sutura/domain/time-zone';
import { NASA_TLX_DIMENSIONS, type NasaTlxDimension } from '@sutura/domain/videos';
import {
  roundMean,
  type CaseTimes,
  type LearnerNasaTlx,
  type LearnerStepTimes,
  type TlxMeans,
  type TlxMonth,
  type TlxSeries,
  STATS_MIN_ANALYSES,
  STATS_MIN_SURGEONS,
  STATS_PAST_MONTHS,
  STATS_TIMELINE_MONTHS,
  STATS_WINDOW_DAYS,
  type KpiMeans,
  type LearnerStats,
  type RadarSeries,
  type StatsComparison,
  type TimelinePoint,
} from '@sutura/domain/stats';
import type { Db } from '../../db/client.ts';
import { averageOf, keep, slide, windowOf, type PeerWindow, type SurgeonRow } from './stats.peers.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';

/**
 * `months` calendar months before `date` on the installation's clock, at the same time of day
 * (clamped to the month's end).
 */
export function monthsBefore(date: Date, months: number, timeZone: string): Date {
  return zonedMonthsBefore(date, months, timeZone);
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/**
 * The rating of a KPI in an analysis row, from its column generated out of `kpi_ratings` (a JSON
 * null or a missing key is SQL NULL); the indexes of the averages hold these columns.
 */
const kpiValue = (kpi: Kpi) => sql.raw(`a.kpi_${snake(kpi)}`);

/**
 * The cases of the statistics, one row per case (docs/double-review.md): its first review's date,
 * author and specialty snapshot, and for each KPI and the global rating the mean of its submitted
 * reviews, so that a double-reviewed case counts once. A case counts once its ratings reached its
 * learner (`videos.ratings_released_at`: its result shown and its self-assessment answered or
 * skipped, docs/self-assessment.md) — in the learner's own numbers and in the average surgeon alike,
 * which would otherwise give a hidden rating away. The columns keep the names of `analyses`, so
 * that each query reads `FROM ${caseRatings()} a`; with `authorId`, the cases of that learner only,
 * found from their cases (`videos_author_created`), then their reviews by key.
 *
 * Most cases have a single review, which is their rating as it is: those are read from the first
 * reviews alone (by index only, `analyses_submitted`), and only the few cases with a further review
 * (`analyses_further_reviews`) average their reviews. The cases withheld are the few of
 * `videos_ratings_withheld`, taken away by an anti-join.
 */
const kpiColumns = (prefix: string) => KPIS.map((k) => `${prefix}kpi_${snake(k)}`).join(', ');
const furtherReview = `SELECT 1 FROM analyses f WHERE f.video_id = a1.video_id AND f.round > 1 AND f.status = 'submitted'`;
const released = `NOT EXISTS (SELECT 1 FROM videos w WHERE w.id = a1.video_id AND w.ratings_released_at IS NULL)`;
function caseRatings(authorId?: string): SQL {
  // The learner's cases first (an init plan), then their reviews by key: with `IN (SELECT …)`,
  // PostgreSQL may instead read every review of the dates asked for and keep the learner's (a
  // tenth of a second among a million reviews).
  const theirs = authorId ? sql`AND a1.video_id = ANY(ARRAY(SELECT v.id FROM videos v WHERE v.author_id = ${authorId}))` : sql``;
  return sql`(
  SELECT a1.video_id, a1.submitted_at, a1.author_id, a1.author_specialty_id, 'submitted'::text AS status,
    ${sql.raw(kpiColumns('a1.'))}, a1.global_rating::float8 AS global_rating
  FROM analyses a1
  WHERE a1.round = 1 AND a1.status = 'submitted' AND NOT EXISTS (${sql.raw(furtherReview)}) AND ${sql.raw(released)} ${theirs}
  UNION ALL
  SELECT a1.video_id, a1.submitted_at, a1.author_id, a1.author_specialty_id, 'submitted'::text AS status,
    ${sql.raw(kpiColumns('m.'))}, m.global_rating
  FROM analyses a1
  CROSS JOIN LATERAL (
    SELECT ${sql.raw(KPIS.map((k) => `avg(r.kpi_${snake(k)})::real AS kpi_${snake(k)}`).join(', '))},
      avg(r.global_rating)::float8 AS global_rating
    FROM analyses r WHERE r.video_id = a1.video_id AND r.status = 'submitted'
  ) m
  WHERE a1.round = 1 AND a1.status = 'submitted' AND EXISTS (${sql.raw(furtherReview)}) AND ${sql.raw(released)} ${theirs}
)`;
}

type PeerKind = 'kpis' | 'tlx';
/**
 * The cases of the average surgeon of each kind: where they are read from, which are counted, the
 * values averaged, the date that places a case in a window, the specialty of its author then, and
 * the column of `stats_version` that changes with them.
 */
const PEERS: Record<PeerKind, { from: SQL; filter: SQL; values: string[]; at: SQL; specialty: SQL; version: SQL }> = {
  kpis: {
    from: sql`${caseRatings()} a`,
    filter: sql.raw(`a.status = 'submitted'`),
    values: KPIS.map((k) => `a.kpi_${snake(k)}`),
    at: sql.raw('a.submitted_at'),
    specialty: sql.raw('a.author_specialty_id'),
    version: sql.raw('kpis'),
  },
  tlx: {
    from: sql.raw('videos v'),
    filter: sql.raw('v.nasa_tlx IS NOT NULL'),
    values: NASA_TLX_DIMENSIONS.map((d) => `v.tlx_${snake(d)}`),
    at: sql.raw('v.sent_at'),
    specialty: sql.raw('v.author_specialty_id'),
    version: sql.raw('tlx'),
  },
};

/** The count and the KPI means of the rows matching `filter`, as `n_<suffix>` and `<kpi>_<suffix>` columns. */
function windowColumns(filter: SQL, suffix: string): SQL {
  const parts = [sql`count(*) FILTER (WHERE ${filter})::int AS ${sql.raw(`n_${suffix}`)}`];
  for (const kpi of KPIS) parts.push(sql`avg(${kpiValue(kpi)}) FILTER (WHERE ${filter})::float8 AS ${sql.raw(`"${kpi}_${suffix}"`)}`);
  return sql.join(parts, sql`, `);
}

function series(row: Record<string, unknown>, suffix: string, key: RadarSeries['key'], at: Date): RadarSeries {
  const analyses = Number(row[`n_${suffix}`] ?? 0);
  const enoughData = analyses >= STATS_MIN_ANALYSES;
  const kpis = Object.fromEntries(
    KPIS.map((k) => [k, enoughData ? roundMean(row[`${k}_${suffix}`] === null ? null : Number(row[`${k}_${suffix}`])) : null]),
  ) as KpiMeans;
  return { key, at: at.toISOString(), analyses, enoughData, kpis };
}

/**
 * The average surgeon of a window: each surgeon's own mean of each KPI over their analyses of the
 * window, then the mean of those means, so that a surgeon with many analyses weighs no more than
 * one with a single analysis. A KPI needs STATS_MIN_SURGEONS surgeons who were rated on it.
 */
function averageSeries(row: Record<string, unknown>, at: Date): RadarSeries {
  const analyses = Number(row.analyses ?? 0);
  const surgeons = Number(row.surgeons ?? 0);
  const enoughData = surgeons >= STATS_MIN_SURGEONS;
  const kpis = Object.fromEntries(
    KPIS.map((k) => [k, enoughData && Number(row[`n_${k}`] ?? 0) >= STATS_MIN_SURGEONS ? meanOf(row[k]) : null]),
  ) as KpiMeans;
  return { key: 'average', at: at.toISOString(), analyses, surgeons, enoughData, kpis };
}

/** A NASA-TLX scale of a case, as a number. */
const tlxValue = (d: NasaTlxDimension) => sql.raw(`v.tlx_${snake(d)}`);
/** The mean of each scale over the rows aggregated. */
const tlxColumns = sql.join(
  NASA_TLX_DIMENSIONS.map((d) => sql`avg(${tlxValue(d)})::float8 AS ${sql.raw(`"${d}"`)}`),
  sql`, `,
);
const meanOf = (v: unknown) => (v === null || v === undefined ? null : roundMean(Number(v)));
const tlxMeansOf = (row: Record<string, unknown>) => Object.fromEntries(NASA_TLX_DIMENSIONS.map((d) => [d, meanOf(row[d])])) as TlxMeans;
/**
 * The mean raw score: the mean of the six means, which is the mean of the cases' raw scores since
 * every case carries the six scales (`nasaTlxSchema`); PostgreSQL reads each scale once.
 */
function tlxRawOf(row: Record<string, unknown>): number | null {
  const means = NASA_TLX_DIMENSIONS.map((d) => row[d]);
  if (means.some((v) => v === null || v === undefined)) return null;
  return meanOf(means.reduce((sum: number, v) => sum + Number(v), 0) / means.length);
}

function meanOverCases(n: unknown, mean: unknown, min: number) {
  const cases = Number(n ?? 0);
  return { cases, mean: cases >= min ? meanOf(mean) : null };
}

/** Case counts and means of the cases matching `filter`, as `<name>_<suffix>` columns. */
function caseColumns(filter: SQL, suffix: string): SQL {
  const col = (expr: SQL, name: string, type = 'float8') =>
    sql`(${expr} FILTER (WHERE ${filter}))::${sql.raw(type)} AS ${sql.raw(`${name}_${suffix}`)}`;
  return sql.join(
    [
      col(sql`count(*)`, 'n', 'int'),
      col(sql`avg(duration)`, 'duration'),
      col(sql`avg(active)`, 'active'),
      col(sql`avg(greatest(0, duration - active))`, 'non_active'),
      col(sql`avg(surgery_duration)`, 'surgery_duration'),
    ],
    sql`, `,
  );
}

function caseTimesOf(row: Record<string, unknown>, suffix: string, min: number): CaseTimes {
  const cases = Number(row[`n_${suffix}`] ?? 0);
  const enoughData = cases >= min;
  const value = (name: string) => (enoughData ? meanOf(row[`${name}_${suffix}`]) : null);
  return {
    cases,
    enoughData,
    duration: value('duration'),
    active: value('active'),
    nonActive: value('non_active'),
    surgeryDuration: value('surgery_duration'),
  };
}

/**
 * A learner's statistics, aggregated by PostgreSQL (docs/statistics.md): the learner's rows are
 * found through `videos_author_created`, the average's through `analyses_submitted`; no analysis
 * row reaches this process. A case counts once, with the mean of its reviews (`caseRatings`).
 */
export function createStatsService(deps: { db: Db; clock: () => Date; timeZone: string }) {
  const { db, clock, timeZone } = deps;
  /** The start of the window that ends at `end`: STATS_WINDOW_DAYS calendar days before, same time of day. */
  const windowStart = (end: Date) => zonedDaysBefore(end, STATS_WINDOW_DAYS, timeZone);

  async function learnerRadar(learnerId: string, now: Date): Promise<RadarSeries[]> {
    const ends = STATS_PAST_MONTHS.map((m) => monthsBefore(now, m, timeZone));
    const oldest = windowStart(ends.at(-1)!);
    const columns = ends.map((end, i) => {
      const start = windowStart(end);
      return windowColumns(sql`a.submitted_at > ${start.toISOString()} AND a.submitted_at <= ${end.toISOString()}`, String(i));
    });
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT ${sql.join(columns, sql`, `)}
      FROM ${caseRatings(learnerId)} a
      WHERE a.status = 'submitted'
        AND a.submitted_at > ${oldest.toISOString()} AND a.submitted_at <= ${now.toISOString()}`);
    return STATS_PAST_MONTHS.map((m, i) => series(rows[0] ?? {}, String(i), m, ends[i]!));
  }

  /**
   * Every surgeon's sums over each interval (lo, hi] of `intervals` of the cases of the peers, and
   * the version of the data they were read at, in one statement (one snapshot).
   */
  async function surgeonSums(kind: PeerKind, specialtyId: string | null, intervals: [Date, Date][]) {
    const { version, from, filter, values, at, specialty } = PEERS[kind];
    const parts = intervals.map(([lo, hi]) =>
      lo.getTime() >= hi.getTime()
        ? sql`'[]'::json`
        : sql`(SELECT coalesce(json_agg(w), '[]'::json) FROM (
            SELECT author_id, count(*)::int AS n, ${sql.join(
              values.map((v, i) => sql.raw(`sum(${v}::float8) AS s${i}, count(${v})::int AS c${i}`)),
              sql`, `,
            )}
            FROM ${from}
            WHERE ${filter} ${specialtyId ? sql`AND ${specialty} = ${specialtyId}` : sql``}
              AND ${at} > ${lo.toISOString()} AND ${at} <= ${hi.toISOString()}
            GROUP BY author_id) w)`,
    );
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT (SELECT ${version}::text FROM stats_version) AS version, ${sql.join(
        parts.map((p, i) => sql`${p} AS ${sql.raw(`i${i}`)}`),
        sql`, `,
      )}`);
    const row = rows[0] ?? {};
    return {
      version: row.version === null || row.version === undefined ? null : String(row.version),
      rows: parts.map((_, i) => row[`i${i}`] as SurgeonRow[]),
    };
  }

  /** Kept windows of the average surgeon, by kind and peers (stats.peers.ts). */
  const peerWindows = new Map<string, PeerWindow>();

  /** Every surgeon's sums over the window that ends at `now`, from the kept ones when they still hold. */
  async function peerWindow(kind: PeerKind, specialtyId: string | null, now: Date): Promise<PeerWindow> {
    const key = `${kind}:${specialtyId ?? ''}`;
    const width = PEERS[kind].values.length;
    const start = windowStart(now);
    const kept = peerWindows.get(key);
    let read: Awaited<ReturnType<typeof surgeonSums>> | undefined;
    // A window kept moves forward by the cases that entered it and those that left it, if the data
    // are those it was read from.
    if (kept && start.getTime() >= kept.start && now.getTime() >= kept.end && start.getTime() <= kept.end) {
      read = await surgeonSums(kind, specialtyId, [
        [new Date(kept.end), now],
        [new Date(kept.start), start],
      ]);
      if (read.version === kept.version) {
        const window = slide(kept, start.getTime(), now.getTime(), read.rows[0]!, read.rows[1]!, width);
        if (keep(peerWindows.get(key), window)) peerWindows.set(key, window);
        return window;
      }
    }
    read = await surgeonSums(kind, specialtyId, [[start, now]]);
    const window = windowOf(read.version ?? '', start.getTime(), now.getTime(), read.rows[0]!, width);
    if (read.version !== null && keep(peerWindows.get(key), window)) peerWindows.set(key, window);
    return window;
  }

  /**
   * The average surgeon's KPIs over the window that ends at `now`: each surgeon's own mean of each
   * KPI over their cases of the window, then the mean of those means. The peers of a specialty are
   * those who were of it when each analysis was submitted (`analyses_specialty_submitted`).
   */
  async function averageRadar(specialtyId: string | null, now: Date): Promise<RadarSeries> {
    const average = averageOf(await peerWindow('kpis', specialtyId, now), KPIS.length);
    const row: Record<string, unknown> = { surgeons: average.surgeons, analyses: average.cases };
    KPIS.forEach((k, i) => Object.assign(row, { [k]: average.means[i], [`n_${k}`]: average.rated[i] }));
    return averageSeries(row, now);
  }

  async function timeline(learnerId: string, now: Date): Promise<TimelinePoint[]> {
    const first = zonedMonthStart(now, timeZone, -(STATS_TIMELINE_MONTHS - 1));
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT to_char(date_trunc('month', a.submitted_at AT TIME ZONE ${timeZone}), 'YYYY-MM-DD') AS month,
        count(*)::int AS n,
        ${sql.join(
          KPIS.map((k) => sql`avg(${kpiValue(k)})::float8 AS ${sql.raw(`"${k}"`)}`),
          sql`, `,
        )},
        avg(a.global_rating)::float8 AS global
      FROM ${caseRatings(learnerId)} a
      WHERE a.status = 'submitted'
        AND a.submitted_at >= ${first.toISOString()} AND a.submitted_at <= ${now.toISOString()}
      GROUP BY 1`);
    const byMonth = new Map(rows.map((r) => [String(r.month), r]));
    return Array.from({ length: STATS_TIMELINE_MONTHS }, (_, i) => {
      const month = zonedMonthKey(now, timeZone, i - (STATS_TIMELINE_MONTHS - 1));
      const row = byMonth.get(month);
      const mean = (v: unknown) => (row && v !== null && v !== undefined ? roundMean(Number(v)) : null);
      return {
        month,
        analyses: row ? Number(row.n) : 0,
        kpis: Object.fromEntries(KPIS.map((k) => [k, mean(row?.[k])])) as KpiMeans,
        global: mean(row?.global),
      };
    });
  }

  /** The caller's specialty, or null. */
  async function specialtyOf(userId: string): Promise<string | null> {
    const { rows } = await db.execute<{ specialty_id: string | null }>(sql`SELECT specialty_id FROM users WHERE id = ${userId}`);
    return rows[0]?.specialty_id ?? null;
  }

  /** The learner's own NASA-TLX means over the cases they sent in the window. */
  async function myTlx(learnerId: string, now: Date): Promise<TlxSeries> {
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT count(*)::int AS n, ${tlxColumns}
      FROM videos v
      WHERE v.nasa_tlx IS NOT NULL AND v.author_id = ${learnerId}
        AND v.sent_at > ${windowStart(now).toISOString()} AND v.sent_at <= ${now.toISOString()}`);
    const row = rows[0] ?? {};
    const cases = Number(row.n ?? 0);
    const enoughData = cases >= STATS_MIN_ANALYSES;
    return { key: 'mine', cases, enoughData, dimensions: tlxMeansOf(enoughData ? row : {}), raw: enoughData ? tlxRawOf(row) : null };
  }

  /**
   * The average surgeon's NASA-TLX: each surgeon's own mean of each scale over the cases they sent
   * in the window, then the mean of those means; the peers of a specialty are those who were of it
   * when they sent each case (`videos_specialty_sent_tlx`, as the KPIs').
   */
  async function averageTlx(specialtyId: string | null, now: Date): Promise<TlxSeries> {
    const average = averageOf(await peerWindow('tlx', specialtyId, now), NASA_TLX_DIMENSIONS.length);
    const row = Object.fromEntries(NASA_TLX_DIMENSIONS.map((d, i) => [d, average.means[i]]));
    const enoughData = average.surgeons >= STATS_MIN_SURGEONS;
    return {
      key: 'average',
      cases: average.cases,
      surgeons: average.surgeons,
      enoughData,
      dimensions: tlxMeansOf(enoughData ? row : {}),
      raw: enoughData ? tlxRawOf(row) : null,
    };
  }

  async function tlxTimeline(learnerId: string, now: Date): Promise<TlxMonth[]> {
    const first = zonedMonthStart(now, timeZone, -(STATS_TIMELINE_MONTHS - 1));
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT to_char(date_trunc('month', v.sent_at AT TIME ZONE ${timeZone}), 'YYYY-MM-DD') AS month, count(*)::int AS n, ${tlxColumns}
      FROM videos v
      WHERE v.author_id = ${learnerId} AND v.nasa_tlx IS NOT NULL
        AND v.sent_at >= ${first.toISOString()} AND v.sent_at <= ${now.toISOString()}
      GROUP BY 1`);
    const byMonth = new Map(rows.map((r) => [String(r.month), r]));
    return Array.from({ length: STATS_TIMELINE_MONTHS }, (_, i) => {
      const month = zonedMonthKey(now, timeZone, i - (STATS_TIMELINE_MONTHS - 1));
      const row = byMonth.get(month) ?? {};
      return { month, cases: Number(row.n ?? 0), dimensions: tlxMeansOf(row), raw: tlxRawOf(row) };
    });
  }

  /** The surgeries of the learner's prepared cases (those with steps), most cases first. */
  async function preparedSurgeries(learnerId: string, lang: Language) {
    const name = lang === 'fr' ? sql`s.name_fr` : sql`s.name_en`;
    const { rows } = await db.execute<{ id: string; name: string; cases: number }>(sql`
      SELECT s.id, ${name} AS name, count(*)::int AS cases
      FROM videos v JOIN surgeries s ON s.id = v.surgery_id
      WHERE v.author_id = ${learnerId} AND v.active_seconds IS NOT NULL
      GROUP BY s.id, ${name}, s.position
      ORDER BY cases DESC, s.position, name`);
    return rows.map((r) => ({ id: r.id, name: r.name, cases: Number(r.cases) }));
  }

  /** The sum of the marks of each step in each case, averaged over the cases that mark it. */
  const stepMeans = sql`count(DISTINCT st.video_id)::int AS n, (sum(st."end" - st.start) / count(DISTINCT st.video_id))::float8 AS mean`;
  /** The prepared cases of a surgery (those with steps, `videos_surgery_times`), with `and` for some of them. */
  const surgeryCases = (surgeryId: string, and: SQL) => sql`(
    SELECT v.duration, v.surgery_duration, v.active_seconds AS active
    FROM videos v
    WHERE v.surgery_id = ${surgeryId} AND v.active_seconds IS NOT NULL ${and}
  ) AS cases`;

  /** Everyone's times of each surgery, kept while the data they were read from hold (`stats_version.steps`). */
  const everyoneTimes = new Map<
    string,
    { version: string; steps: Map<string, { n: unknown; mean: unknown }>; cases: Record<string, unknown> }
  >();

  /**
   * All learners' times of a surgery (the learner included): each step of its vocabulary, read from
   * `video_steps_surgery_step` alone in its order (a vocabulary step is marked only in cases of its
   * surgery), and its prepared cases; kept from a former request if the data are still those.
   */
  async function everyone(surgeryId: string, version: string | null) {
    const kept = everyoneTimes.get(surgeryId);
    if (kept && kept.version === version) return kept;
    const { rows } = await db.execute<{
      version: string | null;
      steps: { id: string; n: unknown; mean: unknown }[];
      cases: Record<string, unknown>;
    }>(sql`
      SELECT (SELECT steps::text FROM stats_version) AS version,
        (SELECT coalesce(json_agg(e), '[]'::json) FROM (
          SELECT st.surgery_step_id AS id, ${stepMeans}
          FROM video_steps st
          WHERE st.surgery_step_id = ANY(ARRAY(SELECT id FROM surgery_steps WHERE surgery_id = ${surgeryId}))
          GROUP BY st.surgery_step_id) e) AS steps,
        (SELECT row_to_json(c) FROM (SELECT ${caseColumns(sql`true`, 'all')} FROM ${surgeryCases(surgeryId, sql``)}) c) AS cases`);
    const row = rows[0]!;
    const times = { version: row.version ?? '', steps: new Map(row.steps.map((e) => [e.id, e])), cases: row.cases };
    if (row.version !== null) everyoneTimes.set(surgeryId, times);
    return times;
  }

  /**
   * The step and case times of a surgery, the learner's against all learners'. Each step of the
   * surgery's vocabulary marked in at least one case: its time in a case (all its marks), averaged
   * over the cases that mark it. Each prepared case: its active time kept on the video (the union
   * of its steps) and its non-active time (the rest of the rendered video).
   */
  async function surgeryTimes(learnerId: string, surgeryId: string, lang: Language) {
    const name = lang === 'fr' ? sql`ss.name_fr` : sql`ss.name_en`;
    // The learner's own, and the version of everyone's data, in one statement.
    const { rows } = await db.execute<{ version: string | null; steps: Record<string, unknown>[]; cases: Record<string, unknown> }>(sql`
      WITH mine AS (
        SELECT st.surgery_step_id, ${stepMeans}
        FROM videos v JOIN video_steps st ON st.video_id = v.id
        WHERE v.author_id = ${learnerId} AND v.surgery_id = ${surgeryId} AND st.surgery_step_id IS NOT NULL
        GROUP BY st.surgery_step_id
      )
      SELECT (SELECT steps::text FROM stats_version) AS version,
        (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM (
          SELECT ss.id, ${name} AS name, ss.position, m.n AS n_mine, m.mean AS mean_mine
          FROM surgery_steps ss LEFT JOIN mine m ON m.surgery_step_id = ss.id
          WHERE ss.surgery_id = ${surgeryId}) s) AS steps,
        (SELECT row_to_json(c) FROM (
          SELECT ${caseColumns(sql`true`, 'mine')} FROM ${surgeryCases(surgeryId, sql`AND v.author_id = ${learnerId}`)}) c) AS cases`);
    const mine = rows[0]!;
    const all = await everyone(surgeryId, mine.version);
    const steps = mine.steps
      .filter((r) => all.steps.has(String(r.id)))
      .map((r) => {
        const e = all.steps.get(String(r.id))!;
        return {
          surgeryStepId: String(r.id),
          name: String(r.name),
          mine: meanOverCases(r.n_mine, r.mean_mine, 1),
          average: meanOverCases(e.n, e.mean, STATS_MIN_ANALYSES),
        };
      });
    return { steps, mine: caseTimesOf(mine.cases, 'mine', 1), average: caseTimesOf(all.cases, 'all', STATS_MIN_ANALYSES) };
  }

  return {
    /** The caller's NASA-TLX against the average (not expert ratings: shown whatever showRatings). */
    async nasaTlx(viewer: RequestUser, compare: StatsComparison): Promise<LearnerNasaTlx> {
      const now = clock();
      const specialtyId = await specialtyOf(viewer.id);
      const bySpecialty = compare === 'specialty' && specialtyId !== null;
      const [mine, average, timeline] = await Promise.all([
        myTlx(viewer.id, now),
        averageTlx(bySpecialty ? specialtyId : null, now),
        tlxTimeline(viewer.id, now),
      ]);
      return {
        compare: bySpecialty ? 'specialty' : 'all',
        specialtyKnown: specialtyId !== null,
        windowDays: STATS_WINDOW_DAYS,
        minCases: STATS_MIN_ANALYSES,
        minSurgeons: STATS_MIN_SURGEONS,
        mine,
        average,
        timeline,
      };
    },

    /** The step times of one surgery, the learner's cases against all learners' (not ratings). */
    async stepTimes(viewer: RequestUser, surgeryId: string | undefined, lang: Language): Promise<LearnerStepTimes> {
      const surgeries = await preparedSurgeries(viewer.id, lang);
      if (surgeryId !== undefined && !surgeries.some((s) => s.id === surgeryId)) {
        const { rows } = await db.execute(sql`SELECT 1 FROM surgeries WHERE id = ${surgeryId}`);
        if (!rows.length) throw new AppError('NOT_FOUND');
      }
      const shown = surgeryId ?? surgeries[0]?.id ?? null;
      if (shown === null) {
        const none: CaseTimes = { cases: 0, enoughData: false, duration: null, active: null, nonActive: null, surgeryDuration: null };
        return { surgeries, surgeryId: null, minCases: STATS_MIN_ANALYSES, steps: [], mine: none, average: none };
      }
      return { surgeries, surgeryId: shown, minCases: STATS_MIN_ANALYSES, ...(await surgeryTimes(viewer.id, shown, lang)) };
    },

    /** The caller's own statistics; none at all with their showRatings off (statistics are ratings). */
    async learner(viewer: RequestUser, compare: StatsComparison): Promise<LearnerStats> {
      if (!viewer.preferences.showRatings) return { ratingsShown: false };
      const now = clock();
      const specialtyId = await specialtyOf(viewer.id);
      const bySpecialty = compare === 'specialty' && specialtyId !== null;
      const [mine, average, months] = await Promise.all([
        learnerRadar(viewer.id, now),
        averageRadar(bySpecialty ? specialtyId : null, now),
        timeline(viewer.id, now),
      ]);
      return {
        ratingsShown: true,
        compare: bySpecialty ? 'specialty' : 'all',
        specialtyKnown: specialtyId !== null,
        windowDays: STATS_WINDOW_DAYS,
        minAnalyses: STATS_MIN_ANALYSES,
        minSurgeons: STATS_MIN_SURGEONS,
        radar: [average, ...mine],
        timeline: months,
      };
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
