import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@sutura/domain/i18n';
import type { Role } from '@sutura/domain/roles';
import type { Session, signUpFieldsSchema } from '@sutura/domain/auth';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES, type Preferences } from '@sutura/domain/preferences';
import { DELETE_CONFIRMATION_WORDS, type Profile, type updateProfileBody } from '@sutura/domain/users';
import { keepPublishedBestCasesOf } from '../best-cases/kept-after-account-deletion.ts';
import type { Db } from '../../db/client.ts';
import { specialties, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { RequestUser } from '../../http/access.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Audit, AuditEraser } from '../audit/audit.service.ts';
import type { VideoService } from '../videos/videos.service.ts';
import { hashPassword, verifyPassword, type AuthService, type UserRow } from '../auth/auth.service.ts';
import type { Codes } from '../auth/codes.ts';
import type { MediaService } from '../media/media.service.ts';
import type { NotificationService } from '../notifications/notifications.service.ts';
import type { RppsService } from '../rpps/rpps.service.ts';
import { localName } from '../cases/names.ts';
import { receiptText, type ErasureReceipts } from '../data-export/erasure-receipt.ts';
import type { ErasureReceipt } from '@sutura/domain/data-export';

type SignUp = z.output<typeof signUpFieldsSchema>;
type ProfileUpdate = z.output<typeof updateProfileBody>;

/**
 * The language of a person's mail: their preference when they chose one; else, for a mail that
 * answers their own request (a code), that request's language; else the language they last used
 * the app in (their browser's); else French.
 */
export function mailLanguage(user: Pick<UserRow, 'preferences' | 'appLanguage'>, requestLanguage?: Language): Language {
  if (isLanguage(user.preferences.langCode)) return user.preferences.langCode;
  if (requestLanguage) return requestLanguage;
  return isLanguage(user.appLanguage) ? user.appLanguage : DEFAULT_LANGUAGE;
}

/** Tells the holder of an account that its password reset codes are paused (codes.ts, onBlocked). */
export function createResetBlockedNotice(db: Db, queue: Queue) {
  return async (userId: string, purpose: 'verify' | 'reset' | 'link'): Promise<void> => {
    if (purpose !== 'reset') return;
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) return;
    await queue.send('mail.send', {
      to: user.email,
      lang: mailLanguage(user),
      template: { name: 'resetBlocked', params: { firstName: user.firstName } },
    });
  };
}

export function createUserService(deps: {
  db: Db;
  audit: Audit;
  codes: Codes;
  queue: Queue;
  auth: AuthService;
  rpps: RppsService;
  mediaService: MediaService;
  notifications: NotificationService;
  videos: Pick<VideoService, 'removeAllOf'>;
  eraseAudit: AuditEraser;
  receipts: ErasureReceipts;
  clock: () => Date;
}) {
  const { db, audit, codes, queue, auth, rpps, mediaService, notifications, clock } = deps;

  async function byEmail(email: string): Promise<UserRow | undefined> {
    const [user] = await db.select().from(users).where(eq(users.email, email));
    return user;
  }

  async function byId(id: string): Promise<UserRow> {
    const [user] = await db.select().from(users).where(eq(users.id, id));
    if (!user) throw new AppError('NOT_FOUND');
    return user;
  }

  /** `path` names the field in the body that was sent, so the form can put the error on it. */
  async function assertSpecialty(specialtyId: string, path: string, current: string | null = null): Promise<void> {
    const [row] = await db.select({ retiredAt: specialties.retiredAt }).from(specialties).where(eq(specialties.id, specialtyId));
    // A retired specialty (docs/admin-catalog.md) stays only with whoever already had it.
    if (!row || (row.retiredAt && specialtyId !== current)) throw new AppError('VALIDATION', {}, [{ path, code: 'INVALID_VALUE' }]);
  }

  /** `lang`: the language of the person's own request, if they asked for it (not an administrator). */
  async function sendCode(user: UserRow, purpose: 'verify' | 'reset', lang: Language | undefined): Promise<void> {
    const code = await codes.issue(user.id, purpose);
    await queue.send('mail.send', {
      to: user.email,
      lang: mailLanguage(user, lang),
      template: { name: purpose === 'verify' ? 'verificationCode' : 'resetCode', params: { firstName: user.firstName, code } },
    });
  }

  async function toProfile(user: UserRow, lang: Language): Promise<Profile> {
    const [specialty] = user.specialtyId ? await db.select().from(specialties).where(eq(specialties.id, user.specialtyId)) : [];
    return {
      id: user.id,
      email: user.email,
      roles: user.roles as Role[],
      information: {
        firstName: user.firstName,
        lastName: user.lastName,
        phone: user.phone,
        country: user.country,
        city: user.city,
        careCentreType: (user.careCentreType as 'public' | 'private' | null) ?? null,
      },
      career: {
        rpps: user.rpps,
        specialtyId: user.specialtyId,
        specialty: specialty ? { id: specialty.id, name: localName(specialty, lang) } : null,
        yearsOfExperience: user.yearsOfExperience,
        yearsOfRoboticExperience: user.yearsOfRoboticExperience,
        robot: user.robot,
        recorderBrand: user.recorderBrand,
      },
      preferences: user.preferences,
      notificationSettings: { ...DEFAULT_NOTIFICATION_SETTINGS, ...user.notificationSettings },
      mediaId: user.avatarMediaId,
      avatarUrl: mediaService.urlFor(user.avatarMediaId, user.id),
      pushToken: user.pushToken,
      createdAt: user.createdAt.toISOString(),
    };
  }

  return {
    byId,
    toProfile,

    async signUp(body: SignUp, ip: string, lang: Language): Promise<{ email: string; userId: string }> {
      if (await byEmail(body.email)) throw new AppError('EMAIL_TAKEN');
      await rpps.check(body.rpps, body.lastName, body.firstName);
      await assertSpecialty(body.specialtyId, 'specialtyId');
      const [user] = await db
        .insert(users)
        .values({
          email: body.email,
          passwordHash: await hashPassword(body.password),
          roles: ['learner'],
          firstName: body.firstName,
          lastName: body.lastName,
          phone: body.phone,
          country: body.country,
          city: body.city,
          careCentreType: body.careCentreType,
          rpps: body.rpps,
          specialtyId: body.specialtyId,
          yearsOfExperience: body.yearsOfExperience,
          yearsOfRoboticExperience: body.yearsOfRoboticExperience,
          robot: body.robot,
          recorderBrand: body.recorderBrand ?? null,
          preferences: { ...DEFAULT_PREFERENCES, ...body.preferences },
          notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
          termsAcceptedAt: clock(),
        })
        .returning();
      await audit(user!.id, 'user.sign_up', 'user', user!.id, ip);
      await sendCode(user!, 'verify', lang);
      return { email: user!.email, userId: user!.id };
    },

    async resendVerification(email: string, lang: Language): Promise<void> {
      const user = await byEmail(email);
      if (!user) throw new AppError('EMAIL_NOT_FOUND');
      if (user.emailVerifiedAt) return;
      await sendCode(user, 'verify', lang);
    },

    /**
     * An administrator sends the validation mail again to an unvalidated account: the same code
     * and mail as the person's own resend, under the same waits (codes.ts).
     */
    async resendVerificationFor(userId: string): Promise<void> {
      const user = await byId(userId);
      if (user.emailVerifiedAt) throw new AppError('ALREADY_VALIDATED');
      // In the person's language, not the administrator's.
      await sendCode(user, 'verify', undefined);
    },

    /** Validating the email signs the person in (SPEC §4: sign-up completion sets the session). */
    async verifyEmail(email: string, code: string, ip: string, userAgent: string | undefined): Promise<Session> {
      const user = await byEmail(email);
      if (!user) throw new AppError('EMAIL_VALIDATION_FAILED');
      if (user.emailVerifiedAt) throw new AppError('EMAIL_VALIDATION_FAILED');
      if (user.deactivatedAt) throw new AppError('ACCOUNT_DEACTIVATED');
      await codes.check(user.id, 'verify', code, true);
      const [verified] = await db.update(users).set({ emailVerifiedAt: clock() }).where(eq(users.id, user.id)).returning();
      await audit(user.id, 'user.email_validated', 'user', user.id, ip);
      const session = await auth.openSession(verified!, ip, userAgent);
      await auth.rememberDevice(verified!, userAgent);
      await notifications.notify(user.id, 'welcome', { firstName: user.firstName }, '/dashboard');
      return session;
    },

    async sendResetCode(email: string, ip: string, lang: Language): Promise<void> {
      const user = await byEmail(email);
      if (!user) throw new AppError('EMAIL_NOT_FOUND');
      await sendCode(user, 'reset', lang);
      await audit(user.id, 'user.password_reset_requested', 'user', user.id, ip);
    },

    async checkResetCode(email: string, code: string): Promise<void> {
      const user = await byEmail(email);
      if (!user) throw new AppError('CODE_INVALID');
      await codes.check(user.id, 'reset', code, false);
    },

    async resetPassword(email: string, code: string, password: string, ip: string): Promise<void> {
      const user = await byEmail(email);
      if (!user) throw new AppError('CODE_INVALID');
      await codes.check(user.id, 'reset', code, true);
      // Receiving the code proves the address, so a reset also validates an unvalidated email.
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(password), emailVerifiedAt: user.emailVerifiedAt ?? clock(), updatedAt: clock() })
        .where(eq(users.id, user.id));
      await auth.revokeAll(user.id);
      await audit(user.id, 'user.password_reset', 'user', user.id, ip);
    },

    /** Every other session ends and its sockets close; this one goes on with a fresh token. */
    async changePassword(requestUser: RequestUser, currentPassword: string, password: string, ip: string): Promise<Session> {
      const user = await byId(requestUser.id);
      if (!(await verifyPassword(user.passwordHash, currentPassword))) throw new AppError('CURRENT_PASSWORD_INCORRECT');
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(password), updatedAt: clock() })
        .where(eq(users.id, user.id));
      await auth.revokeOthers(user.id, requestUser.sessionId);
      await audit(user.id, 'user.password_changed', 'user', user.id, ip);
      const session = await auth.refresh(requestUser);
      await notifications.notify(user.id, 'passwordChanged');
      return session;
    },

    async updateProfile(requestUser: RequestUser, body: ProfileUpdate, ip: string, lang: Language): Promise<Profile> {
      const user = await byId(requestUser.id);
      if (body.career?.specialtyId) await assertSpecialty(body.career.specialtyId, 'career.specialtyId', user.specialtyId);
      // One of the two years changed alone is compared with the other as stored.
      const practice = body.career?.yearsOfExperience ?? user.yearsOfExperience;
      const robotic = body.career?.yearsOfRoboticExperience ?? user.yearsOfRoboticExperience;
      if (body.career && practice !== null && robotic !== null && robotic > practice) {
        throw new AppError('VALIDATION', {}, [{ path: 'career.yearsOfRoboticExperience', code: 'ROBOTIC_YEARS_OVER_PRACTICE' }]);
      }
      const set: Partial<typeof users.$inferInsert> = { updatedAt: clock(), ...body.information };
      if (body.career) {
        const { recorderBrand, ...career } = body.career;
        Object.assign(set, career);
        if ('recorderBrand' in body.career) set.recorderBrand = recorderBrand ?? null;
      }
      if (body.preferences) set.preferences = { ...user.preferences, ...body.preferences };
      if (body.notificationSettings)
        set.notificationSettings = { ...DEFAULT_NOTIFICATION_SETTINGS, ...user.notificationSettings, ...body.notificationSettings };
      const [updated] = await db.update(users).set(set).where(eq(users.id, user.id)).returning();
      await audit(user.id, 'user.profile_updated', 'user', user.id, ip, { fields: Object.keys(body) });
      return toProfile(updated!, lang);
    },

    async setPreferences(requestUser: RequestUser, preferences: Preferences): Promise<Preferences> {
      const [updated] = await db
        .update(users)
        .set({ preferences, updatedAt: clock() })
        .where(eq(users.id, requestUser.id))
        .returning({ preferences: users.preferences });
      return updated!.preferences;
    },

    async setAvatar(requestUser: RequestUser, bytes: Buffer, ip: string) {
      const user = await byId(requestUser.id);
      const row = await mediaService.storeAvatar(user.id, bytes);
      await db.update(users).set({ avatarMediaId: row.id, updatedAt: clock() }).where(eq(users.id, user.id));
      if (user.avatarMediaId) await mediaService.remove(user.avatarMediaId);
      await audit(user.id, 'user.avatar_changed', 'user', user.id, ip);
      return { id: row.id, url: mediaService.urlFor(row.id, user.id)!, kind: row.kind };
    },

    async removeAvatar(requestUser: RequestUser, ip: string, lang: Language): Promise<Profile> {
      const user = await byId(requestUser.id);
      const [updated] = await db.update(users).set({ avatarMediaId: null, updatedAt: clock() }).where(eq(users.id, user.id)).returning();
      if (user.avatarMediaId) await mediaService.remove(user.avatarMediaId);
      await audit(user.id, 'user.avatar_changed', 'user', user.id, ip, { removed: true });
      return toProfile(updated!, lang);
    },

    async savePushToken(requestUser: RequestUser, pushToken: string): Promise<void> {
      await db.update(users).set({ pushToken, updatedAt: clock() }).where(eq(users.id, requestUser.id));
    },

    async clearPushToken(requestUser: RequestUser, pushToken: string): Promise<void> {
      await db
        .update(users)
        .set({ pushToken: null, updatedAt: clock() })
        .where(and(eq(users.id, requestUser.id), eq(users.pushToken, pushToken)));
    },

    /**
     * Deletes the person and everything they uploaded: every case with its files and the rows that
     * hang on it (what others wrote about a case goes with it), their avatar, sessions (sockets
     * closed), codes, notifications, shares given and received (the database cascades), except a
     * published best case its author consented to, which is kept without them. The audit
     * log keeps the facts without their details. docs/security.md, point 3. Ends with a receipt of
     * what was erased and what is kept and why (docs/personal-data.md), answered and mailed.
     */
    async deleteAccount(requestUser: RequestUser, password: string, confirmation: string): Promise<ErasureReceipt> {
      const user = await byId(requestUser.id);
      if (!(await verifyPassword(user.passwordHash, password))) throw new AppError('CURRENT_PASSWORD_INCORRECT');
      const words: string[] = Object.values(DELETE_CONFIRMATION_WORDS);
      if (!words.includes(confirmation.trim().toUpperCase())) throw new AppError('DELETE_CONFIRMATION');
      const counts = await deps.receipts.before(user.id);
      await auth.revokeAll(user.id);
      // A published best case is kept, as its author's consent said (docs/data-lifecycle.md).
      const bestCasesKept = await keepPublishedBestCasesOf(db, user.id);
      const cases = await deps.videos.removeAllOf(user.id);
      await mediaService.removeAllOf(user.id);
      await db.delete(users).where(eq(users.id, user.id));
      await deps.eraseAudit(user.id, user.email);
      // The receipt's reference is kept with the fact, so that a receipt shown later is matched to
      // its deletion; the address is not (the receipt says audit rows keep none).
      const receiptId = randomUUID();
      await audit(user.id, 'user.deleted', 'user', user.id, null, { cases, bestCasesKept: bestCasesKept.length, receiptId });
      const receipt = await deps.receipts.after(user.id, counts, receiptId);
      const lang = mailLanguage(user);
      await queue.send('mail.send', {
        to: user.email,
        lang,
        template: { name: 'erasureReceipt', params: { firstName: user.firstName, receipt: receiptText(receipt, lang) } },
      });
      return receipt;
    },

    async publicUser(id: string, select: string[], populate: string[], viewerId: string, lang: Language) {
      const user = await byId(id);
      const fields = select.length ? select : ['information', 'career', 'mediaId'];
      const out: Record<string, unknown> = { id: user.id };
      if (fields.includes('information')) out.information = { firstName: user.firstName, lastName: user.lastName };
      if (fields.includes('career')) {
        const career: Record<string, unknown> = { specialtyId: user.specialtyId };
        if (populate.includes('career.specialty')) {
          const [s] = user.specialtyId ? await db.select().from(specialties).where(eq(specialties.id, user.specialtyId)) : [];
          career.specialty = s ? { id: s.id, name: localName(s, lang) } : null;
        }
        out.career = career;
      }
      if (fields.includes('mediaId')) out.mediaId = user.avatarMediaId;
      if (populate.includes('media'))
        out.media = user.avatarMediaId ? { id: user.avatarMediaId, url: mediaService.urlFor(user.avatarMediaId, viewerId) } : null;
      return out;
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
