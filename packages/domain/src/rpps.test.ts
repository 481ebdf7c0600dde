import { describe, expect, it } from 'vitest';
import { isLuhnValid, isRppsFormatValid, namesMatch, normalizeName } from './rpps.ts';

describe('RPPS numbers', () => {
  it('checks the Luhn digit of 11-digit numbers', () => {
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
    expect(isRppsFormatValid('10999901019')).toBe(true);
    expect(isRppsFormatValid('10999901018')).toBe(false);
    expect(isRppsFormatValid('1099990101')).toBe(false);
    expect(isRppsFormatValid('1099990101x')).toBe(false);
  });
});

describe('name matching', () => {
  it('ignores case, accents, hyphens, apostrophes and spacing', () => {
    expect(namesMatch('LEFÈVRE-DURAND', 'lefevre durand')).toBe(true);
    expect(namesMatch('Jean-François', 'JEAN FRANCOIS')).toBe(true);
    expect(namesMatch("D'ALMEIDA", 'dalmeida ')).toBe(false);
    expect(namesMatch("D'ALMEIDA", 'd almeida')).toBe(true);
    expect(namesMatch('Œillet', 'oeillet')).toBe(true);
    expect(normalizeName('  Éloïse  ')).toBe('eloise');
  });

  it('does not match different people', () => {
    expect(namesMatch('MARTIN', 'MARTINEZ')).toBe(false);
    expect(namesMatch('Hélène', 'Helena')).toBe(false);
  });
});
