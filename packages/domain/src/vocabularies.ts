import { z } from 'zod';

export const ORGAN_ICONS = ['bladder', 'kidney', 'lymphadenectomy', 'prostate', 'adrenalGland', 'ureter'] as const;
export type OrganIcon = (typeof ORGAN_ICONS)[number];

export const localizedName = z.object({ fr: z.string(), en: z.string() });

export const specialtySchema = z.object({ id: z.string(), code: z.string(), name: z.string() });
export const organSchema = z.object({ id: z.string(), code: z.string(), name: z.string(), icon: z.enum(ORGAN_ICONS) });
export const surgeryStepSchema = z.object({ id: z.string(), code: z.string(), name: z.string(), position: z.number() });
export const surgerySchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  organId: z.string().nullable(),
  steps: z.array(surgeryStepSchema),
});
export const VOCABULARY_KINDS = ['specialties', 'organs', 'surgeries'] as const;
