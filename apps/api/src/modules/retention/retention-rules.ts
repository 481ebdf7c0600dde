import { inArray } from 'drizzle-orm';
import type { RetentionRules } from '@sutura/domain/retention';
import type { Db } from '../../db/client.ts';
import { retentionRules } from '../../db/schema.ts';

/** What the environment gives (docs/configuration.md) before an administrator sets a rule. */
export interface RetentionDefaults {
  sourceDays: number;
  /** Hours, as UPLOAD_EXPIRY_HOURS has always counted them. */
  uploadExpiryHours: number;
  analysedYears: number | null;
}

/** The rows of `retention_rules`, by rule name. */
const ROW_OF = { sourceDays: 'source', uploadDays: 'uploads', analysedYears: 'analysed' } as const;

/**
 * The rules in force: an administrator's, else the environment's. Read at each run (a change in
 * the administration applies to the next run, in every process).
 */
export function createRetentionRules(deps: { db: Db; defaults: RetentionDefaults }) {
  const { db, defaults } = deps;
  const defaultRules: RetentionRules = {
    sourceDays: defaults.sourceDays,
    uploadDays: Math.max(1, Math.ceil(defaults.uploadExpiryHours / 24)),
    analysedYears: defaults.analysedYears,
  };

  async function rows() {
    const found = await db
      .select()
      .from(retentionRules)
      .where(inArray(retentionRules.rule, Object.values(ROW_OF)));
    return new Map(found.map((r) => [r.rule, r]));
  }

  return {
    defaults: defaultRules,
    async get(): Promise<RetentionRules> {
      const set = await rows();
      const sourceDays = set.get(ROW_OF.sourceDays)?.days;
      const uploadDays = set.get(ROW_OF.uploadDays)?.days;
      const analysed = set.get(ROW_OF.analysedYears);
      return {
        sourceDays: sourceDays ?? defaultRules.sourceDays,
        uploadDays: uploadDays ?? defaultRules.uploadDays,
        analysedYears: analysed ? analysed.days : defaultRules.analysedYears,
      };
    },
    /** How long an idle upload is kept: the administrator's days, else UPLOAD_EXPIRY_HOURS. */
    async uploadExpiryHours(): Promise<number> {
      const days = (await rows()).get(ROW_OF.uploadDays)?.days;
      return days ? days * 24 : defaults.uploadExpiryHours;
    },
    async set(rules: RetentionRules, actorId: string, now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        for (const [field, rule] of Object.entries(ROW_OF) as [keyof RetentionRules, string][]) {
          await tx
            .insert(retentionRules)
            .values({ rule, days: rules[field], updatedById: actorId, updatedAt: now })
            .onConflictDoUpdate({ target: retentionRules.rule, set: { days: rules[field], updatedById: actorId, updatedAt: now } });
        }
      });
    },
  };
}
export type RetentionRulesStore = ReturnType<typeof createRetentionRules>;
