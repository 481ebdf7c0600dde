import { RPPS_PATTERN } from './rules.ts';

/** RPPS numbers carry a Luhn check digit (the last of their 11 digits). */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

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
