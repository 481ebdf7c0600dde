import { z } from 'zod';
import { ROLES } from './roles.ts';
import { CARE_CENTRE_TYPES, ROBOTS } from './auth.ts';
import { notificationSettingsSchema, preferencesSchema } from './preferences.ts';
import { LANGUAGES } from './i18n.ts';
import { CONTACT_MESSAGE_MAX } from './limits.ts';
import { emailField, optionalText, phoneField, plainString, roboticYearsWithinPractice, textField, yearsField } from './rules.ts';

export const specialtyRef = z.object({ id: z.string(), name: z.string() });

export const profileSchema = z.object({
  id: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  information: z.object({
    firstName: z.string(),
    lastName: z.string(),
    phone: z.string().nullable(),
    country: z.string().nullable(),
    city: z.string().nullable(),
    careCentreType: z.enum(CARE_CENTRE_TYPES).nullable(),
  }),
  career: z.object({
    rpps: z.string().nullable(),
    specialtyId: z.string().nullable(),
    specialty: specialtyRef.nullable(),
    yearsOfExperience: z.number().nullable(),
    yearsOfRoboticExperience: z.number().nullable(),
    robot: z.string().nullable(),
    recorderBrand: z.string().nullable(),
  }),
  preferences: preferencesSchema,
  notificationSettings: notificationSettingsSchema,
  mediaId: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  pushToken: z.string().nullable(),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileBody = z
  .object({
    information: z
      .object({
        firstName: textField(100),
        lastName: textField(100),
        phone: phoneField(),
        country: textField(100),
        city: textField(100),
        careCentreType: z.enum(CARE_CENTRE_TYPES, { error: 'FIELD_REQUIRED' }),
      })
      .partial()
      .strict(),
    career: z
      .object({
        specialtyId: z.uuid({ error: 'FIELD_REQUIRED' }),
        yearsOfExperience: yearsField(),
        yearsOfRoboticExperience: yearsField(),
        robot: z.enum(ROBOTS, { error: 'FIELD_REQUIRED' }),
        recorderBrand: optionalText(100).nullable(),
      })
      .partial()
      .strict()
      .superRefine(roboticYearsWithinPractice),
    preferences: preferencesSchema.partial().strict(),
    notificationSettings: notificationSettingsSchema.partial().strict(),
  })
  .partial()
  .strict();
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

/** The word a person types to confirm deleting their account. */
export const DELETE_CONFIRMATION_WORDS = { fr: 'SUPPRIMER', en: 'DELETE' } as const;
export const deleteAccountBody = z.object({
  password: plainString().min(1, { error: 'FIELD_REQUIRED' }),
  confirmation: plainString().min(1, { error: 'FIELD_REQUIRED' }),
});

/**
 * PUT /users/save/pushtoken: one device's push address. In a browser `pushToken` is the Web Push
 * subscription's endpoint and `keys` its encryption keys (PushSubscription.toJSON()); a native
 * app token comes alone. DELETE with the same `pushToken` stops pushes to that device.
 */
export const pushTokenBody = z
  .object({
    pushToken: plainString().trim().min(1, { error: 'FIELD_REQUIRED' }).max(2048, { error: 'INVALID_VALUE' }),
    keys: z
      .object({
        p256dh: plainString().min(1, { error: 'FIELD_REQUIRED' }).max(256, { error: 'INVALID_VALUE' }),
        auth: plainString().min(1, { error: 'FIELD_REQUIRED' }).max(256, { error: 'INVALID_VALUE' }),
      })
      .strict()
      .optional(),
  })
  .strict();
export const removePushTokenBody = z.object({ pushToken: plainString().trim().min(1, { error: 'FIELD_REQUIRED' }).max(2048) }).strict();
/** GET /push/public-key: what a browser needs to subscribe (null when push is not set up). */
export const pushPublicKeyResponse = z.object({ publicKey: plainString() });

export const anonymousLanguageBody = z.object({ langCode: z.enum(LANGUAGES, { error: 'INVALID_VALUE' }) });

export const CONTACT_SUBJECTS = ['question', 'technical', 'account', 'data', 'other'] as const;
export const contactBody = z.object({
  subject: z.enum(CONTACT_SUBJECTS, { error: 'FIELD_REQUIRED' }),
  message: textField(CONTACT_MESSAGE_MAX),
  email: emailField().optional(),
});
export type ContactBody = z.infer<typeof contactBody>;

/** GET /users/{id}: what one person may read of another (the expert of their analysis, say). */
export const publicUserSchema = z.object({
  id: z.string(),
  information: z.object({ firstName: z.string(), lastName: z.string() }).optional(),
  career: z.object({ specialtyId: z.string().nullable(), specialty: specialtyRef.nullable().optional() }).optional(),
  mediaId: z.string().nullable().optional(),
  media: z.object({ id: z.string(), url: z.string() }).nullable().optional(),
});
export const USER_SELECT_FIELDS = ['career', 'information', 'mediaId'] as const;
export const USER_POPULATE_FIELDS = ['career.specialty', 'media'] as const;

export const mediaUploadResponse = z.object({ id: z.string(), url: z.string(), kind: z.string() });
