import { z } from 'zod';
import { textField } from './rules.ts';
import { ORGAN_ICONS } from './vocabularies.ts';
import { MEDIA_STATUSES, VIDEO_STATUSES } from './videos.ts';

/**
 * The administrators' catalogue (docs/admin-catalog.md): the vocabularies of the pickers and every
 * case of every learner. Administrators write; copil reads.
 */

/** The longest name of a vocabulary term, in either language (the seed's longest step is ~110). */
export const VOCABULARY_NAME_MAX = 200;
/** The most terms one reorder may carry (a list is a few dozen; steps of a surgery at most ~20). */
export const VOCABULARY_ORDER_MAX = 500;

/** The four lists an administrator edits; `steps` belong to a surgery. */
export const VOCABULARY_KINDS = ['organs', 'surgeries', 'steps', 'specialties'] as const;
export type VocabularyKind = (typeof VOCABULARY_KINDS)[number];

const names = { nameFr: textField(VOCABULARY_NAME_MAX), nameEn: textField(VOCABULARY_NAME_MAX) };
const uuid = () => z.uuid({ error: 'INVALID_VALUE' });

export const organBody = z.object({ ...names, icon: z.enum(ORGAN_ICONS, { error: 'INVALID_VALUE' }) }).strict();
export const surgeryBody = z.object({ ...names, organId: uuid().nullable().default(null) }).strict();
export const stepBody = z.object(names).strict();
export const specialtyBody = z.object(names).strict();
export type OrganBody = z.infer<typeof organBody>;
export type SurgeryBody = z.infer<typeof surgeryBody>;
export type NamesBody = z.infer<typeof stepBody>;

/** The whole list in its new order: refused (VOCABULARY_ORDER_STALE) unless it names exactly the current terms. */
export const reorderBody = z
  .object({
    ids: z
      .array(uuid(), { error: 'FIELD_REQUIRED' })
      .min(1, { error: 'FIELD_REQUIRED' })
      .max(VOCABULARY_ORDER_MAX, { error: 'INVALID_VALUE' }),
  })
  .strict();
export type ReorderBody = z.infer<typeof reorderBody>;

const term = {
  id: z.string(),
  code: z.string(),
  nameFr: z.string(),
  nameEn: z.string(),
  position: z.number(),
  /** ISO date; a retired term is no longer offered in the pickers but keeps naming what uses it. */
  retiredAt: z.string().nullable(),
  /** Something refers to it (a case, a person, a step of a rendered video, a surgery): it cannot be deleted. */
  inUse: z.boolean(),
};
export const adminOrganSchema = z.object({ ...term, icon: z.enum(ORGAN_ICONS) });
export const adminStepSchema = z.object(term);
export const adminSurgerySchema = z.object({ ...term, organId: z.string().nullable(), steps: z.array(adminStepSchema) });
export const adminSpecialtySchema = z.object(term);
export const adminVocabulariesSchema = z.object({
  organs: z.array(adminOrganSchema),
  surgeries: z.array(adminSurgerySchema),
  specialties: z.array(adminSpecialtySchema),
});
export type AdminOrgan = z.infer<typeof adminOrganSchema>;
export type AdminStep = z.infer<typeof adminStepSchema>;
export type AdminSurgery = z.infer<typeof adminSurgerySchema>;
export type AdminSpecialty = z.infer<typeof adminSpecialtySchema>;
export type AdminVocabularies = z.infer<typeof adminVocabulariesSchema>;

// ---- Surgery videos

/** `filter` keys of GET /admin/surgery-videos; `search` looks in the author's name and the surgery's. */
export const ADMIN_VIDEO_FILTERS = ['status', 'mediaStatus', 'search'] as const;
export const ADMIN_VIDEO_SORTS = ['createdAt'] as const;
export const ADMIN_VIDEO_SEARCH_MAX = 100;

export const adminVideoSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(VIDEO_STATUSES),
  mediaStatus: z.enum(MEDIA_STATUSES),
  createdAt: z.string(),
  author: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }),
  surgery: z.object({ id: z.string(), name: z.string() }).nullable(),
  organ: z.object({ id: z.string(), name: z.string(), icon: z.string() }).nullable(),
  /** Who holds the case (an editor preparing it, an expert analysing it) and until when. */
  claim: z
    .object({
      holder: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
      leaseEndsAt: z.string(),
    })
    .nullable(),
  /** The legal hold on the case (no retention rule deletes it until it is released): its reason and since when. */
  legalHold: z.object({ reason: z.string(), heldAt: z.string() }).nullable(),
});
export type AdminVideo = z.infer<typeof adminVideoSchema>;

export const adminVideoListSchema = z.object({
  data: z.array(adminVideoSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type AdminVideoList = z.infer<typeof adminVideoListSchema>;
