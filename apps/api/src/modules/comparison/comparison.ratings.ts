import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { analyses } from '../../db/schema.ts';

/**
 * The experts' rating of each step of a video, for the comparison: the mean of its submitted
 * reviews (one, or two or three on a double-reviewed case), to a tenth, as the result's mean
 * shows it; a step no review rated is left out. A best case uploaded as such has no review.
 */
export async function stepRatingsOf(db: Db, videoId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ stepRatings: analyses.stepRatings })
    .from(analyses)
    .where(and(eq(analyses.videoId, videoId), eq(analyses.status, 'submitted')));
  const given = new Map<string, number[]>();
  for (const { stepRatings } of rows) {
    for (const [stepId, rating] of Object.entries(stepRatings)) {
      if (typeof rating === 'number') given.set(stepId, [...(given.get(stepId) ?? []), rating]);
    }
  }
  return new Map(
    [...given].map(([stepId, ratings]) => [stepId, Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10]),
  );
}
