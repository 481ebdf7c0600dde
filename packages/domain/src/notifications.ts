import { z } from 'zod';
import type { EmailEvent } from './preferences.ts';

export const NOTIFICATION_TYPES = ['success', 'error', 'other'] as const;
export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;

/**
 * Every notification the product sends: its type, the e-mail group that decides whether it is
 * mailed too, and its text in both languages ({param} placeholders).
 */
export const NOTIFICATION_KINDS = {
  welcome: {
    type: 'success',
    group: 'security',
    en: 'Welcome to Sutura, {firstName}! Your email address is validated.',
    fr: 'Bienvenue sur Sutura, {firstName} ! Votre adresse e-mail est validée.',
  },
  newSignIn: {
    type: 'other',
    group: 'security',
    en: 'New sign-in to your account from a new device ({device}). If it was not you, change your password.',
    fr: "Nouvelle connexion à votre compte depuis un nouvel appareil ({device}). Si ce n'était pas vous, changez votre mot de passe.",
  },
  passwordChanged: {
    type: 'success',
    group: 'security',
    en: 'Your password was changed. Your other sessions were signed out.',
    fr: 'Votre mot de passe a été modifié. Vos autres sessions ont été déconnectées.',
  },
  contactSent: {
    type: 'success',
    group: 'security',
    en: 'Your message "{subject}" was sent to the support team, who will answer by email.',
    fr: "Votre message « {subject} » a été envoyé à l'équipe support, qui vous répondra par e-mail.",
  },
  videoReady: {
    type: 'success',
    group: 'videos',
    en: 'Your video of {surgery} is ready.',
    fr: 'Votre vidéo de {surgery} est prête.',
  },
  videoFailed: {
    type: 'error',
    group: 'videos',
    en: 'Your video of {surgery} could not be processed: {reason}',
    fr: "Votre vidéo de {surgery} n'a pas pu être traitée : {reason}",
  },
  videoUploaded: {
    type: 'success',
    group: 'videos',
    en: 'The upload of your video of {surgery} is finished; it is being processed.',
    fr: "L'envoi de votre vidéo de {surgery} est terminé ; elle est en cours de traitement.",
  },
  videoShared: {
    type: 'other',
    group: 'sharing',
    en: '{name} shared a video of {surgery} with you.',
    fr: '{name} a partagé avec vous une vidéo de {surgery}.',
  },
  preparationLeaseExpired: {
    type: 'other',
    group: 'preparation',
    en: 'Your 12-hour hold on the video of {surgery} has expired: it went back to the pool.',
    fr: 'Votre réservation de 12 heures sur la vidéo de {surgery} a expiré : elle est retournée dans la file.',
  },
  preparationRendered: {
    type: 'success',
    group: 'preparation',
    en: 'The video of {surgery} you prepared is ready: it now waits for an expert.',
    fr: 'La vidéo de {surgery} que vous avez préparée est prête : elle attend maintenant un expert.',
  },
  preparationRenderFailed: {
    type: 'error',
    group: 'preparation',
    en: 'The video of {surgery} you prepared could not be rendered. Your work is kept: submit it again.',
    fr: "La vidéo de {surgery} que vous avez préparée n'a pas pu être générée. Votre travail est conservé : soumettez-la de nouveau.",
  },
  videoInPreparation: {
    type: 'other',
    group: 'videos',
    en: 'Your video of {surgery} is being prepared by an editor.',
    fr: 'Votre vidéo de {surgery} est en cours de préparation par un préparateur.',
  },
  videoPrepared: {
    type: 'success',
    group: 'videos',
    en: 'Your video of {surgery} was prepared: it now waits for an expert.',
    fr: 'Votre vidéo de {surgery} a été préparée : elle attend maintenant un expert.',
  },
} as const satisfies Record<string, { type: (typeof NOTIFICATION_TYPES)[number]; group: EmailEvent; en: string; fr: string }>;
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
