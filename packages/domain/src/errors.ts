import type { Language } from './i18n.ts';

/**
 * The error catalogue (SPEC §8 and §5): a stable code, its HTTP status and its text in both
 * languages. English texts of the spec are kept word for word. Validation messages in the
 * shared zod schemas are these codes, so the API and the web translate them the same way.
 */
export const ERRORS = {
  GENERIC: { status: 500, en: 'An error has occurred, please try again', fr: 'Une erreur est survenue, veuillez réessayer' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    en: 'The service is briefly unavailable: nothing was changed, please try again in a moment',
    fr: "Le service est momentanément indisponible : rien n'a été modifié, veuillez réessayer dans un instant",
  },
  SCRATCH_BUSY: {
    status: 503,
    en: 'The server has no working space free for this file just now: nothing was changed, please try again in a minute',
    fr: "Le serveur n'a pas d'espace de travail libre pour ce fichier pour le moment : rien n'a été modifié, veuillez réessayer dans une minute",
  },
  VALIDATION: {
    status: 400,
    en: 'Some fields are invalid, please check them',
    fr: 'Certains champs sont invalides, veuillez les vérifier',
  },
  UNAUTHORIZED: {
    status: 401,
    en: 'Your session has expired, please sign in again',
    fr: 'Votre session a expiré, veuillez vous reconnecter',
  },
  FORBIDDEN: { status: 403, en: 'You are not allowed to do this', fr: "Vous n'êtes pas autorisé à effectuer cette action" },
  NOT_FOUND: { status: 404, en: 'This page or item does not exist', fr: "Cette page ou cet élément n'existe pas" },
  RATE_LIMITED: {
    status: 429,
    en: 'Too many attempts, please wait a few minutes and try again',
    fr: 'Trop de tentatives, veuillez patienter quelques minutes avant de réessayer',
  },
  PAYLOAD_TOO_LARGE: { status: 413, en: 'The file is too big', fr: 'Le fichier est trop volumineux' },
  UNSUPPORTED_MEDIA: { status: 415, en: 'This file is not a supported image', fr: "Ce fichier n'est pas une image prise en charge" },
  URI_TOO_LONG: { status: 414, en: 'The address of this request is too long', fr: "L'adresse de cette requête est trop longue" },
  HEADERS_TOO_LARGE: {
    status: 431,
    en: 'The headers of this request are too large',
    fr: 'Les en-têtes de cette requête sont trop volumineux',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    en: 'The request took too long to arrive, please try again',
    fr: 'La requête a mis trop de temps à arriver, veuillez réessayer',
  },
  QUERY_UNKNOWN_FIELD: { status: 400, en: 'Unknown field in the query: {field}', fr: 'Champ inconnu dans la requête : {field}' },

  INVALID_CREDENTIALS: {
    status: 401,
    en: 'Your email or password is incorrect, please try again',
    fr: 'Votre e-mail ou votre mot de passe est incorrect, veuillez réessayer',
  },
  EMAIL_NOT_VALIDATED: {
    status: 403,
    en: 'Your email address has not been validated yet: enter the code we sent you',
    fr: "Votre adresse e-mail n'a pas encore été validée : saisissez le code que nous vous avons envoyé",
  },
  ACCOUNT_DEACTIVATED: {
    status: 403,
    en: 'Your account has been deactivated: contact the administrators of the platform',
    fr: 'Votre compte a été désactivé : contactez les administrateurs de la plateforme',
  },
  EMAIL_TAKEN: {
    status: 409,
    en: 'An account already exists with the email address entered',
    fr: "Un compte existe déjà avec l'adresse e-mail saisie",
  },
  EMAIL_NOT_FOUND: {
    status: 404,
    en: 'No account was found with this email address',
    fr: "Aucun compte n'a été trouvé avec cette adresse e-mail",
  },
  CODE_INVALID: { status: 400, en: 'The validation code is incorrect', fr: 'Le code de validation est incorrect' },
  CODE_FORMAT: {
    status: 400,
    en: 'The validation code must be a number of 8 digits',
    fr: 'Le code de validation doit être un nombre de 8 chiffres',
  },
  CODE_EXPIRED: {
    status: 400,
    en: 'The validation code has expired, please ask for a new one',
    fr: 'Le code de validation a expiré, veuillez en demander un nouveau',
  },
  CODE_LOCKED: {
    status: 429,
    en: 'Too many wrong codes: please ask for a new code',
    fr: 'Trop de codes erronés : veuillez demander un nouveau code',
  },
  CODE_WAIT: {
    status: 429,
    en: 'Too many wrong codes for this account: you can ask for a new code in {minutes} min',
    fr: 'Trop de codes erronés pour ce compte : vous pourrez demander un nouveau code dans {minutes} min',
  },
  CURRENT_PASSWORD_INCORRECT: { status: 400, en: 'Your current password is incorrect', fr: 'Votre mot de passe actuel est incorrect' },
  EMAIL_VALIDATION_FAILED: { status: 400, en: 'Your email could not be validated', fr: "Votre e-mail n'a pas pu être validé" },
  RPPS_NAME_MISMATCH: {
    status: 400,
    en: 'The RPPS number does not match the name entered',
    fr: 'Le numéro RPPS ne correspond pas au nom saisi',
  },
  RPPS_FORMAT: { status: 400, en: 'The RPPS number must contain 11 digits', fr: 'Le numéro RPPS doit contenir 11 chiffres' },
  RPPS_CHECK_DIGIT: {
    status: 400,
    en: 'This RPPS number is not valid: check its digits, the last one does not match the others',
    fr: "Ce numéro RPPS n'est pas valide : vérifiez ses chiffres, le dernier ne correspond pas aux autres",
  },
  RPPS_NOT_FOUND: { status: 404, en: 'This RPPS number does not exist', fr: "Ce numéro RPPS n'existe pas" },
  RPPS_TAKEN: { status: 409, en: 'An account already exists with this RPPS number', fr: 'Un compte existe déjà avec ce numéro RPPS' },
  DELETE_CONFIRMATION: {
    status: 400,
    en: 'Type the confirmation word to delete your account',
    fr: 'Saisissez le mot de confirmation pour supprimer votre compte',
  },

  VIDEO_NOT_EDITABLE: {
    status: 409,
    en: 'This video was sent for review and can no longer be edited',
    fr: 'Cette vidéo a été envoyée pour relecture et ne peut plus être modifiée',
  },
  VIDEO_NOT_READY: {
    status: 409,
    en: 'This video is not ready yet: wait until its processing is finished',
    fr: "Cette vidéo n'est pas encore prête : attendez la fin de son traitement",
  },
  BEST_CASE_EXISTS: {
    status: 409,
    en: 'This video is already a best case',
    fr: 'Cette vidéo est déjà un best case',
  },
  BEST_CASE_NOT_ANALYSED: {
    status: 409,
    en: 'Only an analysed video can become a best case',
    fr: 'Seule une vidéo analysée peut devenir un best case',
  },
  BEST_CASE_STEPS_KEPT: {
    status: 409,
    en: 'The steps of an analysed video stay as its editor marked them',
    fr: "Les étapes d'une vidéo analysée restent celles que son préparateur a marquées",
  },
  BEST_CASE_CONSENT_REFUSED: {
    status: 409,
    en: 'The author of this video declined or withdrew their consent: it cannot be published',
    fr: "L'auteur de cette vidéo a refusé ou retiré son consentement : elle ne peut pas être publiée",
  },
  VIDEO_ALREADY_UPLOADED: {
    status: 409,
    en: 'The file of this video has already been received',
    fr: 'Le fichier de cette vidéo a déjà été reçu',
  },
  QUOTA_CASES_WAITING: {
    status: 409,
    en: 'You already have {max} cases waiting for their video: upload or delete one of them first',
    fr: 'Vous avez déjà {max} cas en attente de leur vidéo : envoyez-en ou supprimez-en un d’abord',
  },
  QUOTA_UPLOADS_IN_FLIGHT: {
    status: 413,
    en: 'Your uploads in progress would exceed {max}: finish or cancel one of them first',
    fr: 'Vos envois en cours dépasseraient {max} : terminez-en ou annulez-en un d’abord',
  },
  QUOTA_STORAGE: {
    status: 413,
    en: 'This upload would exceed your storage space of {max}: delete videos you no longer need first',
    fr: 'Cet envoi dépasserait votre espace de stockage de {max} : supprimez d’abord des vidéos dont vous n’avez plus besoin',
  },
  SHARE_SELF: { status: 400, en: 'You cannot share a video with yourself', fr: 'Vous ne pouvez pas partager une vidéo avec vous-même' },
  SHARE_USER_NOT_FOUND: {
    status: 404,
    en: 'No colleague was found with this email address',
    fr: "Aucun confrère n'a été trouvé avec cette adresse e-mail",
  },
  MEDIA_NOT_A_VIDEO: {
    status: 422,
    en: 'This file is not a video: choose a video file',
    fr: "Ce fichier n'est pas une vidéo : choisissez un fichier vidéo",
  },
  MEDIA_NO_VIDEO_STREAM: { status: 422, en: 'This file contains no video track', fr: 'Ce fichier ne contient aucune piste vidéo' },
  MEDIA_TRUNCATED: {
    status: 422,
    en: 'This file is incomplete or damaged: upload it again from the original',
    fr: "Ce fichier est incomplet ou endommagé : envoyez-le de nouveau depuis l'original",
  },
  MEDIA_PROCESSING_FAILED: {
    status: 500,
    en: 'The video could not be processed: try again, or upload it again',
    fr: "La vidéo n'a pas pu être traitée : réessayez, ou envoyez-la de nouveau",
  },
  UPLOAD_TOO_BIG: {
    status: 413,
    en: '{file} is too big, the maximum size is {max}',
    fr: '{file} est trop volumineux, la taille maximale est de {max}',
  },

  // Claims of the workflow stages (preparation, analysis).
  CLAIM_TAKEN: {
    status: 409,
    en: 'This video has just been claimed by someone else',
    fr: "Cette vidéo vient d'être prise en charge par quelqu'un d'autre",
  },
  LEASE_LOST: {
    status: 409,
    en: 'Your 12-hour hold on this video has expired or been taken over: your changes were not saved',
    fr: "Votre réservation de 12 heures sur cette vidéo a expiré ou a été reprise : vos modifications n'ont pas été enregistrées",
  },
  VIDEO_WRONG_STATUS: {
    status: 409,
    en: 'This video is no longer at this stage of the review',
    fr: "Cette vidéo n'est plus à cette étape de la relecture",
  },
  // Preparation rules of SPEC §5.
  PREPARATION_WRONG_PHASE: {
    status: 409,
    en: 'This change belongs to the other phase of the preparation',
    fr: "Cette modification appartient à l'autre phase de la préparation",
  },
  TRIM_POSITION: { status: 400, en: 'You cannot add a trim at this position', fr: 'Vous ne pouvez pas ajouter de découpe à cet endroit' },
  TRIM_NOT_MODIFIED: {
    status: 400,
    en: 'Modify the last trim before adding a new one',
    fr: "Modifiez la dernière découpe avant d'en ajouter une nouvelle",
  },
  TRIM_TOO_SHORT: {
    status: 400,
    en: 'A trim must last at least {min} second',
    fr: 'Une découpe doit durer au moins {min} seconde',
  },
  TRIMS_REQUIRED: {
    status: 400,
    en: 'Keep at least one part of the video',
    fr: 'Conservez au moins une partie de la vidéo',
  },
  STEPS_MIN: { status: 400, en: 'Please add at least 2 steps', fr: 'Veuillez ajouter au moins 2 étapes' },
  STEPS_UNNAMED: { status: 400, en: 'Please name all the steps', fr: 'Veuillez nommer toutes les étapes' },
  STEPS_MAX: {
    status: 400,
    en: 'You have reached the maximum number of steps',
    fr: "Vous avez atteint le nombre maximal d'étapes",
  },
  STEP_OUTSIDE_TRIMS: {
    status: 400,
    en: 'A step must start and end inside the kept parts of the video',
    fr: 'Une étape doit commencer et finir dans les parties conservées de la vidéo',
  },
  STEP_STARTS_HERE: {
    status: 400,
    en: 'A step already starts here: move the playhead inside it to split it',
    fr: "Une étape commence déjà ici : placez la tête de lecture à l'intérieur pour la couper en deux",
  },
  STEP_ORDER: { status: 400, en: 'A step must end after it starts', fr: 'Une étape doit finir après son début' },
  RENDER_FAILED: {
    status: 500,
    en: 'The prepared video could not be rendered: your work is kept, submit it again',
    fr: "La vidéo préparée n'a pas pu être générée : votre travail est conservé, soumettez-la de nouveau",
  },
  ANALYSIS_UNRATED: {
    status: 409,
    en: 'Some steps or skills are not rated yet: rate them, or confirm anyway',
    fr: 'Certaines étapes ou compétences ne sont pas encore notées : notez-les, ou confirmez quand même',
  },
  ANALYSIS_SUBMITTED: {
    status: 409,
    en: 'This analysis has been submitted and can no longer be changed',
    fr: 'Cette analyse a été envoyée et ne peut plus être modifiée',
  },
  REVIEW_ALREADY_REVIEWED: {
    status: 409,
    en: 'You have already reviewed this case: another expert must review it',
    fr: 'Vous avez déjà analysé ce cas : un autre expert doit l’analyser',
  },
  REVIEW_OWN_CASE: {
    status: 409,
    en: 'This case is yours: another expert must review it',
    fr: 'Ce cas est le vôtre : un autre expert doit l’analyser',
  },
  REVIEW_NOT_POSSIBLE: {
    status: 409,
    en: 'This case cannot be sent for another review now',
    fr: 'Ce cas ne peut pas être envoyé pour une autre analyse maintenant',
  },
  ANALYSIS_NOT_READY: {
    status: 404,
    en: 'The analysis of this video is not available yet',
    fr: "L'analyse de cette vidéo n'est pas encore disponible",
  },
  SELF_ASSESSMENT_LOCKED: {
    status: 409,
    en: 'The result of this case is now available to you: your self-assessment can no longer be changed',
    fr: 'Le résultat de ce cas vous est désormais accessible : votre auto-évaluation ne peut plus être modifiée',
  },
  SELF_ASSESSMENT_NOT_SENT: {
    status: 409,
    en: 'Send this case for analysis before assessing yourself',
    fr: 'Envoyez ce cas en analyse avant de vous auto-évaluer',
  },
  COMMENTS_LIMIT: {
    status: 409,
    en: 'You have reached the maximum number of comments ({max})',
    fr: 'Vous avez atteint le nombre maximal de commentaires ({max})',
  },
  VOICE_NOT_AUDIO: {
    status: 422,
    en: 'This file is not a sound recording: record your advice again',
    fr: "Ce fichier n'est pas un enregistrement sonore : enregistrez de nouveau votre conseil",
  },
  VOICE_TOO_LONG: {
    status: 422,
    en: 'The voice advice is too long: {max} minutes at most',
    fr: 'Le conseil vocal est trop long : {max} minutes au maximum',
  },

  // The administration of people.
  ADMIN_SELF: {
    status: 409,
    en: 'You cannot remove your own administrator role or deactivate your own account',
    fr: 'Vous ne pouvez pas retirer votre propre rôle d’administrateur ni désactiver votre propre compte',
  },
  LAST_ADMINISTRATOR: {
    status: 409,
    en: 'At least one active administrator must remain',
    fr: 'Il doit rester au moins un administrateur actif',
  },
  ALREADY_VALIDATED: {
    status: 409,
    en: 'This email address has already been validated',
    fr: 'Cette adresse e-mail a déjà été validée',
  },

  // Field rules of SPEC §5, used as zod messages.
  FIELD_REQUIRED: { status: 400, en: 'This field is required', fr: 'Ce champ est obligatoire' },
  EMAIL_FORMAT: { status: 400, en: 'Your email must be a valid email address', fr: 'Votre e-mail doit être une adresse e-mail valide' },
  PASSWORD_RULE: {
    status: 400,
    en: 'Your password must contain at least 8 characters including 1 digit',
    fr: 'Votre mot de passe doit contenir au moins 8 caractères dont 1 chiffre',
  },
  PASSWORD_MISMATCH: { status: 400, en: 'Passwords do not match', fr: 'Les mots de passe ne correspondent pas' },
  PHONE_FORMAT: {
    status: 400,
    en: 'The phone number is not in the correct format. Required format: +XX XXXXXXXXX',
    fr: "Le numéro de téléphone n'est pas au bon format. Format requis : +XX XXXXXXXXX",
  },
  YEARS_FORMAT: { status: 400, en: 'This field must contain a number of years', fr: "Ce champ doit contenir un nombre d'années" },
  TERMS_REQUIRED: {
    status: 400,
    en: 'You must accept the general conditions and the privacy policy',
    fr: 'Vous devez accepter les conditions générales et la politique de confidentialité',
  },
  ROBOTIC_YEARS_OVER_PRACTICE: {
    status: 400,
    en: 'Your years of robotic surgery cannot be more than your years of practice',
    fr: "Vos années de chirurgie robotique ne peuvent pas dépasser vos années d'exercice",
  },
  DURATION_TOO_SHORT: { status: 400, en: 'The duration must be at least 1 minute', fr: "La durée doit être d'au moins 1 minute" },
  DURATION_TOO_LONG: { status: 400, en: 'The duration cannot be more than 24 hours', fr: 'La durée ne peut pas dépasser 24 heures' },
  DATE_RANGE_INVERTED: {
    status: 400,
    en: 'The end date must be on or after the start date',
    fr: 'La date de fin doit être identique ou postérieure à la date de début',
  },
  TEXT_TOO_LONG: { status: 400, en: 'This text is too long', fr: 'Ce texte est trop long' },
  TEXT_INVALID_CHARACTERS: {
    status: 400,
    en: 'This text contains a character that is not allowed',
    fr: "Ce texte contient un caractère qui n'est pas autorisé",
  },
  VOCABULARY_IN_USE: {
    status: 409,
    en: 'This term is used by cases, people or surgeries: retire it instead of deleting it',
    fr: 'Ce terme est utilisé par des cas, des personnes ou des chirurgies : retirez-le au lieu de le supprimer',
  },
  VOCABULARY_NAME_TAKEN: {
    status: 409,
    en: 'This list already has a term with this name',
    fr: 'Cette liste contient déjà un terme portant ce nom',
  },
  VOCABULARY_ORDER_STALE: {
    status: 409,
    en: 'This list was changed meanwhile: reload it and order it again',
    fr: 'Cette liste a été modifiée entre-temps : rechargez-la et ordonnez-la de nouveau',
  },
  CLAIM_NOT_HELD: {
    status: 409,
    en: 'Nobody holds this video any more',
    fr: 'Plus personne ne détient cette vidéo',
  },
  INVALID_VALUE: { status: 400, en: 'This value is not allowed', fr: "Cette valeur n'est pas autorisée" },
  INVALID_DATE: { status: 400, en: 'This date does not exist', fr: "Cette date n'existe pas" },
  OPERATION_DAY_FUTURE: {
    status: 400,
    en: 'The day of the operation cannot be in the future',
    fr: "Le jour de l'opération ne peut pas être dans le futur",
  },
  PROGRAMME_DATES_ORDER: {
    status: 400,
    en: 'The end of the programme cannot be before its start',
    fr: 'La fin du programme ne peut pas précéder son début',
  },
  PROGRAMME_PERSON_NOT_FOUND: {
    status: 404,
    en: 'No active account was found for this person',
    fr: "Aucun compte actif n'a été trouvé pour cette personne",
  },
  PROGRAMME_MEMBER_NOT_LEARNER: {
    status: 400,
    en: 'Only a learner can be a member of a programme',
    fr: "Seul un apprenant peut être membre d'un programme",
  },
  LEARNING_CURVE_RATE_RANGE: {
    status: 400,
    en: 'A failure rate must be between 1% and 99%',
    fr: "Un taux d'échec doit être compris entre 1 % et 99 %",
  },
  LEARNING_CURVE_RATE_ORDER: {
    status: 400,
    en: 'The unacceptable failure rate must be higher than the acceptable one',
    fr: "Le taux d'échec inacceptable doit être supérieur au taux acceptable",
  },
  LEARNING_CURVE_RISK_RANGE: {
    status: 400,
    en: 'An error risk must be at least 1% and below 50%',
    fr: "Un risque d'erreur doit être d'au moins 1 % et inférieur à 50 %",
  },
  PUSH_ENDPOINT_REFUSED: {
    status: 400,
    en: 'Notifications cannot be sent to this address: it must be an https address of a public push service',
    fr: 'Les notifications ne peuvent pas être envoyées à cette adresse : elle doit être une adresse https d’un service de notifications public',
  },

  // Single sign-on (OpenID Connect: Pro Santé Connect, the hospital's identity provider).
  SSO_PROVIDER_UNKNOWN: {
    status: 404,
    en: 'This sign-in service is not offered here',
    fr: "Ce service de connexion n'est pas proposé ici",
  },
  SSO_PROVIDER_UNREACHABLE: {
    status: 502,
    en: 'The sign-in service cannot be reached right now: nothing was changed, please try again in a moment',
    fr: "Le service de connexion est injoignable pour le moment : rien n'a été modifié, veuillez réessayer dans un instant",
  },
  SSO_STATE_INVALID: {
    status: 400,
    en: 'This sign-in did not start here or has expired: please sign in again',
    fr: "Cette connexion n'a pas été commencée ici ou a expiré : veuillez vous reconnecter",
  },
  SSO_PROVIDER_REFUSED: {
    status: 400,
    en: 'The sign-in service refused this sign-in (it may have been used already): please sign in again',
    fr: 'Le service de connexion a refusé cette connexion (elle a peut-être déjà servi) : veuillez vous reconnecter',
  },
  SSO_TOKEN_INVALID: {
    status: 400,
    en: 'The proof of identity sent by the sign-in service is not valid: nothing was created, please sign in again',
    fr: "La preuve d'identité envoyée par le service de connexion n'est pas valable : rien n'a été créé, veuillez vous reconnecter",
  },
  SSO_LEVEL_INSUFFICIENT: {
    status: 403,
    en: 'This sign-in needs a stronger means of identification (e-CPS app or CPS card)',
    fr: "Cette connexion demande un moyen d'identification plus fort (application e-CPS ou carte CPS)",
  },
  SSO_RPPS_MISSING: {
    status: 403,
    en: 'The sign-in service did not give your RPPS number: Sutura is open to health professionals holding one',
    fr: "Le service de connexion n'a pas transmis votre numéro RPPS : Sutura est ouvert aux professionnels de santé qui en ont un",
  },
  SSO_RPPS_UNKNOWN: {
    status: 403,
    en: 'Your RPPS number is not in the directory of health professionals known to Sutura: contact the administrators',
    fr: "Votre numéro RPPS ne figure pas dans l'annuaire des professionnels de santé connu de Sutura : contactez les administrateurs",
  },
  SSO_EMAIL_UNVERIFIED: {
    status: 403,
    en: 'Your identity provider does not confirm your email address: ask it to be verified, then sign in again',
    fr: "Votre fournisseur d'identité ne confirme pas votre adresse e-mail : faites-la vérifier, puis reconnectez-vous",
  },
  SSO_EMAIL_MISSING: {
    status: 403,
    en: 'Your identity provider did not give your email address: contact the administrators',
    fr: "Votre fournisseur d'identité n'a pas transmis votre adresse e-mail : contactez les administrateurs",
  },
  SSO_PENDING_EXPIRED: {
    status: 400,
    en: 'This sign-in has expired: please sign in again with your provider',
    fr: 'Cette connexion a expiré : veuillez vous reconnecter avec votre fournisseur',
  },
  SSO_IDENTITY_TAKEN: {
    status: 409,
    en: 'This identity is already linked to another Sutura account',
    fr: 'Cette identité est déjà liée à un autre compte Sutura',
  },
  SSO_LAST_SIGN_IN_METHOD: {
    status: 409,
    en: 'This is your only way to sign in: set a password first, or keep this identity',
    fr: "C'est votre seul moyen de connexion : définissez d'abord un mot de passe, ou gardez cette identité",
  },
  PASSWORD_SIGN_IN_OFF: {
    status: 403,
    en: 'Sign-in with a password is turned off here: use the sign-in service of your institution',
    fr: 'La connexion par mot de passe est désactivée ici : utilisez le service de connexion de votre établissement',
  },
} as const satisfies Record<string, { status: number; en: string; fr: string }>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

export function errorMessage(code: ErrorCode, lang: Language, params: Record<string, string | number> = {}): string {
  return ERRORS[code][lang].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
}

/** Human size for '{file} is too big, the maximum size is ...' (bytes, KB, MB, GB, TB). */
export function formatBytes(bytes: number, lang: Language): string {
  const units = lang === 'fr' ? ['octets', 'Ko', 'Mo', 'Go', 'To'] : ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const rounded = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${lang === 'fr' ? rounded.replace('.', ',') : rounded} ${units[unit]}`;
}

export function fileTooBigMessage(fileName: string, maxBytes: number, lang: Language): string {
  const size = formatBytes(maxBytes, lang);
  return lang === 'fr'
    ? `${fileName} est trop volumineux, la taille maximale est de ${size}`
    : `${fileName} is too big, the maximum size is ${size}`;
}
