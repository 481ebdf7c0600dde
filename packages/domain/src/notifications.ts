import { z } from 'zod';
import type { EmailEvent } from './preferences.ts';

export const NOTIFICATION_TYPES = ['success', 'error', 'other'] as const;
export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;

/**
 * Every notification the product sends: its type, the e-mail group that decides whether it is
 * mailed too, the subject of that mail (each its own, so that an inbox tells them apart), and its
 * text in both languages ({param} placeholders). A notification about a case names it: its
 * surgery, followed by the day the case was added when the sender gives it (`caseAt`).
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
  uploadExpiring: {
    type: 'other',
    group: 'videos',
    subject: { en: 'Sutura: your upload of {surgery} will expire', fr: 'Sutura : votre envoi de {surgery} va expirer' },
    en: 'The upload of your video of {surgery} has not moved for a while: resume it within {hours} h, or it will be removed.',
    fr: "L'envoi de votre vidéo de {surgery} n'avance plus : reprenez-le dans les {hours} h, sinon il sera supprimé.",
  },
  uploadExpired: {
    type: 'error',
    group: 'videos',
    subject: {
      en: 'Sutura: your unfinished upload of {surgery} was removed',
      fr: 'Sutura : votre envoi inachevé de {surgery} a été supprimé',
    },
    en: 'The unfinished upload of your video of {surgery} was removed; the case waits for its video again.',
    fr: "L'envoi inachevé de votre vidéo de {surgery} a été supprimé ; le cas attend de nouveau sa vidéo.",
  },
  videoShared: {
    type: 'other',
    group: 'sharing',
    subject: {
      en: 'Sutura: {name} shared a video of {surgery} with you',
      fr: 'Sutura : {name} a partagé une vidéo de {surgery} avec vous',
    },
    en: '{name} shared a video of {surgery} with you.',
    fr: '{name} a partagé avec vous une vidéo de {surgery}.',
  },
  preparationLeaseExpired: {
    type: 'other',
    group: 'preparation',
    subject: {
      en: 'Sutura: your hold on the video of {surgery} to prepare has expired',
      fr: 'Sutura : votre réservation de la vidéo de {surgery} à préparer a expiré',
    },
    en: 'Your 12-hour hold on the video of {surgery} has expired: it went back to the pool.',
    fr: 'Votre réservation de 12 heures sur la vidéo de {surgery} a expiré : elle est retournée dans la file.',
  },
  preparationRendered: {
    type: 'success',
    group: 'preparation',
    subject: {
      en: 'Sutura: the video of {surgery} you prepared is ready',
      fr: 'Sutura : la vidéo de {surgery} que vous avez préparée est prête',
    },
    en: 'The video of {surgery} you prepared is ready: it now waits for an expert.',
    fr: 'La vidéo de {surgery} que vous avez préparée est prête : elle attend maintenant un expert.',
  },
  preparationRenderFailed: {
    type: 'error',
    group: 'preparation',
    subject: {
      en: 'Sutura: the video of {surgery} you prepared could not be rendered',
      fr: "Sutura : la vidéo de {surgery} que vous avez préparée n'a pas pu être générée",
    },
    en: 'The video of {surgery} you prepared could not be rendered. Your work is kept: submit it again.',
    fr: "La vidéo de {surgery} que vous avez préparée n'a pas pu être générée. Votre travail est conservé : soumettez-la de nouveau.",
  },
  videoInPreparation: {
    type: 'other',
    group: 'videos',
    subject: { en: 'Sutura: your video of {surgery} is being prepared', fr: 'Sutura : votre vidéo de {surgery} est en préparation' },
    en: 'Your video of {surgery} is being prepared by an editor.',
    fr: 'Votre vidéo de {surgery} est en cours de préparation par un préparateur.',
  },
  videoPrepared: {
    type: 'success',
    group: 'videos',
    subject: { en: 'Sutura: your video of {surgery} was prepared', fr: 'Sutura : votre vidéo de {surgery} a été préparée' },
    en: 'Your video of {surgery} was prepared: it now waits for an expert.',
    fr: 'Votre vidéo de {surgery} a été préparée : elle attend maintenant un expert.',
  },
  analysisLeaseExpired: {
    type: 'other',
    group: 'analysis',
    subject: {
      en: 'Sutura: your hold on the video of {surgery} to analyse has expired',
      fr: 'Sutura : votre réservation de la vidéo de {surgery} à analyser a expiré',
    },
    en: 'Your 12-hour hold on the video of {surgery} has expired: it went back to the pool and your draft was discarded.',
    fr: 'Votre réservation de 12 heures sur la vidéo de {surgery} a expiré : elle est retournée dans la file et votre brouillon a été supprimé.',
  },
  analysisSubmitted: {
    type: 'success',
    group: 'analysis',
    subject: { en: 'Sutura: your video of {surgery} has been analysed', fr: 'Sutura : votre vidéo de {surgery} a été analysée' },
    en: 'Your video of {surgery} has been analysed by {expert}: read the advice.',
    fr: 'Votre vidéo de {surgery} a été analysée par {expert} : consultez les conseils.',
  },
  learnerProficient: {
    type: 'success',
    group: 'analysis',
    subject: {
      en: 'Sutura: {learner} is proficient at {procedure}',
      fr: 'Sutura : {learner} maîtrise la procédure {procedure}',
    },
    en: '{learner} ({programme}) became proficient at {procedure} at case {case} (learning curve).',
    fr: '{learner} ({programme}) maîtrise la procédure {procedure} depuis le cas n° {case} (courbe d’apprentissage).',
  },
  learnerRelapsed: {
    type: 'error',
    group: 'analysis',
    subject: {
      en: 'Sutura: {learner} relapsed at {procedure}',
      fr: 'Sutura : rechute de {learner} sur la procédure {procedure}',
    },
    en: '{learner} ({programme}) relapsed at {procedure} at case {case}: failures are above the unacceptable rate again.',
    fr: '{learner} ({programme}) rechute sur la procédure {procedure} au cas n° {case} : les échecs dépassent de nouveau le taux inacceptable.',
  },
  secondReviewStarted: {
    type: 'other',
    group: 'analysis',
    subject: {
      en: 'Sutura: a second expert reviews your video of {surgery}',
      fr: 'Sutura : un second expert analyse votre vidéo de {surgery}',
    },
    en: 'A second expert now reviews your video of {surgery}: your result stays available and will be updated when the review arrives.',
    fr: 'Un second expert analyse maintenant votre vidéo de {surgery} : votre résultat reste disponible et sera mis à jour à son arrivée.',
  },
  casesDisagree: {
    type: 'other',
    group: 'analysis',
    subject: {
      en: 'Sutura: two experts disagree on a case of {surgery}',
      fr: 'Sutura : deux experts sont en désaccord sur un cas de {surgery}',
    },
    en: 'Two experts disagree on the case of {surgery} (up to {gap} levels apart): read it among the disagreements.',
    fr: "Deux experts sont en désaccord sur le cas de {surgery} (jusqu'à {gap} niveaux d'écart) : consultez-le parmi les désaccords.",
  },
  preparationClaimReleased: {
    type: 'other',
    group: 'preparation',
    subject: {
      en: 'Sutura: your hold on the video of {surgery} to prepare was ended',
      fr: 'Sutura : votre réservation de la vidéo de {surgery} à préparer a pris fin',
    },
    en: 'An administrator ended your hold on the video of {surgery}: it went back to the pool.',
    fr: 'Un administrateur a mis fin à votre réservation de la vidéo de {surgery} : elle est retournée dans la file.',
  },
  analysisClaimReleased: {
    type: 'other',
    group: 'analysis',
    subject: {
      en: 'Sutura: your hold on the video of {surgery} to analyse was ended',
      fr: 'Sutura : votre réservation de la vidéo de {surgery} à analyser a pris fin',
    },
    en: 'An administrator ended your hold on the video of {surgery}: it went back to the pool and your draft was discarded.',
    fr: 'Un administrateur a mis fin à votre réservation de la vidéo de {surgery} : elle est retournée dans la file et votre brouillon a été supprimé.',
  },
  videoDeletedByAdmin: {
    type: 'other',
    group: 'videos',
    subject: { en: 'Sutura: your case of {surgery} was deleted', fr: 'Sutura : votre cas de {surgery} a été supprimé' },
    en: 'An administrator deleted your case of {surgery}, with its files.',
    fr: 'Un administrateur a supprimé votre cas de {surgery}, avec ses fichiers.',
  },
  retentionSourceDeleted: {
    type: 'other',
    group: 'videos',
    subject: {
      en: 'Sutura: the original file of your case of {surgery} was deleted',
      fr: 'Sutura : le fichier original de votre cas de {surgery} a été supprimé',
    },
    en: 'The original file of your case of {surgery} was deleted by the retention rule: original files are kept {period} after the prepared video is rendered. {remains}',
    fr: 'Le fichier original de votre cas de {surgery} a été supprimé par la règle de conservation : les fichiers originaux sont conservés {period} après la génération de la vidéo préparée. {remains}',
  },
  retentionUploadDeleted: {
    type: 'other',
    group: 'videos',
    subject: {
      en: 'Sutura: the file you sent for your case of {surgery} was deleted',
      fr: 'Sutura : le fichier envoyé pour votre cas de {surgery} a été supprimé',
    },
    en: 'The file you sent for your case of {surgery}, kept for a retry after its processing failed, was deleted by the retention rule: such files are kept {period}. The case remains.',
    fr: "Le fichier envoyé pour votre cas de {surgery}, conservé pour une nouvelle tentative après l'échec de son traitement, a été supprimé par la règle de conservation : ces fichiers sont conservés {period}. Le cas demeure.",
  },
  retentionCaseDeleted: {
    type: 'other',
    group: 'videos',
    subject: {
      en: 'Sutura: your analysed case of {surgery} was deleted',
      fr: 'Sutura : votre cas analysé de {surgery} a été supprimé',
    },
    en: 'Your analysed case of {surgery} was deleted, with its videos and its analysis, by the retention rule: analysed cases are kept {period} after their last analysis.',
    fr: 'Votre cas analysé de {surgery} a été supprimé, avec ses vidéos et son analyse, par la règle de conservation : les cas analysés sont conservés {period} après leur dernière analyse.',
  },
  bestCaseRequested: {
    type: 'other',
    group: 'videos',
    subject: {
      en: 'Sutura: may your video of {surgery} become a best case?',
      fr: 'Sutura : votre vidéo de {surgery} peut-elle devenir un best case ?',
    },
    en: 'An administrator would like to publish your analysed video of {surgery} as a best case, without your name. Accept or decline on its page.',
    fr: 'Un administrateur souhaite publier votre vidéo analysée de {surgery} comme best case, sans votre nom. Acceptez ou refusez sur sa page.',
  },
  bestCaseAnswered: {
    type: 'other',
    group: 'videos',
    subject: {
      en: 'Sutura: the author answered about the best case "{title}"',
      fr: "Sutura : l'auteur a répondu pour le best case « {title} »",
    },
    en: 'The author of the best case "{title}" {answer}.',
    fr: "L'auteur du best case « {title} » {answer}.",
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

export { SOCKET_EVENTS } from './socket-events.ts';
