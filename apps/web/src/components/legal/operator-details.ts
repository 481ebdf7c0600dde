import { APP_VERSION } from '@sutura/domain/limits';

/**
 * The facts about the organisation running this installation that the legal texts quote.
 * Each installation sets them on the server (`LEGAL_OPERATOR_NAME=...`, served by
 * GET /v1/legal/operator); a field left unset is shown as a marked blank, so a missing detail is
 * visible rather than invented.
 */
export const OPERATOR_FIELDS = [
  'operatorName',
  'operatorLegalForm',
  'operatorAddress',
  'operatorRegistration',
  'operatorPhone',
  'operatorEmail',
  'publicationDirector',
  'dpoContact',
  'hostName',
  'hostAddress',
  'hostCertification',
  'hostLocation',
  'lastUpdated',
  'appVersion',
] as const;
export type OperatorField = (typeof OPERATOR_FIELDS)[number];

/** The date these texts were written; an operator who amends them sets LEGAL_LAST_UPDATED. */
export const LEGAL_TEXTS_DATE = '2026-11-22';

export function isOperatorField(value: string): value is OperatorField {
  return (OPERATOR_FIELDS as readonly string[]).includes(value);
}

function formatDate(iso: string, lang: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

export function operatorDetails(lang: string, fromServer: Record<string, string> | undefined): Partial<Record<OperatorField, string>> {
  const details: Partial<Record<OperatorField, string>> = {};
  for (const field of OPERATOR_FIELDS) {
    const value = fromServer?.[field];
    if (typeof value === 'string' && value.trim()) details[field] = value.trim();
  }
  details.appVersion = APP_VERSION;
  const updated = details.lastUpdated ?? LEGAL_TEXTS_DATE;
  details.lastUpdated = /^\d{4}-\d{2}-\d{2}$/.test(updated) ? formatDate(updated, lang) : updated;
  return details;
}
