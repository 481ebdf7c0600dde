import { z } from 'zod';
import { ROLES } from './roles.ts';
import { preferencesSchema, LANG_PREFERENCES, THEME_PREFERENCES } from './preferences.ts';
import {
  codeField,
  emailField,
  optionalText,
  passwordField,
  passwordsMatch,
  roboticYearsWithinPractice,
  phoneField,
  plainString,
  required,
  rppsField,
  textField,
  yearsField,
} from './rules.ts';

export const loginBody = z.object({
  email: emailField(),
  password: plainString().min(1, { error: 'FIELD_REQUIRED' }).max(256),
});
export type LoginBody = z.infer<typeof loginBody>;

export const sessionSchema = z.object({
  token: z.string(),
  userId: z.string(),
  roles: z.array(z.enum(ROLES)),
  preferences: preferencesSchema,
  information: z.object({ firstName: z.string(), lastName: z.string() }),
  avatarUrl: z.string().nullable(),
});
export type Session = z.infer<typeof sessionSchema>;

export const CARE_CENTRE_TYPES = ['public', 'private'] as const;
export const ROBOTS = [
  'da Vinci Xi',
  'da Vinci X',
  'da Vinci Si',
  'da Vinci SP',
  'da Vinci 5',
  'Hugo RAS',
  'Versius',
  'Senhance',
  'Toumai',
  'other',
  'none',
] as const;

const signUpFields = z.object({
  rpps: rppsField(),
  lastName: textField(100),
  firstName: textField(100),
  country: textField(100),
  city: textField(100),
  careCentreType: z.enum(CARE_CENTRE_TYPES, { error: 'FIELD_REQUIRED' }),
  phone: phoneField(),
  yearsOfExperience: yearsField(),
  yearsOfRoboticExperience: yearsField(),
  robot: z.enum(ROBOTS, { error: 'FIELD_REQUIRED' }),
  recorderBrand: optionalText(100),
  specialtyId: required().uuid({ error: 'FIELD_REQUIRED' }),
  preferences: z.object({
    theme: z.enum(THEME_PREFERENCES, { error: 'INVALID_VALUE' }).default('auto'),
    langCode: z.enum(LANG_PREFERENCES, { error: 'INVALID_VALUE' }).default('auto'),
  }),
  email: emailField(),
  password: passwordField(),
  confirmPassword: plainString().min(1, { error: 'FIELD_REQUIRED' }),
  acceptTerms: z.literal(true, { error: 'TERMS_REQUIRED' }),
  acceptPrivacy: z.literal(true, { error: 'TERMS_REQUIRED' }),
});
export const signUpBody = signUpFields.superRefine((data, ctx) => {
  passwordsMatch(data, ctx);
  roboticYearsWithinPractice(data, ctx);
});
export type SignUpBody = z.input<typeof signUpBody>;
/** The sign-up steps of the web form, each validated before the next. */
export const SIGN_UP_STEPS = [
  ['rpps', 'lastName', 'firstName'],
  ['country', 'city', 'careCentreType', 'phone', 'specialtyId'],
  ['yearsOfExperience', 'yearsOfRoboticExperience', 'robot', 'recorderBrand'],
  ['email', 'password', 'confirmPassword', 'preferences', 'acceptTerms', 'acceptPrivacy'],
] as const satisfies readonly (readonly (keyof z.infer<typeof signUpFields>)[])[];
export const signUpFieldsSchema = signUpFields;

export const signUpResponse = z.object({ email: z.string(), userId: z.string() });

export const verifyBody = z.object({ email: emailField(), code: codeField() });
export const resetSendBody = z.object({ email: emailField() });
export const resetCheckBody = z.object({ email: emailField(), code: codeField() });
export const resetCheckAndSetBody = z
  .object({ email: emailField(), code: codeField(), password: passwordField(), confirmPassword: plainString() })
  .superRefine(passwordsMatch);
/** Change of password by a signed-in person: the current one is required. */
export const setNewPasswordBody = z
  .object({
    currentPassword: plainString().min(1, { error: 'FIELD_REQUIRED' }),
    password: passwordField(),
    confirmPassword: plainString(),
  })
  .superRefine(passwordsMatch);
export const resendCodeBody = z.object({ email: emailField() });

export const rppsCheckParams = z.object({ rpps: plainString(), lastName: plainString(), firstName: plainString() });
export const rppsCheckResponse = z.object({
  rpps: z.string(),
  lastName: z.string(),
  firstName: z.string(),
  profession: z.string().nullable(),
  specialty: z.string().nullable(),
});
