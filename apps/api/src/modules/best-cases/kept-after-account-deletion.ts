import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bestCases, media, users, videos } from '../../db/schema.ts';

/**
 * Account deletion (docs/data-lifecycle.md): a published best case whose author consented is kept,
 * as the consent said. Its video leaves the author: it becomes a best case's own video (purpose
 * 'best_case', in nobody's videos, as an uploaded one), held by the administrator who made the best
 * case (or the longest-serving active administrator when that one is gone), with its files. Returns
 * the ids of the videos kept; without any administrator nothing can hold them, and they go.
 */
export async function keepPublishedBestCasesOf(db: Db, authorId: string): Promise<string[]> {
  const kept = await db
    .select({ videoId: bestCases.videoId, createdById: bestCases.createdById })
    .from(bestCases)
    .innerJoin(videos, eq(videos.id, bestCases.videoId))
    .where(and(eq(videos.authorId, authorId), eq(bestCases.published, true), eq(bestCases.consent, 'accepted')));
  if (!kept.length) return [];
  const [fallback] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`'administrator' = ANY(${users.roles})`, isNull(users.deactivatedAt), sql`${users.id} <> ${authorId}`))
    .orderBy(asc(users.createdAt))
    .limit(1);
  const out: string[] = [];
  await db.transaction(async (tx) => {
    for (const row of kept) {
      const holder = row.createdById && row.createdById !== authorId ? row.createdById : fallback?.id;
      if (!holder) continue;
      await tx.update(videos).set({ authorId: holder, purpose: 'best_case', updatedAt: new Date() }).where(eq(videos.id, row.videoId));
      await tx
        .update(media)
        .set({ ownerId: holder })
        .where(inArray(media.videoId, [row.videoId]));
      out.push(row.videoId);
    }
  });
  return out;
}
