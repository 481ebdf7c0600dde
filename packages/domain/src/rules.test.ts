import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resetCheckAndSetBody, signUpFieldsSchema, verifyBody } from './auth.ts';
import { codeField, emailField, passwordField, phoneField, roboticYearsWithinPractice, rppsField, yearsField } from './rules.ts';
import { videoFieldsSchema } from './videos.ts';
import { contactBody } from './users.ts';

const messageOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? undefined : r.error.issues[0]!.message;
};

describe('field rules of SPEC §5', () => {
  it('email must be valid', () => {
    expect(messageOf(emailField(), 'a@b.fr')).toBeUndefined();
    expect(emailField().parse('  Jean.Dupont@CHU-Lyon.FR ')).toBe('jean.dupont@chu-lyon.fr');
    expect(messageOf(emailField(), 'jean.dupont')).toBe('EMAIL_FORMAT');
    expect(messageOf(emailField(), '')).toBe('FIELD_REQUIRED');
    expect(messageOf(emailField(), undefined)).toBe('FIELD_REQUIRED');
  });

  it('password: at least 8 characters with at least 1 digit', () => {
    expect(messageOf(passwordField(), 'abcdefg1')).toBeUndefined();
    expect(messageOf(passwordField(), 'abcdef1')).toBe('PASSWORD_RULE');
    expect(messageOf(passwordField(), 'abcdefgh')).toBe('PASSWORD_RULE');
    expect(messageOf(passwordField(), '')).toBe('FIELD_REQUIRED');
  });

  it('passwords must match', () => {
    const r = resetCheckAndSetBody.safeParse({ email: 'a@b.fr', code: '12345678', password: 'abcdefg1', confirmPassword: 'abcdefg2' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({ message: 'PASSWORD_MISMATCH', path: ['confirmPassword'] });
  });

  it('phone format +XX XXXXXXXXX', () => {
    expect(messageOf(phoneField(), '+33 612345678')).toBeUndefined();
    for (const bad of ['0612345678', '+33612345678', '+33 6 12 34 56 78', '+333 61234567', '+33 61234567a'])
      expect(messageOf(phoneField(), bad)).toBe('PHONE_FORMAT');
  });

  it('RPPS number: 11 digits; recovery code: 8 digits (docs/security.md)', () => {
    expect(messageOf(rppsField(), '10999901019')).toBeUndefined();
    expect(messageOf(rppsField(), '1099990101')).toBe('RPPS_FORMAT');
    expect(messageOf(rppsField(), '1099990101a')).toBe('RPPS_FORMAT');
    // 11 digits whose last does not match the others: its own message, not "must contain 11 digits".
    expect(messageOf(rppsField(), '10999901018')).toBe('RPPS_CHECK_DIGIT');
    expect(messageOf(codeField(), '01234567')).toBeUndefined();
    expect(messageOf(codeField(), '12345')).toBe('CODE_FORMAT');
    expect(messageOf(codeField(), '12a45678')).toBe('CODE_FORMAT');
    expect(messageOf(verifyBody, { email: 'a@b.fr', code: '123456789' })).toBe('CODE_FORMAT');
  });

  it('says what is wrong with a duration and with more robotic years than years of practice', () => {
    const duration = videoFieldsSchema.shape.surgeryDuration;
    expect(messageOf(duration, 0)).toBe('DURATION_TOO_SHORT');
    expect(messageOf(duration, 24 * 60 + 1)).toBe('DURATION_TOO_LONG');
    const years = z
      .object({ yearsOfExperience: yearsField(), yearsOfRoboticExperience: yearsField() })
      .superRefine(roboticYearsWithinPractice);
    expect(messageOf(years, { yearsOfExperience: 5, yearsOfRoboticExperience: 8 })).toBe('ROBOTIC_YEARS_OVER_PRACTICE');
    expect(messageOf(years, { yearsOfExperience: 8, yearsOfRoboticExperience: 8 })).toBeUndefined();
  });

  it('refuses a text longer than its limit instead of cutting it', () => {
    expect(messageOf(videoFieldsSchema.shape.equipmentBrand, 'x'.repeat(3000))).toBe('TEXT_TOO_LONG');
  });

  it('year fields must contain a number of years', () => {
    expect(yearsField().parse('12')).toBe(12);
    expect(yearsField().parse(0)).toBe(0);
    for (const bad of ['douze', '1.5', -1, 71, '']) expect(messageOf(yearsField(), bad)).toBe('YEARS_FORMAT');
  });

  it('terms and privacy must be accepted; recorder brand is optional; contact subject is required', () => {
    const shape = signUpFieldsSchema.pick({ acceptTerms: true, acceptPrivacy: true, recorderBrand: true });
    expect(shape.safeParse({ acceptTerms: true, acceptPrivacy: true }).success).toBe(true);
    expect(messageOf(shape, { acceptTerms: false, acceptPrivacy: true })).toBe('TERMS_REQUIRED');
    expect(messageOf(contactBody, { message: 'Bonjour' })).toBe('FIELD_REQUIRED');
    expect(messageOf(contactBody, { subject: 'question', message: '   ' })).toBe('FIELD_REQUIRED');
  });
});
