import { eq, sql } from 'drizzle-orm';
import { namesMatch } from '@sutura/domain/rpps';
import { isLuhnValid, RPPS_PATTERN } from '@sutura/domain/rules';
import type { Db } from '../../db/client.ts';
import { rppsDirectory, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

export interface RppsPersonRow {
  rpps: string;
  lastName: string;
  firstName: string;
  profession: string | null;
  specialty: string | null;
}

export function createRppsService(db: Db) {
  return {
    /**
     * The four RPPS rules of sign-up: 11 Luhn-valid digits, present in the directory, the
     * names match (ignoring case, accents and hyphens), and no account holds it yet.
     */
    async check(rpps: string, lastName: string, firstName: string): Promise<RppsPersonRow> {
      if (!RPPS_PATTERN.test(rpps)) throw new AppError('RPPS_FORMAT');
      if (!isLuhnValid(rpps)) throw new AppError('RPPS_CHECK_DIGIT');
      const [person] = await db.select().from(rppsDirectory).where(eq(rppsDirectory.rpps, rpps));
      if (!person) throw new AppError('RPPS_NOT_FOUND');
      if (!namesMatch(person.lastName, lastName) || !namesMatch(person.firstName, firstName)) throw new AppError('RPPS_NAME_MISMATCH');
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.rpps, rpps));
      if (taken) throw new AppError('RPPS_TAKEN');
      return {
        rpps: person.rpps,
        lastName: person.lastName,
        firstName: person.firstName,
        profession: person.profession,
        specialty: person.specialty,
      };
    },

    /** Upserts a batch of the directory extract (a person appears on several rows of it). */
    async upsertBatch(rows: RppsPersonRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(rppsDirectory)
        .values(rows)
        .onConflictDoUpdate({
          target: rppsDirectory.rpps,
          set: {
            lastName: sql`excluded.last_name`,
            firstName: sql`excluded.first_name`,
            profession: sql`excluded.profession`,
            specialty: sql`coalesce(excluded.specialty, ${rppsDirectory.specialty})`,
            importedAt: sql`now()`,
          },
        });
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(rppsDirectory);
      return row?.n ?? 0;
    },
  };
}
export type RppsService = ReturnType<typeof createRppsService>;
