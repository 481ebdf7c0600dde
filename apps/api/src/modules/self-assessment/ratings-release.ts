import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { ClaimsTx } from '../claims/claims.service.ts';

/**
 * Releases a case's ratings to its learner (docs/self-assessment.md, *When the ratings reach the
 * learner*): once its result is shown (every required review in) and its self-assessment answered,
 * skipped, or its result read by its author. Set once, at the first moment both hold; called in the
 * transaction of every write that can make either true — an expert's last required review, a
 * self-assessment saved or skipped, the result read — after that transaction has locked the case's
 * row, so that two of them cannot both miss the other. Answers the case's author when this call
 * released it (their dashboard changed), else null.
 */
export async function releaseRatings(tx: Db | ClaimsTx, videoId: string, at: Date): Promise<string | null> {
  const { rows } = await tx.execute<{ author_id: string }>(sql`
    UPDATE videos v SET ratings_released_at = ${at.toISOString()}
    WHERE v.id = ${videoId} AND v.ratings_released_at IS NULL
      AND (v.status = 'analysed' OR v.result_released_at IS NOT NULL)
      AND EXISTS (
        SELECT 1 FROM self_assessments s
        WHERE s.video_id = v.id AND (s.submitted_at IS NOT NULL OR s.skipped_at IS NOT NULL OR s.result_seen_at IS NOT NULL))
    RETURNING v.author_id`);
  return rows[0]?.author_id ?? null;
}
