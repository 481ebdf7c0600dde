import { z } from 'zod';

/** SPEC §3's six icons, then the colon and the gallbladder of the seeded digestive surgeries. */
export const ORGAN_ICONS = ['bladder', 'kidney', 'lymphadenectomy', 'prostate', 'adrenalGland', 'ureter', 'colon', 'gallbladder'] as const;
export type OrganIcon = (typeof ORGAN_ICONS)[number];

export const localizedName = z.object({ fr: z.string(), en: z.string() });

/**
 * A term of the public lists (GET /vocabularies/{specialties,organs,surgeries}). `retired`: an
 * administrator retired it (docs/admin-catalog.md); a retired term is listed only with
 * `filter=includeRetired==true`.
 */
const term = { id: z.string(), code: z.string(), name: z.string(), retired: z.boolean() };
export const specialtySchema = z.object(term);
export const organSchema = z.object({ ...term, icon: z.enum(ORGAN_ICONS) });
export const surgeryStepSchema = z.object({ ...term, position: z.number() });
export const surgerySchema = z.object({
  ...term,
  organId: z.string().nullable(),
  steps: z.array(surgeryStepSchema),
});

/**
 * `filter` keys of the public lists. Without `includeRetired==true` they are the pickers of a new
 * choice (retired terms left out); with it, every term, for list filters and for a saved choice.
 */
export const VOCABULARY_LIST_FILTERS = ['includeRetired'] as const;
export const vocabularyListFilter = z
  .object({ includeRetired: z.enum(['true', 'false'], { error: 'INVALID_VALUE' }).optional() })
  .strict()
  .transform((f) => ({ includeRetired: f.includeRetired === 'true' }));
export type VocabularyListFilter = z.output<typeof vocabularyListFilter>;
export const VOCABULARY_KINDS = ['specialties', 'organs', 'surgeries'] as const;
