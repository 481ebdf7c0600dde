import { z } from 'zod';
import { textField } from './rules.ts';

/**
 * The retention rules (docs/data-lifecycle.md): how long each kind of data is kept. A rule names
 * what it deletes; nothing else is ever deleted by the retention job.
 */
export const RETENTION_RULES = ['source', 'uploads', 'analysed'] as const;
export type RetentionRule = (typeof RETENTION_RULES)[number];

const days = (max: number) =>
  z
    .number({ error: 'FIELD_REQUIRED' })
    .int({ error: 'INVALID_VALUE' })
    .min(1, { error: 'INVALID_VALUE' })
    .max(max, { error: 'INVALID_VALUE' });

export const retentionRulesSchema = z.object({
  /** Days a case's source file is kept after its video was rendered. */
  sourceDays: days(3650),
  /** Days an abandoned (idle) or failed upload is kept. */
  uploadDays: days(365),
  /** Years an analysed case is kept; null: kept as long as its author's account. */
  analysedYears: days(100).nullable(),
});
export type RetentionRules = z.infer<typeof retentionRulesSchema>;
export const retentionRulesBody = retentionRulesSchema.strict();

export const LEGAL_HOLD_REASON_MAX = 500;
export const legalHoldBody = z.object({ reason: textField(LEGAL_HOLD_REASON_MAX) }).strict();

/** One deletion the next run would make (the dry run), or made (the audit row's details). */
export const retentionCandidateSchema = z.object({
  rule: z.enum(RETENTION_RULES),
  videoId: z.string(),
  /** The storage keys the deletion removes (a whole case: its prefix). */
  keys: z.array(z.string()),
  bytes: z.number(),
  /** When the rule's clock started for it (rendered, last upload activity, analysed). */
  since: z.string(),
});
export type RetentionCandidate = z.infer<typeof retentionCandidateSchema>;

export const retentionPreviewSchema = z.object({
  candidates: z.array(retentionCandidateSchema),
  /** All the candidates, when more than the list shows. */
  total: z.number(),
  bytes: z.number(),
  byRule: z.array(z.object({ rule: z.enum(RETENTION_RULES), count: z.number(), bytes: z.number() })),
});
export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;

export const legalHoldSchema = z.object({
  videoId: z.string(),
  reason: z.string(),
  heldAt: z.string(),
  heldBy: z.string().nullable(),
  surgery: z.string().nullable(),
  author: z.string(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

export const retentionViewSchema = z.object({
  rules: retentionRulesSchema,
  /** What the environment gives when no administrator has set a rule. */
  defaults: retentionRulesSchema,
  holds: z.array(legalHoldSchema),
  lastRun: z.object({ at: z.string(), deleted: z.number(), bytes: z.number() }).nullable(),
});
export type RetentionView = z.infer<typeof retentionViewSchema>;

export const retentionRunSchema = z.object({ deleted: z.number(), bytes: z.number() });

/** What the storage holds (the accounting of storage_objects). */
export const STORAGE_KINDS = ['sources', 'rendered', 'renditions', 'pictures', 'voice', 'avatars', 'exports', 'uploads', 'other'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

export const storageReportSchema = z.object({
  totalBytes: z.number(),
  objects: z.number(),
  byKind: z.array(z.object({ kind: z.enum(STORAGE_KINDS), bytes: z.number(), objects: z.number() })),
  bySurgery: z.array(z.object({ surgeryId: z.string().nullable(), surgery: z.string().nullable(), bytes: z.number() })),
  /** The last 12 months, oldest first: bytes written in the month still held, and the total at its end. */
  months: z.array(z.object({ month: z.string(), added: z.number(), total: z.number() })),
  /** The next 12 months at the mean growth of the last 12. */
  projection: z.array(z.object({ month: z.string(), total: z.number() })),
});
export type StorageReport = z.infer<typeof storageReportSchema>;
