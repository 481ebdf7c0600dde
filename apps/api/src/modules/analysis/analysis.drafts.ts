import { and, asc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import { KPIS, type AnalysisComment, type AnalysisDraft, type AnalysisStep, type Kpi, type RatingLevel } from '@sutura/domain/analysis';
import type { ClaimStage } from '@sutura/domain/claims';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { analyses, analysisComments, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Claims, ClaimsTx } from '../claims/claims.service.ts';
import type { MediaService } from '../media/media.service.ts';

import type { CaseReads } from '../cases/case-read.ts';

export type VideoRow = typeof videos.$inferSelect;
export type AnalysisRow = typeof analyses.$inferSelect;

/**
 * The expert's draft and what it is read with: the case's steps, the comments, the voice advice,
 * and the fenced writes of its holder (the claim checked by modules/claims).
 */
export function createAnalysisDrafts(deps: { db: Db; mediaService: MediaService; claims: Claims; cases: CaseReads; clock: () => Date }) {
  const { db, mediaService, claims, cases, clock } = deps;

  /** The rendered steps, named in the reader's language. */
  async function stepsOf(videoId: string, lang: Language): Promise<AnalysisStep[]> {
    const steps = await cases.steps(videoId, lang);
    return steps.map((s) => ({ id: s.id, name: s.name, start: s.start, end: s.end, position: s.position }));
  }

  /** The comments of one review of the case. */
  async function commentsOf(videoId: string, round = 1): Promise<AnalysisComment[]> {
    const rows = await db
      .select()
      .from(analysisComments)
      .where(and(eq(analysisComments.videoId, videoId), eq(analysisComments.round, round)))
      .orderBy(asc(analysisComments.start), asc(analysisComments.createdAt));
    return rows.map((c) => ({
      id: c.id,
      start: c.start,
      end: c.end,
      text: c.text,
      drawing: c.drawing ?? null,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    }));
  }

  function voiceOf(row: AnalysisRow, viewerId: string) {
    if (!row.voiceMediaId) return null;
    return {
      mediaId: row.voiceMediaId,
      url: mediaService.urlFor(row.voiceMediaId, viewerId)!,
      duration: row.voiceDuration ?? 0,
      contentType: 'audio/mp4',
    };
  }

  async function draftOf(row: AnalysisRow, steps: AnalysisStep[], viewerId: string): Promise<AnalysisDraft> {
    const kpiRatings = Object.fromEntries(KPIS.map((k) => [k, (row.kpiRatings[k] as RatingLevel | undefined) ?? null])) as Record<
      Kpi,
      RatingLevel | null
    >;
    return {
      videoId: row.videoId,
      status: row.status === 'submitted' ? 'submitted' : 'draft',
      stepRatings: steps.map((s) => ({ stepId: s.id, rating: (row.stepRatings[s.id] as RatingLevel | undefined) ?? null })),
      kpiRatings,
      globalRating: (row.globalRating as RatingLevel | null) ?? null,
      assessment: row.assessment,
      advice: row.advice,
      voice: voiceOf(row, viewerId),
      comments: await commentsOf(row.videoId, row.round),
      updatedAt: row.updatedAt.toISOString(),
      submittedAt: row.submittedAt?.toISOString() ?? null,
    };
  }

  /** One review of the case (round 1 unless told). */
  async function analysisRow(videoId: string, tx: Db | ClaimsTx = db, round = 1): Promise<AnalysisRow | undefined> {
    const [row] = await tx
      .select()
      .from(analyses)
      .where(and(eq(analyses.videoId, videoId), eq(analyses.round, round)));
    return row;
  }

  /** The draft of the holder, made at the claim (or now, for a claim older than this module). */
  async function holderDraft(videoId: string, expertId: string, tx: Db | ClaimsTx = db, round = 1): Promise<AnalysisRow> {
    const existing = await analysisRow(videoId, tx, round);
    if (existing && existing.expertId === expertId && existing.status === 'draft') return existing;
    if (existing?.status === 'submitted') throw new AppError('ANALYSIS_SUBMITTED');
    const [row] = await tx
      .insert(analyses)
      .values({ videoId, round, expertId, createdAt: clock(), updatedAt: clock() })
      .onConflictDoUpdate({
        target: [analyses.videoId, analyses.round],
        set: { expertId, stepRatings: {}, kpiRatings: {}, globalRating: null, assessment: '', advice: '', updatedAt: clock() },
        where: eq(analyses.status, 'draft'),
      })
      .returning();
    if (!row) throw new AppError('ANALYSIS_SUBMITTED');
    return row;
  }

  /** Deletes the video's draft (but `keepExpertId`'s); returns its voice comment, to remove once committed. */
  async function deleteDraft(tx: Db | ClaimsTx, videoId: string, keepExpertId?: string, round = 1): Promise<string | null> {
    const conditions: SQL[] = [eq(analyses.videoId, videoId), eq(analyses.round, round), eq(analyses.status, 'draft')];
    if (keepExpertId) conditions.push(or(ne(analyses.expertId, keepExpertId), sql`${analyses.expertId} is null`)!);
    const [removed] = await tx
      .delete(analyses)
      .where(and(...conditions))
      .returning();
    return removed?.voiceMediaId ?? null;
  }

  async function discardDraft(videoId: string, keepExpertId?: string, round = 1) {
    const voiceMediaId = await deleteDraft(db, videoId, keepExpertId, round);
    if (voiceMediaId) await mediaService.remove(voiceMediaId);
  }

  /**
   * The review round the case is at, and its claim stage: round 1 is the analysis stage, rounds 2
   * and 3 the review stage (docs/double-review.md).
   */
  async function roundOf(videoId: string, tx: Db | ClaimsTx = db): Promise<{ round: number; stage: ClaimStage }> {
    const [video] = await tx.select({ round: videos.reviewRound }).from(videos).where(eq(videos.id, videoId));
    const round = video?.round ?? 1;
    return { round, stage: round > 1 ? 'review' : 'analysis' };
  }

  /** The holder's write: the claim module checks the token, then the draft must still be a draft. */
  async function fenced(viewer: RequestUser, videoId: string, fencingToken: number) {
    const { round, stage } = await roundOf(videoId);
    const video = await claims.assertHolder(stage, videoId, viewer.id, fencingToken);
    const draft = await holderDraft(videoId, viewer.id, db, round);
    return { video, draft, stage };
  }

  /** The holder's write, in one transaction with the claim checked and held (see claims.whileHolding). */
  async function fencedWrite<T>(
    viewer: RequestUser,
    videoId: string,
    fencingToken: number,
    write: (tx: ClaimsTx, held: { video: VideoRow; draft: AnalysisRow }) => Promise<T>,
  ): Promise<T> {
    const { round, stage } = await roundOf(videoId);
    return claims.whileHolding(stage, videoId, viewer.id, fencingToken, async (tx, video) =>
      write(tx, { video, draft: await holderDraft(videoId, viewer.id, tx, round) }),
    );
  }

  return { stepsOf, commentsOf, voiceOf, draftOf, analysisRow, holderDraft, deleteDraft, discardDraft, roundOf, fenced, fencedWrite };
}
export type AnalysisDrafts = ReturnType<typeof createAnalysisDrafts>;
