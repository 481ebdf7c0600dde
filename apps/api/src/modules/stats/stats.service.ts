import { sql, type SQL } from 'drizzle-orm';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import type { Language } from '@sutura/domain/i18n';
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
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';

const DAY_MS = 86_400_000;

/** `months` calendar months before `date`, at the same time of day (clamped to the month's end). */
export function monthsBefore(date: Date, months: number): Date {
  const d = new Date(date);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/**
 * The rating of a KPI in an analysis row, from its column generated out of `kpi_ratings` (a JSON
 * null or a missing key is SQL NULL); the indexes of the averages hold these columns.
 */
const kpiValue = (kpi: Kpi) => sql.raw(`a.kpi_${snake(kpi)}`);

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
 * row reaches this process.
 */
export function createStatsService(deps: { db: Db; clock: () => Date }) {
  const { db, clock } = deps;

  async function learnerRadar(learnerId: string, now: Date): Promise<RadarSeries[]> {
    const ends = STATS_PAST_MONTHS.map((m) => monthsBefore(now, m));
    const oldest = new Date(ends.at(-1)!.getTime() - STATS_WINDOW_DAYS * DAY_MS);
    const columns = ends.map((end, i) => {
      const start = new Date(end.getTime() - STATS_WINDOW_DAYS * DAY_MS);
      return windowColumns(sql`a.submitted_at > ${start.toISOString()} AND a.submitted_at <= ${end.toISOString()}`, String(i));
    });
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT ${sql.join(columns, sql`, `)}
      FROM videos v JOIN analyses a ON a.video_id = v.id
      WHERE v.author_id = ${learnerId} AND a.status = 'submitted'
        AND a.submitted_at > ${oldest.toISOString()} AND a.submitted_at <= ${now.toISOString()}`);
    return STATS_PAST_MONTHS.map((m, i) => series(rows[0] ?? {}, String(i), m, ends[i]!));
  }

  async function averageRadar(specialtyId: string | null, now: Date): Promise<RadarSeries> {
    const start = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
    // The peers are those of the specialty when each analysis was submitted (`analyses_specialty_submitted`).
    const peers = specialtyId ? sql`AND a.author_specialty_id = ${specialtyId}` : sql``;
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT ${windowColumns(sql`true`, 'avg')}
      FROM analyses a
      WHERE a.status = 'submitted' ${peers} AND a.submitted_at > ${start.toISOString()} AND a.submitted_at <= ${now.toISOString()}`);
    return series(rows[0] ?? {}, 'avg', 'average', now);
  }

  async function timeline(learnerId: string, now: Date): Promise<TimelinePoint[]> {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (STATS_TIMELINE_MONTHS - 1), 1));
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT to_char(date_trunc('month', a.submitted_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month,
        count(*)::int AS n,
        ${sql.join(
          KPIS.map((k) => sql`avg(${kpiValue(k)})::float8 AS ${sql.raw(`"${k}"`)}`),
          sql`, `,
        )},
        avg(a.global_rating)::float8 AS global
      FROM videos v JOIN analyses a ON a.video_id = v.id
      WHERE v.author_id = ${learnerId} AND a.status = 'submitted'
        AND a.submitted_at >= ${first.toISOString()} AND a.submitted_at <= ${now.toISOString()}
      GROUP BY 1`);
    const byMonth = new Map(rows.map((r) => [String(r.month), r]));
    return Array.from({ length: STATS_TIMELINE_MONTHS }, (_, i) => {
      const month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)).toISOString().slice(0, 10);
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

  async function tlxSeries(key: TlxSeries['key'], from: SQL, filter: SQL, now: Date): Promise<TlxSeries> {
    const start = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT count(*)::int AS n, ${tlxColumns}
      FROM ${from}
      WHERE v.nasa_tlx IS NOT NULL AND ${filter}
        AND v.sent_at > ${start.toISOString()} AND v.sent_at <= ${now.toISOString()}`);
    const row = rows[0] ?? {};
    const cases = Number(row.n ?? 0);
    const enoughData = cases >= STATS_MIN_ANALYSES;
    return { key, cases, enoughData, dimensions: tlxMeansOf(enoughData ? row : {}), raw: enoughData ? tlxRawOf(row) : null };
  }

  async function tlxTimeline(learnerId: string, now: Date): Promise<TlxMonth[]> {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (STATS_TIMELINE_MONTHS - 1), 1));
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT to_char(date_trunc('month', v.sent_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS month, count(*)::int AS n, ${tlxColumns}
      FROM videos v
      WHERE v.author_id = ${learnerId} AND v.nasa_tlx IS NOT NULL
        AND v.sent_at >= ${first.toISOString()} AND v.sent_at <= ${now.toISOString()}
      GROUP BY 1`);
    const byMonth = new Map(rows.map((r) => [String(r.month), r]));
    return Array.from({ length: STATS_TIMELINE_MONTHS }, (_, i) => {
      const month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1)).toISOString().slice(0, 10);
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

  /**
   * The prepared cases of a surgery (those with steps, `videos_surgery_times`), each with its
   * active time kept on the video (the union of its steps) and its non-active time (the rest of
   * the rendered video); the learner's (`mine`) and everyone's, the learner included.
   */
  async function caseTimes(learnerId: string, surgeryId: string): Promise<{ mine: CaseTimes; average: CaseTimes }> {
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT ${caseColumns(sql`mine`, 'mine')}, ${caseColumns(sql`true`, 'all')}
      FROM (
        SELECT v.author_id = ${learnerId} AS mine, v.duration, v.surgery_duration, v.active_seconds AS active
        FROM videos v
        WHERE v.surgery_id = ${surgeryId} AND v.active_seconds IS NOT NULL
      ) AS cases`);
    const row = rows[0] ?? {};
    return { mine: caseTimesOf(row, 'mine', 1), average: caseTimesOf(row, 'all', STATS_MIN_ANALYSES) };
  }

  /**
   * Each step of the surgery's vocabulary: its time in a case (all its marks), averaged over the
   * cases that mark it. Everyone's is read from `video_steps_surgery_step` alone, in its order (a
   * vocabulary step is marked only in cases of its surgery); the learner's from their own cases.
   */
  async function stepTimes(learnerId: string, surgeryId: string, lang: Language) {
    const name = lang === 'fr' ? sql`ss.name_fr` : sql`ss.name_en`;
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      WITH everyone AS (
        SELECT st.surgery_step_id, count(DISTINCT st.video_id)::int AS n,
          (sum(st."end" - st.start) / count(DISTINCT st.video_id))::float8 AS mean
        FROM video_steps st
        WHERE st.surgery_step_id = ANY(ARRAY(SELECT id FROM surgery_steps WHERE surgery_id = ${surgeryId}))
        GROUP BY st.surgery_step_id
      ),
      mine AS (
        SELECT st.surgery_step_id, count(DISTINCT st.video_id)::int AS n,
          (sum(st."end" - st.start) / count(DISTINCT st.video_id))::float8 AS mean
        FROM videos v JOIN video_steps st ON st.video_id = v.id
        WHERE v.author_id = ${learnerId} AND v.surgery_id = ${surgeryId} AND st.surgery_step_id IS NOT NULL
        GROUP BY st.surgery_step_id
      )
      SELECT ss.id, ${name} AS name, m.n AS n_mine, m.mean AS mean_mine, e.n AS n_all, e.mean AS mean_all
      FROM surgery_steps ss JOIN everyone e ON e.surgery_step_id = ss.id LEFT JOIN mine m ON m.surgery_step_id = ss.id
      WHERE ss.surgery_id = ${surgeryId}
      ORDER BY ss.position`);
    return rows.map((r) => ({
      surgeryStepId: String(r.id),
      name: String(r.name),
      mine: meanOverCases(r.n_mine, r.mean_mine, 1),
      average: meanOverCases(r.n_all, r.mean_all, STATS_MIN_ANALYSES),
    }));
  }

  return {
    /** The caller's NASA-TLX against the average (not expert ratings: shown whatever showRatings). */
    async nasaTlx(viewer: RequestUser, compare: StatsComparison): Promise<LearnerNasaTlx> {
      const now = clock();
      const specialtyId = await specialtyOf(viewer.id);
      const bySpecialty = compare === 'specialty' && specialtyId !== null;
      const peers = bySpecialty ? sql`videos v JOIN users u ON u.id = v.author_id AND u.specialty_id = ${specialtyId}` : sql`videos v`;
      const [mine, average, timeline] = await Promise.all([
        tlxSeries('mine', sql`videos v`, sql`v.author_id = ${viewer.id}`, now),
        tlxSeries('average', peers, sql`true`, now),
        tlxTimeline(viewer.id, now),
      ]);
      return {
        compare: bySpecialty ? 'specialty' : 'all',
        specialtyKnown: specialtyId !== null,
        windowDays: STATS_WINDOW_DAYS,
        minCases: STATS_MIN_ANALYSES,
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
      const [steps, cases] = await Promise.all([stepTimes(viewer.id, shown, lang), caseTimes(viewer.id, shown)]);
      return { surgeries, surgeryId: shown, minCases: STATS_MIN_ANALYSES, steps, ...cases };
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
        radar: [average, ...mine],
        timeline: months,
      };
    },
  };
}
export type StatsService = ReturnType<typeof createStatsService>;
