import { createHash } from 'node:crypto';
import argon2 from 'argon2';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Role } from '@sutura/domain/roles';
import type { Session } from '@sutura/domain/auth';
import type { Db } from '../../db/client.ts';
import { knownDevices, sessions, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import type { Tokens } from './tokens.ts';

export type UserRow = typeof users.$inferSelect;

// A hash to compare against when the email is unknown, so both paths take the same time.
const decoyHash = argon2.hash('decoy-password-1', { type: argon2.argon2id });

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
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
  clock: () => Date;
}) {
  const { db, tokens, audit, mediaService, notifications, clock } = deps;
  const ttlMs = deps.tokenTtlHours * 3600_000;
  // Every authenticated request runs it: built once, a named statement on every connection.
  const sessionOf = db
    .select({ id: users.id, roles: users.roles, preferences: users.preferences, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('auth_session');

  async function sessionPayload(user: UserRow, sessionId: string, expiresAt: Date): Promise<Session> {
    return {
      token: await tokens.sign({ userId: user.id, sessionId }, expiresAt),
      userId: user.id,
      roles: user.roles as Role[],
      preferences: user.preferences,
      information: { firstName: user.firstName, lastName: user.lastName },
      avatarUrl: mediaService.urlFor(user.avatarMediaId, user.id),
    };
  }

  async function openSession(user: UserRow, ip: string, userAgent: string | undefined): Promise<Session> {
    const expiresAt = new Date(clock().getTime() + ttlMs);
    const [row] = await db
      .insert(sessions)
      .values({ userId: user.id, device: describeDevice(userAgent), ip, expiresAt })
      .returning({ id: sessions.id });
    return sessionPayload(user, row!.id, expiresAt);
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
      const [user] = await db.select().from(users).where(eq(users.email, email));
      if (!user) {
        await verifyPassword(await decoyHash, password);
        await audit(null, 'auth.sign_in_failed', 'user', null, ip, { email });
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (!(await verifyPassword(user.passwordHash, password))) {
        await audit(user.id, 'auth.sign_in_failed', 'user', user.id, ip);
        throw new AppError('INVALID_CREDENTIALS');
      }
      if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VALIDATED');
      const session = await openSession(user, ip, userAgent);
      await audit(user.id, 'auth.sign_in', 'user', user.id, ip);
      await rememberDevice(user, userAgent);
      return session;
    },

    /** A fresh token for the same session, with a new expiry. */
    async refresh(requestUser: RequestUser): Promise<Session> {
      const [user] = await db.select().from(users).where(eq(users.id, requestUser.id));
      if (!user) throw new AppError('UNAUTHORIZED');
      const expiresAt = new Date(clock().getTime() + ttlMs);
      await db.update(sessions).set({ expiresAt, lastSeenAt: clock() }).where(eq(sessions.id, requestUser.sessionId));
      return sessionPayload(user, requestUser.sessionId, expiresAt);
    },

    async signOut(requestUser: RequestUser, ip: string): Promise<void> {
      await db.update(sessions).set({ revokedAt: clock() }).where(eq(sessions.id, requestUser.sessionId));
      await audit(requestUser.id, 'auth.sign_out', 'user', requestUser.id, ip);
    },

    async revokeAll(userId: string): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: clock() })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    async authenticate(token: string): Promise<RequestUser | null> {
      const claims = await tokens.verify(token);
      if (!claims) return null;
      const [row] = await sessionOf.execute({ sessionId: claims.sessionId, userId: claims.userId, now: clock() });
      if (!row) return null;
      return { id: row.id, sessionId: row.sessionId, roles: row.roles as Role[], preferences: row.preferences };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
