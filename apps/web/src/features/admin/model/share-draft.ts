import { secondReviewShareSchema } from '@sutura/domain/review';

export type ShareMode = 'never' | 'drawn' | 'always';
/** What the form holds: the choice, and the percentage typed for a share drawn at random. */
export interface ShareDraft {
  mode: ShareMode;
  percent: string;
}

export const draftOf = (share: number): ShareDraft =>
  share <= 0 ? { mode: 'never', percent: '' } : share >= 100 ? { mode: 'always', percent: '' } : { mode: 'drawn', percent: String(share) };

/**
 * The share the draft stands for, checked by the shared schema; a share drawn at random is
 * strictly between never and always. Returns an error code of the catalogue, or the key
 * `review:share.between` for a share drawn at random that is 0 or 100.
 */
export function shareOf(draft: ShareDraft): { share: number } | { error: string } {
  if (draft.mode === 'never') return { share: 0 };
  if (draft.mode === 'always') return { share: 100 };
  const text = draft.percent.trim();
  const value = text === '' ? undefined : Number(text);
  if (Number.isNaN(value)) return { error: 'INVALID_VALUE' };
  const parsed = secondReviewShareSchema.safeParse(value);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'INVALID_VALUE' };
  if (parsed.data === 0 || parsed.data === 100) return { error: 'review:share.between' };
  return { share: parsed.data };
}
