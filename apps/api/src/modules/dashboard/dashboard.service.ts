import { sql } from 'drizzle-orm';
import { CLAIM_STATUSES, leaseHoursLeft, type ClaimStage } from '@sutura/domain/claims';
import {
  WAITING_FOR_ANALYSIS,
  WAITING_FOR_PREPARATION,
  type Dashboard,
  type HeldCase,
  type LearnerDashboard,
  type WorkerDashboard,
} from '@sutura/domain/dashboard';
import type { Language } from '@sutura/domain/i18n';
import { zonedMonthStart } from '@sutura/domain/time-zone';
import type { Db } from '../../db/client.ts';
import type { RequestUser } from '../../http/access.ts';

/** More cases than this are never held at once; the list stops there all the same. */
const HELD_SHOWN = 50;

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The first instant of the month of `now` on the installation's clock (`TIME_ZONE`). */
export function monthStart(now: Date, timeZone: string): Date {
  return zonedMonthStart(now, timeZone);
}

/**
 * The numbers of the dashboard, each counted by PostgreSQL on an index: a learner's cases through
 * `videos_author_created`, the pools through `videos_status`, held cases through
 * `videos_claim_holder`, the month's work through `preparations_editor` and
 * `analyses_expert_submitted` (a month of the installation's time zone). Only the sections of the caller's roles are computed.
 */
export function createDashboardService(deps: { db: Db; clock: () => Date; timeZone: string }) {
  const { db, clock, timeZone } = deps;
  const surgeryName = (lang: Language) => sql.raw(lang === 'fr' ? 's.name_fr' : 's.name_en');

  async function learner(viewer: RequestUser, lang: Language): Promise<LearnerDashboard> {
    const { rows: counts } = await db.execute<{ uploaded: number; preparation: number; analysis: number; analysed: number }>(sql`
      SELECT count(*) FILTER (WHERE v.media_status = 'ready')::int AS uploaded,
        count(*) FILTER (WHERE v.status IN (${list(WAITING_FOR_PREPARATION)}))::int AS preparation,
        count(*) FILTER (WHERE v.status IN (${list(WAITING_FOR_ANALYSIS)}))::int AS analysis,
        count(*) FILTER (WHERE v.status = 'analysed')::int AS analysed
      FROM videos v WHERE v.author_id = ${viewer.id} AND v.purpose = 'case'`);
    // The latest result shown to the learner, by its release (every required review in): the
    // mean of its submitted reviews as the result page gives it, once its ratings reached the
    // learner (docs/self-assessment.md); until then it waits for their self-assessment.
    const { rows: latest } = await db.execute<{
      id: string;
      surgery: string | null;
      released_at: Date | string;
      ratings_released: boolean;
      global_sum: number | null;
      global_count: number;
    }>(sql`
      SELECT v.id, ${surgeryName(lang)} AS surgery, coalesce(v.result_released_at, r.last_at) AS released_at,
        v.ratings_released_at IS NOT NULL AS ratings_released, r.global_sum, r.global_count
      FROM videos v
      CROSS JOIN LATERAL (
        SELECT max(a.submitted_at) AS last_at, sum(a.global_rating)::int AS global_sum, count(a.global_rating)::int AS global_count
        FROM analyses a WHERE a.video_id = v.id AND a.status = 'submitted'
      ) r
      LEFT JOIN surgeries s ON s.id = v.surgery_id
      WHERE v.author_id = ${viewer.id} AND (v.status = 'analysed' OR v.result_released_at IS NOT NULL) AND r.last_at IS NOT NULL
      ORDER BY released_at DESC, v.id LIMIT 1`);
    const showRatings = viewer.preferences.showRatings;
    const c = counts[0] ?? { uploaded: 0, preparation: 0, analysis: 0, analysed: 0 };
    const feedback = latest[0];
    // The result page's mean: the sum of the reviews' global ratings over those that gave one, to 0.1.
    const globalRating = (f: NonNullable<typeof feedback>) =>
      f.global_count ? Math.round((Number(f.global_sum) / f.global_count) * 10) / 10 : null;
    const result: LearnerDashboard = {
      uploaded: c.uploaded,
      waiting: { total: c.preparation + c.analysis, preparation: c.preparation, analysis: c.analysis },
      analysed: c.analysed,
      latestFeedback: feedback
        ? {
            videoId: feedback.id,
            surgery: feedback.surgery,
            submittedAt: new Date(feedback.released_at).toISOString(),
            awaitingSelfAssessment: !feedback.ratings_released,
            ...(showRatings && feedback.ratings_released ? { globalRating: globalRating(feedback) } : {}),
          }
        : null,
    };
    if (showRatings) {
      const { rows } = await db.execute<{ mean: number | null }>(sql`
        SELECT avg(c.global_rating)::float8 AS mean FROM (
          -- A double-reviewed case counts once, with the mean of its reviews; a case counts once
          -- its ratings reached the learner.
          SELECT avg(a.global_rating) AS global_rating
          FROM videos v JOIN analyses a ON a.video_id = v.id
          WHERE v.author_id = ${viewer.id} AND v.ratings_released_at IS NOT NULL AND a.status = 'submitted'
          GROUP BY v.id
        ) c`);
      const mean = rows[0]?.mean ?? null;
      result.averageGlobalRating = mean === null ? null : Math.round(Number(mean) * 10) / 10;
    }
    return result;
  }

  async function worker(viewer: RequestUser, stage: ClaimStage, lang: Language, now: Date): Promise<WorkerDashboard> {
    const { pending, held } = CLAIM_STATUSES[stage];
    const { rows: pool } = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM videos
      WHERE kind = 'video' AND purpose = 'case' AND (status = ${pending} OR (status = ${held} AND lease_ends_at <= ${now.toISOString()}))`);
    const { rows: mine } = await db.execute<{ id: string; surgery: string | null; lease_ends_at: Date | string }>(sql`
      SELECT v.id, ${surgeryName(lang)} AS surgery, v.lease_ends_at
      FROM videos v LEFT JOIN surgeries s ON s.id = v.surgery_id
      WHERE v.claim_holder_id = ${viewer.id} AND v.status = ${held} AND v.lease_ends_at > ${now.toISOString()}
      ORDER BY v.lease_ends_at, v.id LIMIT ${HELD_SHOWN}`);
    const since = monthStart(now, timeZone).toISOString();
    const until = now.toISOString();
    const { rows: done } = await db.execute<{ n: number }>(
      stage === 'preparation'
        ? sql`SELECT count(*)::int AS n FROM preparations
              WHERE editor_id = ${viewer.id} AND submitted_at >= ${since} AND submitted_at <= ${until}`
        : sql`SELECT count(*)::int AS n FROM analyses
              WHERE expert_id = ${viewer.id} AND status = 'submitted' AND submitted_at >= ${since} AND submitted_at <= ${until}`,
    );
    return {
      pool: pool[0]?.n ?? 0,
      held: mine.map((r): HeldCase => ({
        videoId: r.id,
        surgery: r.surgery,
        leaseEndsAt: new Date(r.lease_ends_at).toISOString(),
        hoursLeft: leaseHoursLeft(r.lease_ends_at, now),
      })),
      doneThisMonth: done[0]?.n ?? 0,
    };
  }

  return {
    /** The sections of the caller's roles only (an administrator alone gets none). */
    async of(viewer: RequestUser, lang: Language): Promise<Dashboard> {
      const now = clock();
      const roles = viewer.roles;
      const [learnerPart, editorPart, expertPart] = await Promise.all([
        roles.includes('learner') ? learner(viewer, lang) : undefined,
        roles.includes('editor') ? worker(viewer, 'preparation', lang, now) : undefined,
        roles.includes('expert') ? worker(viewer, 'analysis', lang, now) : undefined,
      ]);
      return {
        ...(learnerPart ? { learner: learnerPart } : {}),
        ...(editorPart ? { editor: editorPart } : {}),
        ...(expertPart ? { expert: expertPart } : {}),
      };
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
