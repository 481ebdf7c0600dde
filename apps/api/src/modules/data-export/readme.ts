import type { Language } from '@sutura/domain/i18n';

/** The files of an export, each explained in the README in the person's language. */
const FILES: { name: string; fr: string; en: string }[] = [
  {
    name: 'profile.json',
    fr: 'Votre profil tel que l’application le montre : identité, carrière, préférences, réglages des notifications (réponse de GET /v1/users/profile/me).',
    en: 'Your profile as the app shows it: identity, career, preferences, notification settings (the answer of GET /v1/users/profile/me).',
  },
  {
    name: 'cases.json',
    fr: 'Chacun de vos cas avec tous ses champs : chirurgie, date, étapes, découpe, état du parcours (réponse de GET /v1/videos/{id}).',
    en: 'Each of your cases with every field: surgery, date, steps, trim, workflow state (the answer of GET /v1/videos/{id}).',
  },
  {
    name: 'analyses-received.json',
    fr: 'Les analyses et commentaires reçus sur vos cas, une fois le résultat publié (réponse de GET /v1/videos/{id}/analysis).',
    en: 'The analyses and comments received on your cases, once the result is released (the answer of GET /v1/videos/{id}/analysis).',
  },
  {
    name: 'self-assessments.json',
    fr: 'Vos auto-évaluations, cas par cas (réponse de GET /v1/videos/{id}/self-assessment).',
    en: 'Your self-assessments, case by case (the answer of GET /v1/videos/{id}/self-assessment).',
  },
  {
    name: 'nasa-tlx.json',
    fr: 'Vos scores NASA-TLX (charge de travail ressentie) et leur évolution (réponse de GET /v1/stats/me/nasa-tlx).',
    en: 'Your NASA-TLX scores (perceived workload) and how they moved (the answer of GET /v1/stats/me/nasa-tlx).',
  },
  {
    name: 'statistics.json',
    fr: 'Vos statistiques : notes par domaine, temps par étape, auto-évaluation face à l’expert (réponses de GET /v1/stats/me…).',
    en: 'Your statistics: ratings by domain, time per step, self-assessment against the expert (the answers of GET /v1/stats/me…).',
  },
  {
    name: 'notifications.json',
    fr: 'Les notifications que vous avez reçues et gardées (réponse de GET /v1/notification/list).',
    en: 'The notifications you received and kept (the answer of GET /v1/notification/list).',
  },
  {
    name: 'consents.json',
    fr: 'Vos consentements : acceptation des conditions et de la politique de confidentialité, consentements de publication en meilleur cas.',
    en: 'Your consents: acceptance of the terms and privacy policy, consents to publication as a best case.',
  },
  {
    name: 'sign-in-history.json',
    fr: 'L’historique de vos connexions : sessions (appareil, adresse IP, dates), appareils connus, connexions et refus enregistrés au journal.',
    en: 'Your sign-in history: sessions (device, IP address, dates), known devices, sign-ins and refusals recorded in the log.',
  },
  {
    name: 'linked-identities.json',
    fr: 'Les identités externes liées à votre compte (Pro Santé Connect, fournisseur de votre établissement).',
    en: 'The external identities linked to your account (Pro Santé Connect, your hospital’s provider).',
  },
  {
    name: 'analyses-written.json',
    fr: 'Pour un expert : les analyses que vous avez rédigées, sans l’identité des apprenants (cas, chirurgie, notes, commentaires).',
    en: 'For an expert: the analyses you wrote, without the learners’ identities (case, surgery, ratings, comments).',
  },
  {
    name: 'missing-files.json',
    fr: 'Les fichiers que vos données nomment mais que le stockage n’a plus : signalez-le au support.',
    en: 'The files your data names but the storage no longer holds: tell support.',
  },
  {
    name: 'files/',
    fr: 'Vos fichiers, un dossier par cas : vidéo d’origine (source), vidéo montée (prepared-video), photos, conseils vocaux (voice), rapports PDF (report.pdf) ; votre photo de profil ; pour un expert, les conseils vocaux que vous avez enregistrés (analyses-written).',
    en: 'Your files, one folder per case: original video (source), rendered video (prepared-video), pictures, voice advice (voice), PDF reports (report.pdf); your profile picture; for an expert, the voice advice you recorded (analyses-written).',
  },
];

/** The README at the root of an export, in the person's language. */
export function exportReadme(lang: Language, opts: { name: string; createdAt: Date; files: string[] }): string {
  const fr = lang === 'fr';
  const present = new Set(opts.files.map((f) => (f.startsWith('files/') ? 'files/' : f)));
  const lines = fr
    ? [
        `Copie des données de ${opts.name} sur Sutura`,
        `Faite le ${opts.createdAt.toISOString()} (UTC), à votre demande (RGPD, articles 15 et 20).`,
        '',
        'Les fichiers JSON reprennent champ par champ ce que l’application vous montre ; les dates sont en UTC (ISO 8601).',
        'Les adresses de fichiers (champs « url ») sont remplacées par le chemin du fichier dans cette archive, ou par null pour un fichier qui n’y est pas (vignettes, planches d’aperçu, que le serveur refait à partir des vidéos).',
        '',
        'Contenu :',
      ]
    : [
        `Copy of the data of ${opts.name} on Sutura`,
        `Made on ${opts.createdAt.toISOString()} (UTC), at your request (GDPR, articles 15 and 20).`,
        '',
        'The JSON files hold, field by field, what the app shows you; dates are in UTC (ISO 8601).',
        'File addresses (“url” fields) are replaced by the path of the file in this archive, or by null for a file that is not in it (thumbnails and preview sheets, which the server makes again from the videos).',
        '',
        'Contents:',
      ];
  for (const file of FILES) if (present.has(file.name)) lines.push(`- ${file.name}: ${fr ? file.fr : file.en}`);
  lines.push(
    '',
    fr
      ? 'Pour toute question sur vos données, écrivez au délégué à la protection des données de votre établissement ou au support de Sutura.'
      : 'For any question about your data, write to your hospital’s data protection officer or to Sutura’s support.',
  );
  return `${lines.join('\n')}\n`;
}
