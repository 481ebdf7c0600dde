import { and, count, eq } from 'drizzle-orm';
import { ANALYSIS_LIMITS, type AnalysisComment, type CommentBody } from '@sutura/domain/analysis';
import { analysisComments } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';

import type { AnalysisDrafts } from './analysis.drafts.ts';

/** The time-coded comments of the holder's own analysis. */
export function createAnalysisComments(deps: { audit: Audit; drafts: AnalysisDrafts; clock: () => Date }) {
  const { audit, drafts, clock } = deps;
  const { fencedWrite } = drafts;
  return {
    async addComment(viewer: RequestUser, videoId: string, body: CommentBody, ip: string | null = null): Promise<AnalysisComment> {
      const row = await fencedWrite(viewer, videoId, body.fencingToken, async (tx, { video, draft }) => {
        checkCommentTimes(body, video.duration);
        const [n] = await tx
          .select({ n: count() })
          .from(analysisComments)
          .where(and(eq(analysisComments.videoId, videoId), eq(analysisComments.round, draft.round)));
        if ((n?.n ?? 0) >= ANALYSIS_LIMITS.commentsMax) throw new AppError('COMMENTS_LIMIT', { max: ANALYSIS_LIMITS.commentsMax });
        const [row] = await tx
          .insert(analysisComments)
          .values({
            videoId,
            round: draft.round,
            start: body.start,
            end: body.end ?? null,
            text: body.text,
            createdAt: clock(),
            updatedAt: clock(),
          })
          .returning();
        return row;
      });
      await audit(viewer.id, 'analysis.comment_added', 'video', videoId, ip, { commentId: row!.id });
      return commentOut(row!);
    },

    async updateComment(
      viewer: RequestUser,
      videoId: string,
      commentId: string,
      body: CommentBody,
      ip: string | null = null,
    ): Promise<AnalysisComment> {
      const row = await fencedWrite(viewer, videoId, body.fencingToken, async (tx, { video, draft }) => {
        checkCommentTimes(body, video.duration);
        const [row] = await tx
          .update(analysisComments)
          .set({ start: body.start, end: body.end ?? null, text: body.text, updatedAt: clock() })
          .where(and(eq(analysisComments.id, commentId), eq(analysisComments.videoId, videoId), eq(analysisComments.round, draft.round)))
          .returning();
        if (!row) throw notFound();
        return row;
      });
      await audit(viewer.id, 'analysis.comment_updated', 'video', videoId, ip, { commentId });
      return commentOut(row);
    },

    async removeComment(
      viewer: RequestUser,
      videoId: string,
      commentId: string,
      fencingToken: number,
      ip: string | null = null,
    ): Promise<void> {
      await fencedWrite(viewer, videoId, fencingToken, async (tx, { draft }) => {
        const [row] = await tx
          .delete(analysisComments)
          .where(and(eq(analysisComments.id, commentId), eq(analysisComments.videoId, videoId), eq(analysisComments.round, draft.round)))
          .returning({ id: analysisComments.id });
        if (!row) throw notFound();
      });
      await audit(viewer.id, 'analysis.comment_removed', 'video', videoId, ip, { commentId });
    },
  };
}

function commentOut(c: typeof analysisComments.$inferSelect): AnalysisComment {
  return {
    id: c.id,
    start: c.start,
    end: c.end,
    text: c.text,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** A comment lies on the rendered video. */
function checkCommentTimes(body: CommentBody, duration: number | null) {
  if (duration === null) return;
  // A playhead may sit a frame past the last one.
  const limit = duration + 0.5;
  if (body.start > limit) throw new AppError('VALIDATION', {}, [{ path: 'start', code: 'INVALID_VALUE' }]);
  if (body.end != null && body.end > limit) throw new AppError('VALIDATION', {}, [{ path: 'end', code: 'INVALID_VALUE' }]);
}
