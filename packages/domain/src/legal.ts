/**
 * The settings the legal texts quote (docs/configuration.md). LEGAL_LAST_UPDATED is not among
 * them: the texts carry their own date until an operator who amends them sets it.
 */
export const LEGAL_SETTINGS = [
  'LEGAL_OPERATOR_NAME',
  'LEGAL_OPERATOR_LEGAL_FORM',
  'LEGAL_OPERATOR_ADDRESS',
  'LEGAL_OPERATOR_REGISTRATION',
  'LEGAL_OPERATOR_PHONE',
  'LEGAL_OPERATOR_EMAIL',
  'LEGAL_PUBLICATION_DIRECTOR',
  'LEGAL_DPO_CONTACT',
  'LEGAL_HOST_NAME',
  'LEGAL_HOST_ADDRESS',
  'LEGAL_HOST_CERTIFICATION',
  'LEGAL_HOST_LOCATION',
] as const;
export type LegalSetting = (typeof LEGAL_SETTINGS)[number];

/** The field of the legal texts a setting fills: LEGAL_OPERATOR_NAME → operatorName. */
export function legalFieldOf(setting: string): string {
  return setting
    .slice('LEGAL_'.length)
    .toLowerCase()
    .replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The settings left unset, given the details the server has (by field). */
export function missingLegalSettings(details: Record<string, string>): LegalSetting[] {
  return LEGAL_SETTINGS.filter((setting) => !details[legalFieldOf(setting)]?.trim());
}
