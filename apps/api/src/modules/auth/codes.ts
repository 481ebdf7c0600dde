import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES } from '@sutura/domain/limits';
import type { Db } from '../../db/client.ts';
import { verificationCodes } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

export type CodePurpose = 'verify' | 'reset';

/** Mailed 5-digit codes: stored hashed, valid 15 minutes, locked after 5 wrong tries. */
export function createCodes(db: Db, secret: string, clock: () => Date) {
  const hash = (userId: string, purpose: CodePurpose, code: string) =>
    createHmac('sha256', secret).update(`${userId}:${purpose}:${code}`).digest('hex');

  return {
    async issue(userId: string, purpose: CodePurpose): Promise<string> {
      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      const now = clock();
      // A new code replaces any earlier one of the same purpose.
      await db
        .update(verificationCodes)
        .set({ consumedAt: now })
        .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)));
      await db.insert(verificationCodes).values({
        userId,
        purpose,
        codeHash: hash(userId, purpose, code),
        expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
      });
      return code;
    },

    /** Checks a code; counts a wrong try; consumes it when asked. */
    async check(userId: string, purpose: CodePurpose, code: string, consume: boolean): Promise<void> {
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      if (!row) throw new AppError('CODE_INVALID');
      if (row.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('CODE_LOCKED');
      if (row.expiresAt.getTime() <= clock().getTime()) throw new AppError('CODE_EXPIRED');
      const expected = Buffer.from(row.codeHash, 'hex');
      const given = Buffer.from(hash(userId, purpose, code), 'hex');
      if (!timingSafeEqual(expected, given)) {
        const attempts = row.attempts + 1;
        await db.update(verificationCodes).set({ attempts }).where(eq(verificationCodes.id, row.id));
        throw new AppError(attempts >= CODE_MAX_ATTEMPTS ? 'CODE_LOCKED' : 'CODE_INVALID');
      }
      if (consume) await db.update(verificationCodes).set({ consumedAt: clock() }).where(eq(verificationCodes.id, row.id));
    },
  };
}
export type Codes = ReturnType<typeof createCodes>;
