import { z } from 'zod';
import { CODE_LENGTH, PASSWORD_MIN_LENGTH, RPPS_LENGTH } from './limits.ts';

/** Field rules of SPEC §5. Messages are error codes of `errors.ts`. */

// A lone UTF-16 surrogate (high not followed by low, or low not preceded by high).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * NUL cannot be stored in a PostgreSQL text and a lone surrogate cannot be encoded as UTF-8:
 * both are refused as input instead of failing in the database.
 */
export function hasForbiddenCharacters(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** Every text of every input schema starts here. */
export const plainString = () =>
  z.string({ error: 'FIELD_REQUIRED' }).refine((v) => !hasForbiddenCharacters(v), { error: 'TEXT_INVALID_CHARACTERS' });

export const required = () => plainString().trim().min(1, { error: 'FIELD_REQUIRED' });

export const emailField = () =>
  plainString()
    .trim()
    .min(1, { error: 'FIELD_REQUIRED' })
    .max(254, { error: 'EMAIL_FORMAT' })
    .pipe(z.email({ error: 'EMAIL_FORMAT' }))
    .transform((v) => v.toLowerCase());

export const PASSWORD_PATTERN = new RegExp(`^(?=.*\\d).{${PASSWORD_MIN_LENGTH},128}$`);
export const passwordField = () => plainString().min(1, { error: 'FIELD_REQUIRED' }).regex(PASSWORD_PATTERN, { error: 'PASSWORD_RULE' });

export const PHONE_PATTERN = /^\+\d{2} \d{9}$/;
export const phoneField = () => required().regex(PHONE_PATTERN, { error: 'PHONE_FORMAT' });

export const RPPS_PATTERN = new RegExp(`^\\d{${RPPS_LENGTH}}$`);
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

/** 11 digits (RPPS_FORMAT), then a check digit that matches (RPPS_CHECK_DIGIT): each its own message. */
export const rppsField = () =>
  required()
    .regex(RPPS_PATTERN, { error: 'RPPS_FORMAT' })
    .refine((v) => !RPPS_PATTERN.test(v) || isLuhnValid(v), { error: 'RPPS_CHECK_DIGIT' });

/** A person cannot have operated with a robot for longer than they have practised. */
export function roboticYearsWithinPractice(
  data: { yearsOfExperience?: unknown; yearsOfRoboticExperience?: unknown },
  ctx: z.RefinementCtx,
): void {
  const { yearsOfExperience: practice, yearsOfRoboticExperience: robotic } = data;
  if (typeof practice === 'number' && typeof robotic === 'number' && robotic > practice) {
    ctx.addIssue({ code: 'custom', message: 'ROBOTIC_YEARS_OVER_PRACTICE', path: ['yearsOfRoboticExperience'] });
  }
}

export const CODE_PATTERN = new RegExp(`^\\d{${CODE_LENGTH}}$`);
export const codeField = () => required().regex(CODE_PATTERN, { error: 'CODE_FORMAT' });

/** A whole number of years, 0 to 70, accepted as a number or a numeric string from a form. */
export const yearsField = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: 'YEARS_FORMAT' }).int({ error: 'YEARS_FORMAT' }).min(0, { error: 'YEARS_FORMAT' }).max(70, { error: 'YEARS_FORMAT' }),
  );

export const textField = (max: number) => required().max(max, { error: 'TEXT_TOO_LONG' });
export const optionalText = (max: number) =>
  plainString()
    .trim()
    .max(max, { error: 'TEXT_TOO_LONG' })
    .optional()
    .transform((v) => (v ? v : undefined));

/** Adds 'Passwords do not match' on confirmPassword. */
export function passwordsMatch(data: { password: string; confirmPassword: string }, ctx: z.RefinementCtx): void {
  if (data.password !== data.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: 'PASSWORD_MISMATCH', path: ['confirmPassword'] });
  }
}
