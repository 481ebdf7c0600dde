import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { videoLadders, videos } from '../../db/schema.ts';
import type { Queue } from '../../jobs/queue.ts';

/** Ladders asked for by a new file jump ahead of the backfill of older videos. */
export const FRESH_LADDER_PRIORITY = 1;
/** Ladder jobs one backfill run queues at most; the next run (hourly) queues the rest. */
const BACKFILL_BATCH = 1000;

/** Ready videos whose current playable file has no ready ladder. */
const withoutLadder = and(
  eq(videos.kind, 'video'),
  eq(videos.mediaStatus, 'ready'),
  isNotNull(videos.videoMediaId),
  sql`not exists (select 1 from ${videoLadders} l where l.media_id = ${videos.videoMediaId} and l.status = 'ready')`,
);

export function createStreamingService(deps: { db: Db; queue: Pick<Queue, 'send'>; enabled: boolean }) {
  const { db, queue } = deps;
  return {
    enabled: deps.enabled,

    /** After a file becomes playable (processed upload, render of a preparation). */
    async ladderNeeded(videoId: string): Promise<void> {
      if (!deps.enabled) return;
      await queue.send('video.ladder', { videoId }, { singletonKey: videoId, priority: FRESH_LADDER_PRIORITY });
    },

    /** Queues a ladder job for every ready video without one, newest first (the queue takes them in that order). */
    async backfill(): Promise<number> {
      if (!deps.enabled) return 0;
      const rows = await db
        .select({ id: videos.id })
        .from(videos)
        .where(withoutLadder)
        .orderBy(desc(videos.readyAt), desc(videos.id))
        .limit(BACKFILL_BATCH);
      for (const row of rows) await queue.send('video.ladder', { videoId: row.id }, { singletonKey: row.id });
      return rows.length;
    },

    /** For the admin area: videos still without a ladder, and ladders being made. */
    async progress(): Promise<{ enabled: boolean; ready: number; left: number }> {
      const [left] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(videos)
        .where(withoutLadder);
      const [ready] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(videoLadders)
        .innerJoin(videos, eq(videos.videoMediaId, videoLadders.mediaId))
        .where(eq(videoLadders.status, 'ready'));
      return { enabled: deps.enabled, ready: ready?.n ?? 0, left: deps.enabled ? (left?.n ?? 0) : 0 };
    },

    /** Whether the ladder of a playable file is ready to be served. */
    async isReady(mediaId: string): Promise<boolean> {
      const [row] = await db
        .select({ status: videoLadders.status })
        .from(videoLadders)
        .where(and(eq(videoLadders.mediaId, mediaId), eq(videoLadders.status, 'ready')));
      return Boolean(row);
    },
  };
}
export type StreamingService = ReturnType<typeof createStreamingService>;
