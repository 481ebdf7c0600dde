import { describe, expect, it } from 'vitest';
import { rppsFromPsc, ssoStartQuery } from './sso.ts';

describe('the RPPS given by Pro Santé Connect', () => {
  it('is read after its identifier-type digit 8', () => {
    expect(rppsFromPsc('810999901019')).toBe('10999901019');
    expect(rppsFromPsc(' 810999901019 ')).toBe('10999901019');
  });

  it('is absent for another kind of identifier, a bare number or no value', () => {
    // 0: an ADELI number, 3: a FINESS one: not an RPPS.
    expect(rppsFromPsc('010999901019')).toBeNull();
    expect(rppsFromPsc('10999901019')).toBeNull();
    expect(rppsFromPsc('8109999010')).toBeNull();
    expect(rppsFromPsc(810999901019)).toBeNull();
    expect(rppsFromPsc(undefined)).toBeNull();
  });
});

describe('where a sign-in sends the person back', () => {
  it('is a path of the app, never another site', () => {
    expect(ssoStartQuery.safeParse({ next: '/videos/1?tab=analysis' }).success).toBe(true);
    expect(ssoStartQuery.safeParse({ next: '//evil.example/x' }).success).toBe(false);
    expect(ssoStartQuery.safeParse({ next: 'https://evil.example' }).success).toBe(false);
    expect(ssoStartQuery.safeParse({ next: '/\\evil.example' }).success).toBe(false);
  });
});
