import { eq, sql } from 'drizzle-orm';
import { KPIS, type Kpi, type RatingLevel } from '@sutura/domain/analysis';
import {
  roundGap,
  type SaveSelfAssessmentBody,
  type SelfAssessment,
  type SelfAssessmentState,
  type SelfVsExpertItem,
} from '@sutura/domain/self-assessment';
import { VIDEO_STATUSES, type VideoStatus } from '@sutura/domain/videos';
import type { Db } from '../../db/client.ts';
import { selfAssessments, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { ClaimsTx } from '../claims/claims.service.ts';
import { releaseRatings } from './ratings-release.ts';

type Row = typeof selfAssessments.$inferSelect;

/** A case is sent once it left 'saved': from then on its author may assess themselves. */
const SENT: readonly VideoStatus[] = VIDEO_STATUSES.filter((status) => status !== 'saved');

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The moment the author first saw the result of a case, recorded when the result (or its PDF
 * report) is first served to them: a reading while the invitation is open counts as declining it,
 * so the case's ratings are released to them and the self-assessment is locked from then on.
 * Answers the author when this reading released the ratings (their dashboard changed), else null.
 */
export async function markResultSeen(db: Db, videoId: string, authorId: string, at: Date): Promise<string | null> {
  const [known] = await db
    .select({ seen: selfAssessments.resultSeenAt, released: videos.ratingsReleasedAt })
    .from(videos)
    .leftJoin(selfAssessments, eq(selfAssessments.videoId, videos.id))
    .where(eq(videos.id, videoId));
  if (known?.seen && known.released) return null;
  return db.transaction(async (tx) => {
    // The case's row first, as every writer of the release takes it (releaseRatings).
    await tx.select({ id: videos.id }).from(videos).where(eq(videos.id, videoId)).for('no key update');
    await tx
      .insert(selfAssessments)
      .values({ videoId, authorId, resultSeenAt: at, updatedAt: at })
      .onConflictDoUpdate({
        target: selfAssessments.videoId,
        set: { resultSeenAt: sql`coalesce(${selfAssessments.resultSeenAt}, excluded.result_seen_at)` },
      });
    return releaseRatings(tx, videoId, at);
  });
}

/**
 * Whether the author of an analysed case is still invited to assess themselves: the result unseen
 * and the self-assessment neither submitted nor skipped (`invite` of the self-assessment).
 */
export async function invitationOpen(db: Db, videoId: string): Promise<boolean> {
  const [row] = await db
    .select({ seen: selfAssessments.resultSeenAt, submitted: selfAssessments.submittedAt, skipped: selfAssessments.skippedAt })
    .from(selfAssessments)
    .where(eq(selfAssessments.videoId, videoId));
  return !row || (row.seen === null && row.submitted === null && row.skipped === null);
}

/** The expert's rating of each KPI and the global rating: the mean of the submitted reviews of the case. */
export async function expertMeans(db: Db, videoId: string): Promise<Record<Kpi | 'global', number | null> | null> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT count(*)::int AS n,
      ${sql.join(
        KPIS.map((k) => sql`avg(${sql.raw(`kpi_${snake(k)}`)})::float8 AS ${sql.raw(`"${k}"`)}`),
        sql`, `,
      )},
      avg(global_rating)::float8 AS global
    FROM analyses WHERE video_id = ${videoId} AND status = 'submitted'`);
  const row = rows[0];
  if (!row || Number(row.n) === 0) return null;
  const value = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return Object.fromEntries([...KPIS, 'global'].map((k) => [k, value(row[k])])) as Record<Kpi | 'global', number | null>;
}

/** Self against expert for each KPI and the global rating (a row for the global rating only when either gave one). */
export function compareWithExpert(
  self: { kpiRatings: Record<string, number> | null; globalRating: number | null },
  expert: Record<Kpi | 'global', number | null>,
): SelfVsExpertItem[] {
  const item = (kpi: Kpi | 'global', mine: number | null): SelfVsExpertItem => {
    const theirs = expert[kpi] === null ? null : roundGap(expert[kpi]);
    return { kpi, self: mine, expert: theirs, gap: mine === null || theirs === null ? null : roundGap(mine - theirs) };
  };
  const items = KPIS.map((k) => item(k, self.kpiRatings?.[k] ?? null));
  if (self.globalRating !== null || expert.global !== null) items.push(item('global', self.globalRating));
  return items;
}

/** Self against expert for the PDF report: the author's submitted self-assessment, or null. */
export async function reportComparison(db: Db, videoId: string, viewerId: string): Promise<SelfVsExpertItem[] | null> {
  const [row] = await db.select().from(selfAssessments).where(eq(selfAssessments.videoId, videoId));
  if (!row?.submittedAt || row.authorId !== viewerId) return null;
  const expert = await expertMeans(db, videoId);
  return expert ? compareWithExpert({ kpiRatings: row.kpiRatings, globalRating: row.globalRating }, expert) : null;
}

type CaseRow = { id: string; authorId: string; status: string; resultReleasedAt: Date | null; ratingsReleasedAt: Date | null };

/**
 * The self-assessment of a case (docs/self-assessment.md). Only the case's author reads or
 * writes it (404 for anyone else, administrators and the experts included). `onRatingsReleased`
 * hears of a case whose ratings an answer or a skip released (the author's dashboard changed).
 */
export function createSelfAssessmentService(deps: { db: Db; clock: () => Date; onRatingsReleased?: (authorId: string) => void }) {
  const { db, clock, onRatingsReleased } = deps;

  /** The author's case; in a transaction, its row locked as every writer of the release locks it. */
  async function authorsCase(viewer: RequestUser, videoId: string, tx?: ClaimsTx): Promise<CaseRow> {
    const query = (tx ?? db)
      .select({
        id: videos.id,
        authorId: videos.authorId,
        status: videos.status,
        resultReleasedAt: videos.resultReleasedAt,
        ratingsReleasedAt: videos.ratingsReleasedAt,
      })
      .from(videos)
      .where(eq(videos.id, videoId));
    const [video] = tx ? await query.for('no key update') : await query;
    if (!video || video.authorId !== viewer.id) throw notFound();
    return video;
  }

  async function rowOf(videoId: string, tx?: ClaimsTx): Promise<Row | null> {
    const [row] = await (tx ?? db).select().from(selfAssessments).where(eq(selfAssessments.videoId, videoId));
    return row ?? null;
  }

  function stateOf(row: Row | null): SelfAssessmentState {
    if (row?.submittedAt) return 'submitted';
    return row?.skippedAt ? 'skipped' : 'open';
  }

  async function view(viewer: RequestUser, video: CaseRow, row: Row | null): Promise<SelfAssessment> {
    const state = stateOf(row);
    const seen = row?.resultSeenAt ?? null;
    const sent = (SENT as readonly string[]).includes(video.status);
    const released = video.ratingsReleasedAt;
    // The experts' mean once the result is shown: every required review in, or a further review
    // under way after it was shown (its submitted reviews stay the result meanwhile).
    const shown = video.status === 'analysed' || video.resultReleasedAt !== null;
    const expert = shown ? await expertMeans(db, video.id) : null;
    const showComparison = released !== null && state === 'submitted' && expert !== null && viewer.preferences.showRatings;
    return {
      videoId: video.id,
      state,
      canRate: sent && released === null && seen === null,
      resultSeenAt: seen?.toISOString() ?? null,
      ratingsReleasedAt: released?.toISOString() ?? null,
      invite: expert !== null && released === null && seen === null && state === 'open',
      kpiRatings: state === 'submitted' ? (row!.kpiRatings as Record<Kpi, RatingLevel>) : null,
      globalRating: state === 'submitted' ? ((row!.globalRating ?? null) as RatingLevel | null) : null,
      submittedAt: row?.submittedAt?.toISOString() ?? null,
      skippedAt: row?.skippedAt?.toISOString() ?? null,
      comparison: showComparison ? compareWithExpert({ kpiRatings: row!.kpiRatings, globalRating: row!.globalRating }, expert) : null,
    };
  }

  /** Refuses a change: the case is not sent yet, or its ratings reached the learner (or its result was read). */
  function assertOpen(video: CaseRow, row: Row | null) {
    if (video.ratingsReleasedAt || row?.resultSeenAt) throw new AppError('SELF_ASSESSMENT_LOCKED');
    if (!(SENT as readonly string[]).includes(video.status)) throw new AppError('SELF_ASSESSMENT_NOT_SENT');
  }

  /**
   * A change of the self-assessment, with the case's row locked: checked open, written, and the
   * ratings released when the result is already shown (the learner has answered).
   */
  async function change(viewer: RequestUser, videoId: string, write: (tx: ClaimsTx, row: Row | null, now: Date) => Promise<Row | null>) {
    const now = clock();
    const done = await db.transaction(async (tx) => {
      const video = await authorsCase(viewer, videoId, tx);
      const before = await rowOf(videoId, tx);
      assertOpen(video, before);
      const row = (await write(tx, before, now)) ?? (await rowOf(videoId, tx));
      const released = await releaseRatings(tx, videoId, now);
      return { video: released ? { ...video, ratingsReleasedAt: now } : video, row, released };
    });
    if (done.released) onRatingsReleased?.(done.released);
    return view(viewer, done.video, done.row);
  }

  return {
    async get(viewer: RequestUser, videoId: string): Promise<SelfAssessment> {
      const video = await authorsCase(viewer, videoId);
      return view(viewer, video, await rowOf(videoId));
    },

    /**
     * Rates (or rates again) the case until its ratings reach the learner; a skipped one may still
     * be rated until then. Rated once the result is shown, the ratings are released at once.
     */
    async save(viewer: RequestUser, videoId: string, body: SaveSelfAssessmentBody): Promise<SelfAssessment> {
      return change(viewer, videoId, async (tx, _row, now) => {
        const values = { kpiRatings: body.kpiRatings, globalRating: body.globalRating ?? null, submittedAt: now, updatedAt: now };
        const [written] = await tx
          .insert(selfAssessments)
          .values({ videoId, authorId: viewer.id, ...values })
          .onConflictDoUpdate({ target: selfAssessments.videoId, set: values })
          .returning();
        return written ?? null;
      });
    },

    /** Declines the invitation once; nothing changes when already rated or skipped. */
    async skip(viewer: RequestUser, videoId: string): Promise<SelfAssessment> {
      return change(viewer, videoId, async (tx, row, now) => {
        if (row?.submittedAt || row?.skippedAt) return row;
        await tx
          .insert(selfAssessments)
          .values({ videoId, authorId: viewer.id, skippedAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: selfAssessments.videoId,
            set: { skippedAt: sql`coalesce(${selfAssessments.skippedAt}, excluded.skipped_at)`, updatedAt: now },
          });
        return null;
      });
    },
  };
}
export type SelfAssessmentService = ReturnType<typeof createSelfAssessmentService>;
