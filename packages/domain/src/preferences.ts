import { z } from 'zod';
import { LANG_PREFERENCES, THEME_PREFERENCES } from './preference-values.ts';

export * from './preference-values.ts';

export const preferencesSchema = z.object({
  langCode: z.enum(LANG_PREFERENCES, { error: 'INVALID_VALUE' }),
  theme: z.enum(THEME_PREFERENCES, { error: 'INVALID_VALUE' }),
  showRatings: z.boolean({ error: 'INVALID_VALUE' }),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * Events that can reach a person by email as well as in the app. Later workflow steps add
 * their notifications under these groups.
 */
export const EMAIL_EVENTS = ['security', 'videos', 'preparation', 'analysis', 'sharing'] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];
export const notificationSettingsSchema = z.object(
  Object.fromEntries(EMAIL_EVENTS.map((e) => [e, z.boolean({ error: 'INVALID_VALUE' })])) as Record<EmailEvent, z.ZodBoolean>,
);
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  security: true,
  videos: true,
  preparation: true,
  analysis: true,
  sharing: true,
};
