import { describe, expect, it } from 'vitest';
import { draftOf, shareOf } from './share-draft';

describe('the share of cases reviewed twice, as the form holds it', () => {
  it('reads a share as never, drawn at random or always', () => {
    expect(draftOf(0)).toEqual({ mode: 'never', percent: '' });
    expect(draftOf(25)).toEqual({ mode: 'drawn', percent: '25' });
    expect(draftOf(100)).toEqual({ mode: 'always', percent: '' });
  });

  it('gives back 0, the whole percentage typed, or 100', () => {
    expect(shareOf({ mode: 'never', percent: '40' })).toEqual({ share: 0 });
    expect(shareOf({ mode: 'always', percent: '' })).toEqual({ share: 100 });
    expect(shareOf({ mode: 'drawn', percent: ' 30 ' })).toEqual({ share: 30 });
    expect(shareOf({ mode: 'drawn', percent: '1' })).toEqual({ share: 1 });
    expect(shareOf({ mode: 'drawn', percent: '99' })).toEqual({ share: 99 });
  });

  it('refuses a drawn share that is missing, not a whole number, or not strictly between 0 and 100', () => {
    expect(shareOf({ mode: 'drawn', percent: '' })).toEqual({ error: 'FIELD_REQUIRED' });
    expect(shareOf({ mode: 'drawn', percent: '12.5' })).toEqual({ error: 'INVALID_VALUE' });
    expect(shareOf({ mode: 'drawn', percent: 'abc' })).toEqual({ error: 'INVALID_VALUE' });
    expect(shareOf({ mode: 'drawn', percent: '101' })).toEqual({ error: 'INVALID_VALUE' });
    expect(shareOf({ mode: 'drawn', percent: '-3' })).toEqual({ error: 'INVALID_VALUE' });
    expect(shareOf({ mode: 'drawn', percent: '0' })).toEqual({ error: 'review:share.between' });
    expect(shareOf({ mode: 'drawn', percent: '100' })).toEqual({ error: 'review:share.between' });
  });
});
