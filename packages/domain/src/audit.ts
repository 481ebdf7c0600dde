import type { Language } from './i18n.ts';

type Label = Record<Language, string>;

/**
 * Every action the audit log records (the `action` column, `family.verb`), with what an
 * administrator reads for it in each language. The API writes only these (its `audit()` takes an
 * AuditAction); the audit page and the CSV export show the label next to the identifier, which
 * stays what filters and searches use.
 */
export const AUDIT_ACTIONS = {
  'auth.sign_in': { fr: 'Connexion', en: 'Sign-in' },
  'auth.sign_in_failed': { fr: 'Connexion refusée', en: 'Sign-in refused' },
  'auth.sign_out': { fr: 'Déconnexion', en: 'Sign-out' },
  'user.sign_up': { fr: 'Inscription', en: 'Sign-up' },
  'user.email_validated': { fr: 'Adresse e-mail validée', en: 'Email address validated' },
  'user.password_changed': { fr: 'Mot de passe modifié', en: 'Password changed' },
  'user.password_reset_requested': { fr: 'Réinitialisation du mot de passe demandée', en: 'Password reset requested' },
  'user.password_reset': { fr: 'Mot de passe réinitialisé', en: 'Password reset' },
  'user.profile_updated': { fr: 'Profil modifié', en: 'Profile updated' },
  'user.roles_changed': { fr: 'Rôles modifiés', en: 'Roles changed' },
  'user.avatar_changed': { fr: 'Photo de profil modifiée', en: 'Profile picture changed' },
  'user.deleted': { fr: 'Compte supprimé', en: 'Account deleted' },
  'user.data_export_requested': { fr: 'Copie de ses données demandée', en: 'Copy of their data requested' },
  'user.data_export_ready': { fr: 'Copie de ses données prête', en: 'Copy of their data ready' },
  'user.created_by_admin': { fr: 'Compte créé par un administrateur', en: 'Account created by an administrator' },
  'user.deactivated': { fr: 'Compte désactivé', en: 'Account deactivated' },
  'user.reactivated': { fr: 'Compte réactivé', en: 'Account reactivated' },
  'user.validation_resent': { fr: 'Code de validation renvoyé', en: 'Validation code sent again' },
  'user.sso_linked': { fr: 'Identité externe liée', en: 'External identity linked' },
  'user.sso_unlinked': { fr: 'Identité externe retirée', en: 'External identity removed' },
  'video.created': { fr: 'Vidéo créée', en: 'Video created' },
  'video.uploaded': { fr: 'Vidéo téléversée', en: 'Video uploaded' },
  'video.sent': { fr: 'Vidéo envoyée', en: 'Video sent' },
  'video.shared': { fr: 'Vidéo partagée', en: 'Video shared' },
  'video.share_revoked': { fr: 'Partage de la vidéo retiré', en: 'Video share revoked' },
  'video.deleted': { fr: 'Vidéo supprimée', en: 'Video deleted' },
  'video.retry': { fr: 'Traitement de la vidéo relancé', en: 'Video processing retried' },
  'video.updated': { fr: 'Vidéo modifiée', en: 'Video updated' },
  'video.favourite_changed': { fr: 'Favori modifié', en: 'Favourite changed' },
  'video.picture_added': { fr: 'Image ajoutée à la vidéo', en: 'Picture added to the video' },
  'video.picture_removed': { fr: 'Image retirée de la vidéo', en: 'Picture removed from the video' },
  'video.claim_released_by_admin': {
    fr: 'Prise en charge libérée par un administrateur',
    en: 'Claim released by an administrator',
  },
  'video.deleted_by_admin': { fr: 'Vidéo supprimée par un administrateur', en: 'Video deleted by an administrator' },
  'video.viewed_by_admin': { fr: 'Vidéo consultée par un administrateur', en: 'Video viewed by an administrator' },
  'preparation.claimed': { fr: 'Préparation prise en charge', en: 'Preparation claimed' },
  'preparation.saved': { fr: 'Préparation enregistrée', en: 'Preparation saved' },
  'preparation.released': { fr: 'Préparation libérée', en: 'Preparation released' },
  'preparation.submitted': { fr: 'Préparation soumise', en: 'Preparation submitted' },
  'preparation.rendered': { fr: 'Vidéo préparée rendue', en: 'Prepared video rendered' },
  'preparation.render_failed': { fr: 'Rendu de la vidéo préparée en échec', en: 'Prepared video render failed' },
  'analysis.claimed': { fr: 'Analyse prise en charge', en: 'Analysis claimed' },
  'analysis.abandoned': { fr: 'Analyse abandonnée', en: 'Analysis abandoned' },
  'analysis.saved': { fr: 'Analyse enregistrée', en: 'Analysis saved' },
  'analysis.submitted': { fr: 'Analyse soumise', en: 'Analysis submitted' },
  'analysis.comment_added': { fr: 'Commentaire ajouté', en: 'Comment added' },
  'analysis.comment_updated': { fr: 'Commentaire modifié', en: 'Comment updated' },
  'analysis.comment_removed': { fr: 'Commentaire supprimé', en: 'Comment removed' },
  'analysis.voice_set': { fr: 'Note vocale enregistrée', en: 'Voice note recorded' },
  'analysis.voice_removed': { fr: 'Note vocale supprimée', en: 'Voice note removed' },
  'review.claimed': { fr: 'Nouvelle analyse prise en charge', en: 'Further review claimed' },
  'review.abandoned': { fr: 'Nouvelle analyse abandonnée', en: 'Further review abandoned' },
  'review.submitted': { fr: 'Nouvelle analyse soumise', en: 'Further review submitted' },
  'review.settings_changed': { fr: 'Part des doubles analyses modifiée', en: 'Share of double reviews changed' },
  'review.requested': { fr: 'Cas envoyé pour une nouvelle analyse', en: 'Case sent for another review' },
  'review.disagreement_flagged': { fr: 'Désaccord entre experts signalé', en: 'Expert disagreement flagged' },
  'review.disagreement_discussed': { fr: 'Désaccord marqué comme discuté', en: 'Disagreement marked as discussed' },
  'best_case.created': { fr: 'Best case créé', en: 'Best case created' },
  'best_case.updated': { fr: 'Best case modifié', en: 'Best case updated' },
  'best_case.published': { fr: 'Best case publié', en: 'Best case published' },
  'best_case.unpublished': { fr: 'Best case dépublié', en: 'Best case unpublished' },
  'best_case.steps_changed': { fr: 'Étapes du best case modifiées', en: 'Best case steps changed' },
  'best_case.step_notes_changed': { fr: 'Notes des étapes du best case modifiées', en: 'Best case step notes changed' },
  'best_case.deleted': { fr: 'Best case supprimé', en: 'Best case deleted' },
  'best_case.drawing_added': { fr: 'Dessin ajouté au best case', en: 'Drawing added to a best case' },
  'best_case.drawing_removed': { fr: 'Dessin retiré du best case', en: 'Drawing removed from a best case' },
  'best_case.consent_given': { fr: 'Consentement au best case donné', en: 'Best case consent given' },
  'best_case.consent_refused': { fr: 'Consentement au best case refusé', en: 'Best case consent refused' },
  'vocabulary.created': { fr: 'Terme ajouté au vocabulaire', en: 'Vocabulary term added' },
  'vocabulary.renamed': { fr: 'Terme du vocabulaire renommé', en: 'Vocabulary term renamed' },
  'vocabulary.reordered': { fr: 'Vocabulaire réordonné', en: 'Vocabulary reordered' },
  'vocabulary.retired': { fr: 'Terme du vocabulaire retiré', en: 'Vocabulary term retired' },
  'vocabulary.restored': { fr: 'Terme du vocabulaire rétabli', en: 'Vocabulary term restored' },
  'vocabulary.deleted': { fr: 'Terme du vocabulaire supprimé', en: 'Vocabulary term deleted' },
  'media.accessed': { fr: 'Média consulté', en: 'Media accessed' },
  'contact.sent': { fr: 'Message envoyé au support', en: 'Message sent to support' },
  'audit.exported': { fr: 'Journal d’audit exporté', en: 'Audit log exported' },
  'programme.created': { fr: 'Programme créé', en: 'Programme created' },
  'programme.updated': { fr: 'Programme modifié', en: 'Programme updated' },
  'programme.deleted': { fr: 'Programme supprimé', en: 'Programme deleted' },
  'programme.member_added': { fr: 'Apprenant ajouté au programme', en: 'Learner added to the programme' },
  'programme.member_removed': { fr: 'Apprenant retiré du programme', en: 'Learner removed from the programme' },
  'programme.director_added': { fr: 'Directeur du programme nommé', en: 'Programme director named' },
  'programme.director_removed': { fr: 'Directeur du programme retiré', en: 'Programme director removed' },
  'programme.cohort_viewed': { fr: 'Cohorte du programme consultée', en: 'Programme cohort viewed' },
  'programme.cohort_exported': { fr: 'Cohorte du programme exportée', en: 'Programme cohort exported' },
  'programme.learner_viewed': { fr: 'Courbes d’un apprenant consultées', en: 'Learner’s curves viewed' },
  'retention.deleted': { fr: 'Supprimé par une règle de conservation', en: 'Deleted by a retention rule' },
  'retention.rules_changed': { fr: 'Règles de conservation modifiées', en: 'Retention rules changed' },
  'retention.hold_set': { fr: 'Cas placé sous conservation légale', en: 'Case placed under legal hold' },
  'retention.hold_released': { fr: 'Conservation légale levée', en: 'Legal hold released' },
} as const satisfies Record<string, Label>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The families of actions (the part before the dot), as the audit page offers them as filters (`action==user.`). */
export const AUDIT_ACTION_GROUPS = {
  auth: { fr: 'Connexions et déconnexions', en: 'Sign-in and sign-out' },
  user: { fr: 'Comptes', en: 'Accounts' },
  video: { fr: 'Vidéos', en: 'Videos' },
  preparation: { fr: 'Préparation', en: 'Preparation' },
  analysis: { fr: 'Analyse', en: 'Analysis' },
  review: { fr: 'Double relecture', en: 'Double review' },
  best_case: { fr: 'Best cases', en: 'Best cases' },
  vocabulary: { fr: 'Vocabulaires', en: 'Vocabularies' },
  media: { fr: 'Accès aux médias', en: 'Media access' },
  contact: { fr: 'Contact', en: 'Contact' },
  audit: { fr: 'Exports du journal d’audit', en: 'Audit log exports' },
  programme: { fr: 'Programmes de formation', en: 'Training programmes' },
  retention: { fr: 'Conservation des données', en: 'Data retention' },
} as const satisfies Record<string, Label>;

export type AuditActionGroup = keyof typeof AUDIT_ACTION_GROUPS;

/** What an entry is about (the `entity` column). */
export const AUDIT_ENTITIES = {
  user: { fr: 'Compte', en: 'Account' },
  video: { fr: 'Vidéo', en: 'Video' },
  media: { fr: 'Média', en: 'Media' },
  best_case: { fr: 'Best case', en: 'Best case' },
  audit_log: { fr: 'Journal d’audit', en: 'Audit log' },
  organ: { fr: 'Organe', en: 'Organ' },
  surgery: { fr: 'Chirurgie', en: 'Surgery' },
  surgery_step: { fr: 'Étape de chirurgie', en: 'Surgery step' },
  specialty: { fr: 'Spécialité', en: 'Specialty' },
  programme: { fr: 'Programme', en: 'Programme' },
  retention: { fr: 'Règles de conservation', en: 'Retention rules' },
} as const satisfies Record<string, Label>;

export type AuditEntity = keyof typeof AUDIT_ENTITIES;

/** What an entry's subject reads as once the row it named was deleted (the entry keeps its id). */
export const AUDIT_SUBJECT_GONE = {
  user: { fr: 'Compte supprimé', en: 'Deleted account' },
  video: { fr: 'Cas supprimé', en: 'Deleted case' },
  media: { fr: 'Fichier supprimé', en: 'Deleted file' },
  best_case: { fr: 'Best case supprimé', en: 'Deleted best case' },
  organ: { fr: 'Organe supprimé', en: 'Deleted organ' },
  surgery: { fr: 'Chirurgie supprimée', en: 'Deleted surgery' },
  surgery_step: { fr: 'Étape de chirurgie supprimée', en: 'Deleted surgery step' },
  specialty: { fr: 'Spécialité supprimée', en: 'Deleted specialty' },
  programme: { fr: 'Programme supprimé', en: 'Deleted programme' },
} as const satisfies Partial<Record<AuditEntity, Label>>;

/** The words of a subject's label that are not names: a case without a surgery, the kind of a case's file. */
export const AUDIT_SUBJECT_WORDS = {
  caseWithoutSurgery: { fr: 'Cas sans chirurgie', en: 'Case without a surgery' },
  file: { fr: 'Fichier', en: 'File' },
  'media.video': { fr: 'Vidéo d’origine', en: 'Original video' },
  'media.prepared-video': { fr: 'Vidéo préparée', en: 'Prepared video' },
  'media.voice': { fr: 'Note vocale', en: 'Voice note' },
} as const satisfies Record<string, Label>;

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}

/** The actions of one family, in the order of AUDIT_ACTIONS. */
export function auditActionsOf(group: AuditActionGroup): AuditAction[] {
  return (Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter((a) => a.startsWith(`${group}.`));
}

/**
 * The readable label of a stored action in a language. A row written before an action was renamed
 * keeps its identifier, which is then all there is to show.
 */
export function auditActionLabel(action: string, lang: Language): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action][lang] : action;
}

export function auditEntityLabel(entity: string, lang: Language): string {
  return Object.hasOwn(AUDIT_ENTITIES, entity) ? AUDIT_ENTITIES[entity as AuditEntity][lang] : entity;
}
