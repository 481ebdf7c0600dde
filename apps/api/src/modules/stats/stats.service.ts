import { sql, type SQL } from 'drizzle-orm';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import {
  roundMean,
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

/** The rating of a KPI in an analysis row, as a number (a JSON null or a missing key is SQL NULL). */
const kpiValue = (kpi: Kpi) => sql.raw(`(a.kpi_ratings ->> '${kpi}')::float8`);

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
    const peers = specialtyId
      ? sql`JOIN videos v ON v.id = a.video_id JOIN users u ON u.id = v.author_id AND u.specialty_id = ${specialtyId}`
      : sql``;
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT ${windowColumns(sql`true`, 'avg')}
      FROM analyses a ${peers}
      WHERE a.status = 'submitted' AND a.submitted_at > ${start.toISOString()} AND a.submitted_at <= ${now.toISOString()}`);
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

  return {
    /** The caller's own statistics; none at all with their showRatings off (statistics are ratings). */
    async learner(viewer: RequestUser, compare: StatsComparison): Promise<LearnerStats> {
      if (!viewer.preferences.showRatings) return { ratingsShown: false };
      const now = clock();
      const { rows: me } = await db.execute<{ specialty_id: string | null }>(sql`SELECT specialty_id FROM users WHERE id = ${viewer.id}`);
      const specialtyId = me[0]?.specialty_id ?? null;
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
