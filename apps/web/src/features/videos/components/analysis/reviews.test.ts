import { describe, expect, it } from 'vitest';
import type { AnalysisResult } from '@sutura/domain/analysis';
import { formatMean, isMultiReview, signedComments } from './reviews';

const comment = (id: string, start: number, text: string) => ({
  id,
  start,
  end: null,
  text,
  drawing: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const review = (round: number, firstName: string, lastName: string, comments: ReturnType<typeof comment>[]) =>
  ({
    round,
    expert: { id: `e${round}`, firstName, lastName, specialty: null, media: null },
    submittedAt: '2026-01-01T00:00:00.000Z',
    globalRating: null,
    assessment: '',
    advice: '',
    voice: null,
    kpis: [],
    steps: [],
    comments,
  }) satisfies AnalysisResult['reviews'][number];

describe('the result of a case reviewed by several experts', () => {
  it('keeps a case reviewed once as it was: its comments unsigned', () => {
    const only = [comment('a', 5, 'Seul avis')];
    const result = { comments: only, reviews: [review(1, 'Claire', 'Dubois', only)] };
    expect(isMultiReview(result)).toBe(false);
    expect(signedComments(result)).toEqual([{ ...only[0], expert: null, reviewIndex: 0 }]);
  });

  it('signs every comment of every review with its expert, in time order', () => {
    const first = [comment('a', 8, 'Tard'), comment('b', 2, 'Tôt')];
    const second = [comment('c', 2, 'Tôt aussi'), comment('d', 5, 'Milieu')];
    const result = { comments: first, reviews: [review(1, 'Claire', 'Dubois', first), review(2, 'Antoine', 'Mercier', second)] };
    expect(isMultiReview(result)).toBe(true);
    expect(signedComments(result).map((c) => [c.id, c.expert, c.reviewIndex])).toEqual([
      ['b', 'Claire Dubois', 0],
      ['c', 'Antoine Mercier', 1],
      ['d', 'Antoine Mercier', 1],
      ['a', 'Claire Dubois', 0],
    ]);
  });

  it('writes a mean with one decimal at most, in the reader’s language', () => {
    expect(formatMean(3.5, 'fr')).toBe('3,5');
    expect(formatMean(3.5, 'en')).toBe('3.5');
    expect(formatMean(4, 'en')).toBe('4');
  });
});
