import { z } from 'zod';
import type { EmailEvent } from './preferences.ts';

export const NOTIFICATION_TYPES = ['success', 'error', 'other'] as const;
export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;

/**
 * Every notification the product sends: its type, the e-mail group that decides whether it is
 * mailed too, the subject of that mail (each its own, so that an inbox tells them apart), and its
 * text in both languages ({param} placeholders).
 */
export const NOTIFICATION_KINDS = {
  welcome: {
    type: 'success',
    group: 'security',
    subject: { en: 'Welcome to Sutura', fr: 'Bienvenue sur Sutura' },
    en: 'Welcome to Sutura, {firstName}! Your email address is validated.',
    fr: 'Bienvenue sur Sutura, {firstName} ! Votre adresse e-mail est validée.',
  },
  newSignIn: {
    type: 'other',
    group: 'security',
    subject: { en: 'New sign-in to your Sutura account', fr: 'Nouvelle connexion à votre compte Sutura' },
    en: 'New sign-in to your account from a new device ({device}). If it was not you, change your password.',
    fr: "Nouvelle connexion à votre compte depuis un nouvel appareil ({device}). Si ce n'était pas vous, changez votre mot de passe.",
  },
  passwordChanged: {
    type: 'success',
    group: 'security',
    subject: { en: 'Your Sutura password was changed', fr: 'Votre mot de passe Sutura a été modifié' },
    en: 'Your password was changed. Your other sessions were signed out.',
    fr: 'Votre mot de passe a été modifié. Vos autres sessions ont été déconnectées.',
  },
  contactSent: {
    type: 'success',
    group: 'security',
    subject: { en: 'Your message to the Sutura support team was sent', fr: "Votre message à l'équipe support de Sutura a été envoyé" },
    en: 'Your message "{subject}" was sent to the support team, who will answer by email.',
    fr: "Votre message « {subject} » a été envoyé à l'équipe support, qui vous répondra par e-mail.",
  },
  videoReady: {
    type: 'success',
    group: 'videos',
    subject: { en: 'Sutura: your video of {surgery} is ready', fr: 'Sutura : votre vidéo de {surgery} est prête' },
    en: 'Your video of {surgery} is ready.',
    fr: 'Votre vidéo de {surgery} est prête.',
  },
  videoFailed: {
    type: 'error',
    group: 'videos',
    subject: {
      en: 'Sutura: your video of {surgery} could not be processed',
      fr: "Sutura : votre vidéo de {surgery} n'a pas pu être traitée",
    },
    en: 'Your video of {surgery} could not be processed: {reason}',
    fr: "Votre vidéo de {surgery} n'a pas pu être traitée : {reason}",
  },
  videoUploaded: {
    type: 'success',
    group: 'videos',
    subject: { en: 'Sutura: your video of {surgery} has been received', fr: 'Sutura : votre vidéo de {surgery} a bien été reçue' },
    en: 'The upload of your video of {surgery} is finished; it is being processed.',
    fr: "L'envoi de votre vidéo de {surgery} est terminé ; elle est en cours de traitement.",
  },
  videoShared: {
    type: 'other',
    group: 'sharing',
    subject: { en: 'Sutura: {name} shared a video with you', fr: 'Sutura : {name} a partagé une vidéo avec vous' },
    en: '{name} shared a video of {surgery} with you.',
    fr: '{name} a partagé avec vous une vidéo de {surgery}.',
  },
} as const satisfies Record<
  string,
  { type: (typeof NOTIFICATION_TYPES)[number]; group: EmailEvent; subject: { en: string; fr: string }; en: string; fr: string }
>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const notificationSchema = z.object({
  id: z.string(),
  key: z.string(),
  content: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  status: z.enum(NOTIFICATION_STATUSES),
  link: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListResponse = z.object({
  data: z.array(notificationSchema),
  total: z.number(),
  unread: z.number(),
  page: z.number(),
  limit: z.number(),
});

export const updateNotificationBody = z.object({
  id: z.string().optional(),
  status: z.enum(NOTIFICATION_STATUSES, { error: 'INVALID_VALUE' }),
});

export const SOCKET_EVENTS = {
  initialize: 'INITIALIZE',
  restartConnection: 'RESTART_CONNECTION',
  notificationReceived: 'NOTIFICATION_RECEIVED',
} as const;
