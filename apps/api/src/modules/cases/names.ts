import { eq } from 'drizzle-orm';
import type { Language } from '@sutura/domain/i18n';
import type { Db } from '../../db/client.ts';
import { surgeries } from '../../db/schema.ts';

/** A vocabulary row named in both languages (surgery, organ, surgery step, specialty). */
export type Named = { nameFr: string; nameEn: string };

/** The one place a vocabulary name is read in the reader's language. */
export const localName = (row: Named, lang: Language): string => (lang === 'fr' ? row.nameFr : row.nameEn);

/** Both names of a surgery, for a notification written in its recipient's language; a generic word when it has none. */
export const bothNames = (row: Named | null | undefined): { fr: string; en: string } =>
  row ? { fr: row.nameFr, en: row.nameEn } : { fr: 'chirurgie', en: 'surgery' };

/** Both names of the case's surgery (see `bothNames`). */
export async function surgeryNamesOf(db: Db, surgeryId: string | null): Promise<{ fr: string; en: string }> {
  if (!surgeryId) return bothNames(null);
  const [row] = await db.select({ nameFr: surgeries.nameFr, nameEn: surgeries.nameEn }).from(surgeries).where(eq(surgeries.id, surgeryId));
  return bothNames(row);
}
