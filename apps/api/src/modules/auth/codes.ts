import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql, sum } from 'drizzle-orm';
import { CODE_DAILY_GUESS_BUDGET, CODE_LENGTH, CODE_MAX_ATTEMPTS, CODE_TTL_MINUTES, CODE_WAIT_GROWTH } from '@sutura/domain/limits';
import type { Db } from '../../db/client.ts';
import { verificationCodes } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

export type CodePurpose = 'verify' | 'reset' | 'link';

const DAY_MS = 24 * 3600_000;
const YEAR_MS = 365 * DAY_MS;

/** The wait before a new code after `strikes` codes that received a wrong try (0: none). */
export function codeWaitMs(strikes: number): number {
  return strikes === 0 ? 0 : CODE_TTL_MINUTES * 60_000 * CODE_WAIT_GROWTH ** (strikes - 1);
}

/**
 * Mailed codes: stored hashed, valid 15 minutes, locked after 5 wrong tries. Across codes an
 * account has a budget of wrong tries per day, and each code that received a wrong try makes the
 * next one wait longer, so that cycling new codes buys no more guesses (docs/security.md).
 * `onBlocked` runs once when a code locks or the day's budget runs out, to tell the holder.
 */
export function createCodes(
  db: Db,
  secret: string,
  clock: () => Date,
  onBlocked: (userId: string, purpose: CodePurpose) => Promise<void> = async () => {},
) {
  const hash = (userId: string, purpose: CodePurpose, code: string) =>
    createHmac('sha256', secret).update(`${userId}:${purpose}:${code}`).digest('hex');
  const ofPurpose = (userId: string, purpose: CodePurpose) =>
    and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose));

  /** Wrong tries of the last 24 hours, across every code of the account for this purpose. */
  async function guessesToday(userId: string, purpose: CodePurpose, now: Date): Promise<number> {
    const [row] = await db
      .select({ total: sum(verificationCodes.attempts) })
      .from(verificationCodes)
      .where(and(ofPurpose(userId, purpose), gt(verificationCodes.createdAt, new Date(now.getTime() - DAY_MS))));
    return Number(row?.total ?? 0);
  }

  /** When the next code may be issued; undefined when it may be now. */
  async function nextCodeAt(userId: string, purpose: CodePurpose, now: Date): Promise<Date | undefined> {
    const yearAgo = new Date(now.getTime() - YEAR_MS);
    const [latest] = await db
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(ofPurpose(userId, purpose))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    const [struck] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(verificationCodes)
      .where(
        and(
          ofPurpose(userId, purpose),
          gt(verificationCodes.createdAt, yearAgo),
          gt(verificationCodes.attempts, 0),
          isNull(verificationCodes.usedAt),
        ),
      );
    let at = latest ? latest.createdAt.getTime() + codeWaitMs(struck?.n ?? 0) : 0;
    if ((await guessesToday(userId, purpose, now)) >= CODE_DAILY_GUESS_BUDGET) {
      // The budget frees when the oldest code holding today's tries leaves the 24 hours.
      const [oldest] = await db
        .select({ createdAt: verificationCodes.createdAt })
        .from(verificationCodes)
        .where(
          and(
            ofPurpose(userId, purpose),
            gt(verificationCodes.createdAt, new Date(now.getTime() - DAY_MS)),
            gt(verificationCodes.attempts, 0),
          ),
        )
        .orderBy(verificationCodes.createdAt)
        .limit(1);
      if (oldest) at = Math.max(at, oldest.createdAt.getTime() + DAY_MS);
    }
    return at > now.getTime() ? new Date(at) : undefined;
  }

  return {
    nextCodeAt,

    /** A new code, replacing any earlier one of the same purpose; CODE_WAIT while the account must wait. */
    async issue(userId: string, purpose: CodePurpose): Promise<string> {
      const now = clock();
      const wait = await nextCodeAt(userId, purpose, now);
      if (wait) throw new AppError('CODE_WAIT', { minutes: Math.ceil((wait.getTime() - now.getTime()) / 60_000) });
      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      await db
        .update(verificationCodes)
        .set({ consumedAt: now })
        .where(and(ofPurpose(userId, purpose), isNull(verificationCodes.consumedAt)));
      await db.insert(verificationCodes).values({
        userId,
        purpose,
        codeHash: hash(userId, purpose, code),
        expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
        createdAt: now,
      });
      return code;
    },

    /** Checks a code; counts a wrong try; marks it used when asked. */
    async check(userId: string, purpose: CodePurpose, code: string, consume: boolean): Promise<void> {
      const now = clock();
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(and(ofPurpose(userId, purpose), isNull(verificationCodes.consumedAt)))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      if (!row) throw new AppError('CODE_INVALID');
      if (row.attempts >= CODE_MAX_ATTEMPTS) throw new AppError('CODE_LOCKED');
      if (row.expiresAt.getTime() <= now.getTime()) throw new AppError('CODE_EXPIRED');
      if ((await guessesToday(userId, purpose, now)) >= CODE_DAILY_GUESS_BUDGET) {
        const wait = await nextCodeAt(userId, purpose, now);
        throw new AppError('CODE_WAIT', { minutes: wait ? Math.ceil((wait.getTime() - now.getTime()) / 60_000) : 1 });
      }
      // A try is taken before comparing, in one statement: simultaneous guesses cannot pass 5.
      const [reserved] = await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(
          and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt), lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS)),
        )
        .returning({ attempts: verificationCodes.attempts });
      if (!reserved) throw new AppError('CODE_LOCKED');
      const expected = Buffer.from(row.codeHash, 'hex');
      const given = Buffer.from(hash(userId, purpose, code), 'hex');
      if (!timingSafeEqual(expected, given)) {
        const locked = reserved.attempts >= CODE_MAX_ATTEMPTS;
        const budgetSpent = (await guessesToday(userId, purpose, now)) === CODE_DAILY_GUESS_BUDGET;
        if (locked || budgetSpent) await onBlocked(userId, purpose);
        throw new AppError(locked ? 'CODE_LOCKED' : 'CODE_INVALID');
      }
      // The right code is not a wrong try: its reserved try is given back.
      await db
        .update(verificationCodes)
        .set({
          attempts: sql`${verificationCodes.attempts} - 1`,
          ...(consume ? { consumedAt: now, usedAt: now } : {}),
        })
        .where(eq(verificationCodes.id, row.id));
    },
  };
}
export type Codes = ReturnType<typeof createCodes>;
