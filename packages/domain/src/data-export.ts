import { z } from 'zod';

/** How long a person's copy of their data stays downloadable once made. */
export const DATA_EXPORT_VALID_DAYS = 7;

export const dataExportStatusSchema = z.enum(['queued', 'running', 'ready', 'failed', 'expired']);
export type DataExportStatus = z.infer<typeof dataExportStatusSchema>;

/** GET/POST /users/me/export: the person's latest copy of their data and how far it is. */
export const dataExportSchema = z.object({
  id: z.uuid(),
  status: dataExportStatusSchema,
  filesDone: z.number().int(),
  filesTotal: z.number().int(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  size: z.number().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** A short-lived URL of the ZIP for this person, while it is ready. */
  downloadUrl: z.string().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

/** What an account deletion erased, each with a count. */
export const ERASED_ITEMS = [
  'profile',
  'cases',
  'files',
  'analysesReceived',
  'selfAssessments',
  'notifications',
  'sessions',
  'linkedIdentities',
  'shares',
  'dataExports',
] as const;
/** What an account deletion keeps, and the reason that goes with each. */
export const KEPT_ITEMS = ['auditRows', 'analysesWritten', 'bestCases'] as const;

/** POST /users/me/delete answers with this receipt; the page shows it and offers it as a file. */
export const erasureReceiptSchema = z.object({
  receiptId: z.uuid(),
  deletedAt: z.string(),
  erased: z.array(z.object({ item: z.enum(ERASED_ITEMS), count: z.number().int() })),
  kept: z.array(z.object({ item: z.enum(KEPT_ITEMS), count: z.number().int() })),
});
export type ErasureReceipt = z.infer<typeof erasureReceiptSchema>;
