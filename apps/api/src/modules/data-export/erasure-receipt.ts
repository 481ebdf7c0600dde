import { and, count, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { ErasureReceipt } from '@sutura/domain/data-export';
import type { Language } from '@sutura/domain/i18n';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  analyses,
  auditLog,
  bestCases,
  dataExports,
  media,
  notifications,
  selfAssessments,
  sessions,
  ssoIdentities,
  videoShares,
  videos,
} from '../../db/schema.ts';

const LABELS: Record<ErasureReceipt['erased'][number]['item'] | ErasureReceipt['kept'][number]['item'], { fr: string; en: string }> = {
  profile: { fr: 'Profil (identité, carrière, préférences, photo)', en: 'Profile (identity, career, preferences, picture)' },
  cases: { fr: 'Cas', en: 'Cases' },
  files: { fr: 'Fichiers (vidéos, photos, conseils vocaux, copies de données)', en: 'Files (videos, pictures, voice advice, data copies)' },
  analysesReceived: { fr: 'Analyses reçues sur vos cas', en: 'Analyses received on your cases' },
  selfAssessments: { fr: 'Auto-évaluations', en: 'Self-assessments' },
  notifications: { fr: 'Notifications', en: 'Notifications' },
  sessions: { fr: 'Sessions et appareils connus', en: 'Sessions and known devices' },
  linkedIdentities: { fr: 'Identités externes liées', en: 'Linked external identities' },
  shares: { fr: 'Partages donnés et reçus', en: 'Shares given and received' },
  dataExports: { fr: 'Copies de vos données', en: 'Copies of your data' },
  auditRows: {
    fr: 'Lignes du journal d’audit : gardées pour leur durée légale, anonymisées (ni adresse IP ni détail, seulement l’action et sa date)',
    en: 'Audit log rows: kept for their legal period, anonymised (no IP address nor detail, only the action and its date)',
  },
  analysesWritten: {
    fr: 'Analyses que vous avez rédigées en tant qu’expert : gardées pour les apprenants qui les ont reçues, sans lien avec vous',
    en: 'Analyses you wrote as an expert: kept for the learners who received them, no longer linked to you',
  },
  bestCases: {
    fr: 'Meilleurs cas publiés avec votre consentement : gardés sous ce consentement, sans votre identité',
    en: 'Best cases published with your consent: kept under that consent, without your identity',
  },
};

/** The receipt as text, in the person's language: the document the mail carries and the page offers. */
export function receiptText(receipt: ErasureReceipt, lang: Language): string {
  const fr = lang === 'fr';
  const lines = [
    fr ? 'Reçu de suppression de compte — Sutura' : 'Account deletion receipt — Sutura',
    `${fr ? 'Référence' : 'Reference'}: ${receipt.receiptId}`,
    `${fr ? 'Date (UTC)' : 'Date (UTC)'}: ${receipt.deletedAt}`,
    '',
    fr ? 'Supprimé :' : 'Deleted:',
    ...receipt.erased.map((e) => `- ${LABELS[e.item][lang]}: ${e.count}`),
    '',
    fr ? 'Conservé, et pourquoi :' : 'Kept, and why:',
    ...receipt.kept.map((k) => `- ${LABELS[k.item][lang]}: ${k.count}`),
  ];
  return `${lines.join('\n')}\n`;
}

export interface ErasureCounts {
  erased: ErasureReceipt['erased'];
  written: number;
  publishedBestCases: string[];
}

/**
 * Counts what an account deletion erases (before) and what survives it (after), for the receipt
 * the person receives. Only counts: the receipt itself holds nothing of the person.
 */
export function createErasureReceipts(db: Db, clock: () => Date) {
  const n = async (table: Parameters<ReturnType<Db['select']>['from']>[0], where: SQL | undefined): Promise<number> => {
    const [row] = await db.select({ n: count() }).from(table).where(where);
    return row?.n ?? 0;
  };
  return {
    async before(userId: string): Promise<ErasureCounts> {
      const caseIds = (await db.select({ id: videos.id }).from(videos).where(eq(videos.authorId, userId))).map((r) => r.id);
      const ofCases = (t: { videoId: AnyPgColumn }) => (caseIds.length ? inArray(t.videoId, caseIds) : sql`false`);
      const publishedBestCases = caseIds.length
        ? (
            await db
              .select({ id: bestCases.id })
              .from(bestCases)
              .where(and(inArray(bestCases.videoId, caseIds), eq(bestCases.published, true)))
          ).map((r) => r.id)
        : [];
      const erased: ErasureReceipt['erased'] = [
        { item: 'profile', count: 1 },
        { item: 'cases', count: caseIds.length },
        { item: 'files', count: await n(media, or(eq(media.ownerId, userId), ofCases(media))) },
        { item: 'analysesReceived', count: await n(analyses, ofCases(analyses)) },
        { item: 'selfAssessments', count: await n(selfAssessments, eq(selfAssessments.authorId, userId)) },
        { item: 'notifications', count: await n(notifications, eq(notifications.userId, userId)) },
        { item: 'sessions', count: await n(sessions, eq(sessions.userId, userId)) },
        { item: 'linkedIdentities', count: await n(ssoIdentities, eq(ssoIdentities.userId, userId)) },
        { item: 'shares', count: await n(videoShares, or(eq(videoShares.userId, userId), ofCases(videoShares))) },
        { item: 'dataExports', count: await n(dataExports, eq(dataExports.userId, userId)) },
      ];
      // Submitted ones stay with their learners; a draft goes back to the pool with the claim.
      const written = await n(analyses, and(eq(analyses.expertId, userId), isNotNull(analyses.submittedAt)));
      return { erased, written, publishedBestCases };
    },

    /** Once the deletion is done: what is left, counted again (a best case the deletion took is not listed as kept). */
    async after(userId: string, before: ErasureCounts, receiptId: string): Promise<ErasureReceipt> {
      const keptBestCases = before.publishedBestCases.length ? await n(bestCases, inArray(bestCases.id, before.publishedBestCases)) : 0;
      const erased = before.erased;
      return {
        receiptId,
        deletedAt: clock().toISOString(),
        erased: keptBestCases ? erased.map((e) => (e.item === 'cases' ? { ...e, count: e.count - keptBestCases } : e)) : erased,
        kept: [
          { item: 'auditRows', count: await n(auditLog, or(eq(auditLog.actorId, userId), eq(auditLog.entityId, userId))) },
          { item: 'analysesWritten', count: before.written },
          { item: 'bestCases', count: keptBestCases },
        ],
      };
    },
  };
}
export type ErasureReceipts = ReturnType<typeof createErasureReceipts>;
