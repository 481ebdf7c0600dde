import { sql } from 'drizzle-orm';
import { KPIS, type Kpi } from '@sutura/domain/analysis';
import { roundGap, SELF_VS_EXPERT_MONTHS, selfVsExpertTrend, type LearnerSelfVsExpert } from '@sutura/domain/self-assessment';
import { zonedMonthKey, zonedMonthStart } from '@sutura/domain/time-zone';
import type { Db } from '../../db/client.ts';
import type { RequestUser } from '../../http/access.ts';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * "Self vs expert" month by month (docs/statistics.md): for each month of the expert's result
 * (the first review's submission, installation time zone), the mean absolute difference between
 * the learner's self-rating and the expert's rating (the mean of the reviews when several), per
 * KPI and over every (case, KPI) pair, and the signed mean difference (self − expert) beside it;
 * the trend compares the latest month with data to the first. Only the cases whose ratings reached
 * the learner count (`videos.ratings_released_at`): a gap would give a hidden rating away while the
 * self-assessment can still be changed.
 */
export function createSelfVsExpertStats(deps: { db: Db; clock: () => Date; timeZone: string }) {
  const { db, clock, timeZone } = deps;
  return {
    async learner(viewer: RequestUser): Promise<LearnerSelfVsExpert> {
      if (!viewer.preferences.showRatings) return { ratingsShown: false };
      const now = clock();
      const first = zonedMonthStart(now, timeZone, -(SELF_VS_EXPERT_MONTHS - 1));
      const diff = (k: Kpi) => sql`abs((s.kpi_ratings ->> ${k})::float8 - e.${sql.raw(`"${k}"`)})`;
      const signed = (k: Kpi) => sql`(s.kpi_ratings ->> ${k})::float8 - e.${sql.raw(`"${k}"`)}`;
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT to_char(date_trunc('month', e.at AT TIME ZONE ${timeZone}), 'YYYY-MM-DD') AS month, count(*)::int AS n,
          ${sql.join(
            KPIS.map(
              (k) =>
                sql`sum(${diff(k)})::float8 AS ${sql.raw(`"sum_${k}"`)}, sum(${signed(k)})::float8 AS ${sql.raw(`"signed_${k}"`)}, count(${diff(k)})::int AS ${sql.raw(`"n_${k}"`)}`,
            ),
            sql`, `,
          )}
        FROM self_assessments s
        JOIN (
          SELECT a.video_id, min(a.submitted_at) AS at,
            ${sql.join(
              KPIS.map((k) => sql`avg(${sql.raw(`a.kpi_${snake(k)}`)})::float8 AS ${sql.raw(`"${k}"`)}`),
              sql`, `,
            )}
          FROM analyses a
          WHERE a.status = 'submitted' AND a.video_id IN (
            SELECT m.video_id FROM self_assessments m JOIN videos v ON v.id = m.video_id
            WHERE m.author_id = ${viewer.id} AND m.submitted_at IS NOT NULL AND v.ratings_released_at IS NOT NULL)
          GROUP BY a.video_id
        ) AS e ON e.video_id = s.video_id
        WHERE s.author_id = ${viewer.id} AND s.submitted_at IS NOT NULL
          AND e.at >= ${first.toISOString()} AND e.at <= ${now.toISOString()}
        GROUP BY 1`);
      const byMonth = new Map(rows.map((r) => [String(r.month), r]));
      const months = Array.from({ length: SELF_VS_EXPERT_MONTHS }, (_, i) => {
        const month = zonedMonthKey(now, timeZone, i - (SELF_VS_EXPERT_MONTHS - 1));
        const row = byMonth.get(month) ?? {};
        const count = (k: Kpi) => Number(row[`n_${k}`] ?? 0);
        const sum = (k: Kpi) => Number(row[`sum_${k}`] ?? 0);
        const signedSum = (k: Kpi) => Number(row[`signed_${k}`] ?? 0);
        const pairs = KPIS.reduce((n, k) => n + count(k), 0);
        const signedKpis = Object.fromEntries(KPIS.map((k) => [k, count(k) ? roundGap(signedSum(k) / count(k)) : null]));
        return {
          month,
          cases: Number(row.n ?? 0),
          kpis: Object.fromEntries(KPIS.map((k) => [k, count(k) ? roundGap(sum(k) / count(k)) : null])) as Record<Kpi, number | null>,
          kpiCounts: Object.fromEntries(KPIS.map((k) => [k, count(k)])) as Record<Kpi, number>,
          overall: pairs ? roundGap(KPIS.reduce((s, k) => s + sum(k), 0) / pairs) : null,
          pairs,
          signedKpis: signedKpis as Record<Kpi, number | null>,
          signedOverall: pairs ? roundGap(KPIS.reduce((s, k) => s + signedSum(k), 0) / pairs) : null,
        };
      });
      return { ratingsShown: true, months, ...selfVsExpertTrend(months) };
    },
  };
}
export type SelfVsExpertStats = ReturnType<typeof createSelfVsExpertStats>;
