import { isLanguage } from '@sutura/domain/i18n';
import { createHash, randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Role } from '@sutura/domain/roles';
import type { Session } from '@sutura/domain/auth';
import type { Db } from '../../db/client.ts';
import { knownDevices, sessions, users } from '../../db/schema.ts';
import { preparedOnUse } from '../../db/prepared.ts';
import { AppError } from '../../http/errors.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Audit, AuditCounter } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService, RealtimeHub } from '../notifications/notifications.service.ts';
import type { Tokens } from './tokens.ts';

export type UserRow = typeof users.$inferSelect;

/** The window of the per-address limit on failed sign-ins. */
export const SIGN_IN_WINDOW_MINUTES = 15;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/**
 * The hash of the people the test suites make (the harness, the end-to-end seeding route): Argon2id
 * at its lowest cost, verified by the same code as every other hash (its cost is written in it).
 * A test signs its people in hundreds of times; at the product's cost each sign-in took about
 * 170 ms of processor. Never used for a person who signs up or changes a password.
 */
export function testPeoplePasswordHash(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A short, readable name of the device for the person (browser and system). */
export function describeDevice(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : ua.split('/')[0] || 'unknown';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser}, ${os}` : browser;
}

export function createAuthService(deps: {
  db: Db;
  tokens: Tokens;
  audit: Audit;
  mediaService: MediaService;
  notifications: NotificationService;
  tokenTtlHours: number;
  /** A session ends this long after sign-in, however often its token is refreshed. */
  sessionMaxDays: number;
  /** How long a token replaced by a refresh is still accepted. */
  tokenGraceSeconds: number;
  hub: Pick<RealtimeHub, 'disconnectSessions'>;
  /** Failed sign-ins from one address over SIGN_IN_WINDOW_MINUTES, whatever the emails, before it waits. */
  signInFailuresPerAddress: number;
  auditCount: AuditCounter;
  clock: () => Date;
}) {
  const { db, tokens, audit, mediaService, notifications, clock, hub } = deps;
  const ttlMs = deps.tokenTtlHours * 3600_000;
  const maxMs = deps.sessionMaxDays * 24 * 3600_000;
  // Every authenticated request runs it: built once, a named statement on every connection.
  const sessionOf = preparedOnUse(() =>
    db
      .select({
        id: users.id,
        roles: users.roles,
        preferences: users.preferences,
        appLanguage: users.appLanguage,
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        createdAt: sessions.createdAt,
        tokenId: sessions.tokenId,
        previousTokenId: sessions.previousTokenId,
        previousUntil: sessions.previousUntil,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, sql.placeholder('sessionId')),
          eq(sessions.userId, sql.placeholder('userId')),
          isNull(sessions.revokedAt),
          // A deactivated person's sessions are revoked too; this also covers a request in flight.
          isNull(users.deactivatedAt),
          gt(sessions.expiresAt, sql.placeholder('now')),
          gt(sessions.createdAt, sql.placeholder('oldest')),
        ),
      )
      .prepare('auth_session'),
  );

  async function sessionPayload(user: UserRow, sessionId: string, tokenId: string, expiresAt: Date): Promise<Session> {
    return {
      token: await tokens.sign({ userId: user.id, sessionId, tokenId }, expiresAt),
      userId: user.id,
      roles: user.roles as Role[],
      preferences: user.preferences,
      information: { firstName: user.firstName, lastName: user.lastName },
      avatarUrl: mediaService.urlFor(user.avatarMediaId, user.id),
    };
  }

  /** `sso`: the provider the person signed in with, and its ID token (for RP-initiated logout). */
  async function openSession(
    user: UserRow,
    ip: string,
    userAgent: string | undefined,
    sso?: { provider: string; idToken: string | null },
  ): Promise<Session> {
    const now = clock();
    const expiresAt = new Date(now.getTime() + Math.min(ttlMs, maxMs));
    const tokenId = randomUUID();
    const [row] = await db
      .insert(sessions)
      .values({
        userId: user.id,
        device: describeDevice(userAgent),
        ip,
        expiresAt,
        tokenId,
        createdAt: now,
        lastSeenAt: now,
        ...(sso ? { ssoProvider: sso.provider, ssoIdToken: sso.idToken } : {}),
      })
      .returning({ id: sessions.id });
    return sessionPayload(user, row!.id, tokenId, expiresAt);
  }

  /** Revokes sessions of a person (all, or all but one) and closes their sockets. */
  async function revokeSessions(userId: string, keep?: string): Promise<void> {
    const revoked = await db
      .update(sessions)
      .set({ revokedAt: clock() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
      .returning({ id: sessions.id });
    hub.disconnectSessions(revoked.map((r) => r.id));
  }

  /** Tells the person when their account is opened from a device it has never been opened on. */
  async function rememberDevice(user: UserRow, userAgent: string | undefined): Promise<void> {
    const fingerprint = createHash('sha256')
      .update(userAgent ?? '')
      .digest('hex');
    const seen = await db.select().from(knownDevices).where(eq(knownDevices.userId, user.id));
    if (seen.some((d) => d.fingerprint === fingerprint)) return;
    await db.insert(knownDevices).values({ userId: user.id, fingerprint }).onConflictDoNothing();
    if (seen.length > 0) await notifications.notify(user.id, 'newSignIn', { device: describeDevice(userAgent) });
  }

  return {
    openSession,
    rememberDevice,

    async login(email: string, password: string, ip: string, userAgent: string | undefined): Promise<Session> {
      // Password spraying tries one password on many emails: the address waits, whatever the email.
      if ((await deps.auditCount('auth.sign_in_failed', ip, SIGN_IN_WINDOW_MINUTES)) >= deps.signInFailuresPerAddress)
        throw new AppError('RATE_LIMITED');
      const [user] = await db.select().from(users).where(eq(users.email, email));
      if (!user) {
        // As long as a known email's check: one Argon2id derivation of the password tried, with the
        // same settings (nothing to prepare, nothing held in memory between sign-ins).
        await hashPassword(password);
        await audit(null, 'auth.sign_in_failed', 'user', null, ip, { email });
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (!(await verifyPassword(user.passwordHash, password))) {
        await audit(user.id, 'auth.sign_in_failed', 'user', user.id, ip);
        throw new AppError('INVALID_CREDENTIALS');
      }
      // Told only to whoever knows the password, as the unvalidated email below.
      if (user.deactivatedAt) {
        await audit(user.id, 'auth.sign_in_failed', 'user', user.id, ip, { deactivated: true });
        throw new AppError('ACCOUNT_DEACTIVATED');
      }
      if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VALIDATED');
      const session = await openSession(user, ip, userAgent);
      await audit(user.id, 'auth.sign_in', 'user', user.id, ip);
      await rememberDevice(user, userAgent);
      return session;
    },

    /**
     * A fresh token for the same session, with a new expiry but never past the session's absolute
     * lifetime. The token it replaces stays valid for a short grace, then is refused.
     */
    async refresh(requestUser: RequestUser): Promise<Session> {
      const [user] = await db.select().from(users).where(eq(users.id, requestUser.id));
      const [session] = await db.select().from(sessions).where(eq(sessions.id, requestUser.sessionId));
      if (!user || !session || user.deactivatedAt || session.revokedAt) throw new AppError('UNAUTHORIZED');
      const now = clock();
      const expiresAt = new Date(Math.min(now.getTime() + ttlMs, session.createdAt.getTime() + maxMs));
      const tokenId = randomUUID();
      await db
        .update(sessions)
        .set({
          expiresAt,
          lastSeenAt: now,
          tokenId,
          previousTokenId: session.tokenId,
          previousUntil: new Date(now.getTime() + deps.tokenGraceSeconds * 1000),
        })
        .where(eq(sessions.id, session.id));
      return sessionPayload(user, session.id, tokenId, expiresAt);
    },

    async signOut(requestUser: RequestUser, ip: string): Promise<void> {
      await db.update(sessions).set({ revokedAt: clock() }).where(eq(sessions.id, requestUser.sessionId));
      hub.disconnectSessions([requestUser.sessionId]);
      await audit(requestUser.id, 'auth.sign_out', 'user', requestUser.id, ip);
    },

    /** Every session of the person ends, and its sockets close (password reset, deletion). */
    async revokeAll(userId: string): Promise<void> {
      await revokeSessions(userId);
    },

    /** Every session but `keep` ends (a password change: the person stays signed in here). */
    async revokeOthers(userId: string, keep: string): Promise<void> {
      await revokeSessions(userId, keep);
    },

    /** A person's roles as they are now (null when there is no such active person). */
    async rolesOf(userId: string): Promise<Role[] | null> {
      const [row] = await db
        .select({ roles: users.roles })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
      return row ? (row.roles as Role[]) : null;
    },

    /** When a live session ends (expiry or absolute lifetime); null when it has ended or was revoked. */
    async sessionEndsAt(sessionId: string): Promise<Date | null> {
      const now = clock();
      const [row] = await db
        .select({ expiresAt: sessions.expiresAt, createdAt: sessions.createdAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
      if (!row) return null;
      const endsAt = Math.min(row.expiresAt.getTime(), row.createdAt.getTime() + maxMs);
      return endsAt > now.getTime() ? new Date(endsAt) : null;
    },

    async authenticate(token: string): Promise<RequestUser | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const now = clock();
      const [row] = await sessionOf.execute({
        sessionId: claims.sessionId,
        userId: claims.userId,
        now,
        oldest: new Date(now.getTime() - maxMs),
      });
      if (!row) return null;
      // Sessions from before token ids accept their token until its first refresh.
      const current = row.tokenId === null || claims.tokenId === row.tokenId;
      const inGrace =
        claims.tokenId !== null && claims.tokenId === row.previousTokenId && (row.previousUntil?.getTime() ?? 0) > now.getTime();
      if (!current && !inGrace) return null;
      const endsAt = Math.min(row.expiresAt.getTime(), row.createdAt.getTime() + maxMs, inGrace ? row.previousUntil!.getTime() : Infinity);
      return {
        id: row.id,
        sessionId: row.sessionId,
        roles: row.roles as Role[],
        preferences: row.preferences,
        appLanguage: isLanguage(row.appLanguage) ? row.appLanguage : null,
        sessionEndsAt: new Date(endsAt),
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
