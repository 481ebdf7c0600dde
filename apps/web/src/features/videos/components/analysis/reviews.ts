import type { AnalysisComment, AnalysisResult } from '@sutura/domain/analysis';

/**
 * What the learner's result shows of a case reviewed by several experts (docs/double-review.md):
 * pure functions, kept apart from the components that draw them.
 */

/** Two or three submitted reviews: the result shows them side by side. */
export function isMultiReview(result: Pick<AnalysisResult, 'reviews'>): boolean {
  return result.reviews.length > 1;
}

export const expertName = (expert: { firstName: string; lastName: string }) => `${expert.firstName} ${expert.lastName}`.trim();

/** A comment with the name of the expert who wrote it (null for a case reviewed once: nothing to tell apart). */
export interface SignedComment extends AnalysisComment {
  expert: string | null;
  /** The review's place among the reviews (its colour). */
  reviewIndex: number;
}

/** Every comment of the result in time order, each signed by its expert when the case has several reviews. */
export function signedComments(result: Pick<AnalysisResult, 'reviews' | 'comments'>): SignedComment[] {
  if (!isMultiReview(result)) return result.comments.map((c) => ({ ...c, expert: null, reviewIndex: 0 }));
  return result.reviews
    .flatMap((review, reviewIndex) => review.comments.map((c) => ({ ...c, expert: expertName(review.expert), reviewIndex })))
    .sort((a, b) => a.start - b.start || a.reviewIndex - b.reviewIndex);
}

/** A mean of levels, one decimal at most, in the reader's language. */
export function formatMean(value: number, lang: string): string {
  return value.toLocaleString(lang, { minimumFractionDigits: 0, maximumFractionDigits: 1 });
}
