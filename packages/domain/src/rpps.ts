import { isLuhnValid, RPPS_PATTERN } from './rules.ts';

export { isLuhnValid };

export function isRppsFormatValid(rpps: string): boolean {
  return RPPS_PATTERN.test(rpps) && isLuhnValid(rpps);
}

/** Compares names without regard to case, accents, hyphens, apostrophes or spacing. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[Œœ]/g, 'oe')
    .replace(/[Ææ]/g, 'ae')
    .toLowerCase()
    .replace(/[-'’\s.]+/g, ' ')
    .trim();
}

export function namesMatch(a: string, b: string): boolean {
  return normalizeName(a) === normalizeName(b);
}
