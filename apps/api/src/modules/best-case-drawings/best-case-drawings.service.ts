import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { CONSENTS_THAT_ALLOW_PUBLISHING } from '@sutura/domain/best-cases';
import type { BestCaseDrawing, BestCaseDrawingBody } from '@sutura/domain/drawing';
import { ADMIN_ROLES } from '@sutura/domain/roles';
import type { Db } from '../../db/client.ts';
import { bestCaseDrawings, bestCases, videos } from '../../db/schema.ts';
import type { RequestUser } from '../../http/access.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Audit } from '../audit/audit.service.ts';

/** Drawings of one best case: enough for every step of a long surgery. */
export const BEST_CASE_DRAWINGS_MAX = 100;

type DrawingRow = typeof bestCaseDrawings.$inferSelect;

function drawingOut(row: DrawingRow): BestCaseDrawing {
  return { id: row.id, note: row.note, drawing: row.drawing, createdAt: row.createdAt.toISOString() };
}

/**
 * An administrator's teaching drawings over frames of a best case (issue 18, point 3). Whoever may
 * watch the best case reads them: administrators and copil always, learners, editors and experts
 * once it is visible to them (the same rule as modules/best-cases); 404 otherwise.
 */
export function createBestCaseDrawingService(deps: { db: Db; audit: Audit; clock: () => Date }) {
  const { db, audit, clock } = deps;

  async function bestCaseOf(id: string) {
    const [row] = await db
      .select({ bc: bestCases, video: { duration: videos.duration, mediaStatus: videos.mediaStatus } })
      .from(bestCases)
      .innerJoin(videos, eq(videos.id, bestCases.videoId))
      .where(eq(bestCases.id, id));
    if (!row) throw notFound();
    return row;
  }

  return {
    async list(viewer: RequestUser, id: string): Promise<BestCaseDrawing[]> {
      const { bc, video } = await bestCaseOf(id);
      const admin = viewer.roles.some((r) => ADMIN_ROLES.includes(r));
      const visible =
        bc.published && (CONSENTS_THAT_ALLOW_PUBLISHING as readonly string[]).includes(bc.consent) && video.mediaStatus === 'ready';
      if (!admin && !visible) throw notFound();
      const rows = await db
        .select()
        .from(bestCaseDrawings)
        .where(eq(bestCaseDrawings.bestCaseId, id))
        .orderBy(asc(bestCaseDrawings.time), asc(bestCaseDrawings.createdAt));
      return rows.map(drawingOut);
    },

    async add(viewer: RequestUser, id: string, body: BestCaseDrawingBody, ip: string | null): Promise<BestCaseDrawing> {
      const { video } = await bestCaseOf(id);
      if (video.mediaStatus !== 'ready' || !video.duration) throw new AppError('VIDEO_NOT_READY');
      // A playhead may sit a frame past the last one.
      if (body.drawing.time > video.duration + 0.5) {
        throw new AppError('VALIDATION', {}, [{ path: 'drawing.time', code: 'INVALID_VALUE' }]);
      }
      const row = await db.transaction(async (tx) => {
        // The best case row locked: two additions at once cannot pass the limit together.
        await tx.select({ id: bestCases.id }).from(bestCases).where(eq(bestCases.id, id)).for('update');
        const [n] = await tx.select({ n: count() }).from(bestCaseDrawings).where(eq(bestCaseDrawings.bestCaseId, id));
        if ((n?.n ?? 0) >= BEST_CASE_DRAWINGS_MAX) throw new AppError('COMMENTS_LIMIT', { max: BEST_CASE_DRAWINGS_MAX });
        const [row] = await tx
          .insert(bestCaseDrawings)
          .values({
            bestCaseId: id,
            time: body.drawing.time,
            drawing: body.drawing,
            note: body.note,
            createdById: viewer.id,
            createdAt: clock(),
          })
          .returning();
        return row!;
      });
      await audit(viewer.id, 'best_case.drawing_added', 'best_case', id, ip, { drawingId: row.id });
      return drawingOut(row);
    },

    async remove(viewer: RequestUser, id: string, drawingId: string, ip: string | null): Promise<void> {
      const removed = await db
        .delete(bestCaseDrawings)
        .where(and(eq(bestCaseDrawings.id, drawingId), inArray(bestCaseDrawings.bestCaseId, [id])))
        .returning({ id: bestCaseDrawings.id });
      if (!removed.length) throw notFound();
      await audit(viewer.id, 'best_case.drawing_removed', 'best_case', id, ip, { drawingId });
    },
  };
}
export type BestCaseDrawingService = ReturnType<typeof createBestCaseDrawingService>;
