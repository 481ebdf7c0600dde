import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { importPKCS8 } from 'jose';
import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Language } from '@sutura/domain/i18n';
import type { Role } from '@sutura/domain/roles';
import type { Session } from '@sutura/domain/auth';
import { DEFAULT_NOTIFICATION_SETTINGS, DEFAULT_PREFERENCES } from '@sutura/domain/preferences';
import type { SsoAdmin, SsoIdentity, SsoOptions, SsoPending, SsoCompleteBody, SsoLinkBody } from '@sutura/domain/sso';
import { rppsFromPsc } from '@sutura/domain/sso';
import type { Db } from '../../db/client.ts';
import { rppsDirectory, sessions, specialties, ssoIdentities, ssoPending, ssoRequests, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Audit } from '../audit/audit.service.ts';
import { verifyPassword, type AuthService, type UserRow } from '../auth/auth.service.ts';
import type { Codes } from '../auth/codes.ts';
import type { RoleRooms } from '../notifications/notifications.service.ts';
import { mailLanguage } from '../users/users.service.ts';
import type { SsoProvider } from './sso-config.ts';

type OpenIdClient = typeof import('openid-client');
type ProviderConfiguration = import('openid-client').Configuration;

/** A sign-in at a provider must come back within this time. */
const REQUEST_TTL_MS = 10 * 60_000;
/** A proven identity waits this long for the person to complete their sign-up or link. */
const PENDING_TTL_MS = 30 * 60_000;
/** Provider metadata is discovered again after this time (new endpoints, new keys location). */
const DISCOVERY_TTL_MS = 3600_000;
/** How long a provider may take to answer before it counts as unreachable. */
const PROVIDER_TIMEOUT_MS = 10_000;

/** What the provider proved of the person, read through the provider's claim mapping. */
interface ProvenPerson {
  subject: string;
  firstName: string;
  lastName: string;
  email: string | null;
  emailVerified: boolean;
  rpps: string | null;
  profession: string | null;
  groups: string[];
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const newKey = () => randomBytes(32).toString('base64url');

/** A claim by dotted path (`SubjectRefPro.exercices.0.codeProfession`). */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** A PEM private key (RSA, or EC P-256) as the CryptoKey of private_key_jwt assertions. */
async function signingKey(pem: string): Promise<CryptoKey> {
  const key = createPrivateKey(pem);
  const alg = key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
  return importPKCS8(key.export({ type: 'pkcs8', format: 'pem' }).toString(), alg);
}

/** `a***@example.org`: enough for the holder to recognise their account, not to learn it. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

/**
 * The relying party: Pro Santé Connect and hospital providers through openid-client (loaded only
 * when a provider is configured and first used), the accounts their identities sign in to.
 */
export function createSsoService(deps: {
  db: Db;
  providers: SsoProvider[];
  ssoOnly: boolean;
  breakGlassEmail: string | undefined;
  publicUrl: string;
  auth: AuthService;
  codes: Codes;
  queue: Queue;
  audit: Audit;
  hub: Pick<RoleRooms, 'rolesChanged'>;
  log: Logger;
  clock: () => Date;
}) {
  const { db, providers, auth, codes, queue, audit, clock } = deps;
  let library: Promise<OpenIdClient> | undefined;
  const openid = () => (library ??= import('openid-client'));
  const discovered = new Map<string, { at: number; config: Promise<ProviderConfiguration> }>();

  const callbackUrl = (id: string) => `${deps.publicUrl.replace(/\/$/, '')}/v1/auth/sso/${id}/callback`;

  function providerOf(id: string): SsoProvider {
    const provider = providers.find((p) => p.id === id);
    if (!provider) throw new AppError('SSO_PROVIDER_UNKNOWN');
    return provider;
  }

  /** The provider's metadata and keys (discovery), kept an hour; an unreachable provider is asked again next time. */
  async function configurationOf(provider: SsoProvider): Promise<{ client: OpenIdClient; config: ProviderConfiguration }> {
    const client = await openid();
    const cached = discovered.get(provider.id);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return { client, config: await cached.config };
    const config = (async () => {
      const auth =
        provider.auth.method === 'private_key_jwt'
          ? client.PrivateKeyJwt(
              await signingKey(provider.auth.keyPem),
              provider.auth.kid ? { [client.modifyAssertion]: (header) => void (header.kid = (provider.auth as { kid: string }).kid) } : {},
            )
          : provider.auth.method === 'client_secret_post'
            ? client.ClientSecretPost(provider.auth.secret)
            : client.ClientSecretBasic(provider.auth.secret);
      const metadata: Partial<import('openid-client').ClientMetadata> = {
        redirect_uris: [callbackUrl(provider.id)],
        [client.clockTolerance]: provider.clockToleranceSeconds,
        ...(provider.userinfoJwt ? { userinfo_signed_response_alg: 'RS256' } : {}),
      };
      const execute = [client.enableNonRepudiationChecks, ...(provider.allowHttp ? [client.allowInsecureRequests] : [])];
      return client.discovery(new URL(provider.issuer), provider.clientId, metadata, auth, {
        execute,
        timeout: PROVIDER_TIMEOUT_MS / 1000,
      });
    })();
    discovered.set(provider.id, { at: Date.now(), config });
    try {
      return { client, config: await config };
    } catch (error) {
      discovered.delete(provider.id);
      deps.log.warn({ err: error, provider: provider.id }, 'OpenID Connect discovery failed');
      throw new AppError('SSO_PROVIDER_UNREACHABLE');
    }
  }

  /** What openid-client's refusal means to the person: the provider said no, the proof is bad, or nobody answered. */
  function refusal(client: OpenIdClient, error: unknown): AppError {
    if (error instanceof AppError) return error;
    if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
      return new AppError('SSO_PROVIDER_REFUSED');
    }
    if (error instanceof client.ClientError) return new AppError('SSO_TOKEN_INVALID');
    // fetch failures (refused connection, timeout) and anything else: the provider is out of reach.
    return new AppError('SSO_PROVIDER_UNREACHABLE');
  }

  function personOf(provider: SsoProvider, claims: Record<string, unknown>): ProvenPerson {
    const m = provider.claims;
    const verified = claimAt(claims, m.emailVerified);
    const rawGroups = provider.roles ? claimAt(claims, provider.roles.claim) : undefined;
    const groups = Array.isArray(rawGroups)
      ? rawGroups.filter((g): g is string => typeof g === 'string')
      : text(rawGroups)
        ? [text(rawGroups)!]
        : [];
    const profession = claimAt(claims, m.profession);
    let rpps: string | null = null;
    for (const path of m.rpps) {
      rpps = provider.kind === 'psc' ? rppsFromPsc(claimAt(claims, path)) : text(claimAt(claims, path));
      if (rpps) break;
    }
    return {
      subject: String(claims.sub),
      firstName: text(claimAt(claims, m.firstName)) ?? '',
      lastName: text(claimAt(claims, m.lastName)) ?? '',
      email: text(claimAt(claims, m.email))?.toLowerCase() ?? null,
      emailVerified: verified === true || verified === 'true',
      rpps,
      profession: typeof profession === 'string' || typeof profession === 'number' ? String(profession) : null,
      groups,
    };
  }

  /** Other active administrators than this person (the last one is never demoted by a provider). */
  async function otherAdministrators(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(ne(users.id, userId), isNull(users.deactivatedAt), sql`'administrator' = ANY(${users.roles})`));
    return row?.n ?? 0;
  }

  /** The roles the provider's groups give (learner when none maps), never taking the last administrator's role. */
  async function rolesFromGroups(provider: SsoProvider, person: ProvenPerson, user: UserRow | null): Promise<Role[] | null> {
    if (!provider.roles) return null;
    const mapped = new Set<Role>(person.groups.flatMap((g) => provider.roles!.map[g] ?? []));
    if (mapped.size === 0) mapped.add('learner');
    if (user && (user.roles as Role[]).includes('administrator') && !mapped.has('administrator')) {
      if ((await otherAdministrators(user.id)) === 0) mapped.add('administrator');
    }
    return [...mapped];
  }

  async function applyRoles(provider: SsoProvider, person: ProvenPerson, user: UserRow, ip: string): Promise<UserRow> {
    const roles = await rolesFromGroups(provider, person, user);
    const was = user.roles as Role[];
    if (!roles || (roles.length === was.length && roles.every((r) => was.includes(r)))) return user;
    const [updated] = await db.update(users).set({ roles, updatedAt: clock() }).where(eq(users.id, user.id)).returning();
    await deps.hub.rolesChanged(user.id, roles);
    await audit(null, 'user.roles_changed', 'user', user.id, ip, { from: was, to: roles, provider: provider.id });
    return updated!;
  }

  async function signIn(
    provider: SsoProvider,
    user: UserRow,
    person: ProvenPerson,
    idToken: string | null,
    ip: string,
    userAgent: string | undefined,
  ): Promise<Session> {
    if (user.deactivatedAt) throw new AppError('ACCOUNT_DEACTIVATED');
    const current = await applyRoles(provider, person, user, ip);
    const session = await auth.openSession(current, ip, userAgent, { provider: provider.id, idToken });
    await audit(user.id, 'auth.sign_in', 'user', user.id, ip, { provider: provider.id });
    await auth.rememberDevice(current, userAgent);
    return session;
  }

  async function pendingOf(key: string | undefined): Promise<typeof ssoPending.$inferSelect> {
    if (!key) throw new AppError('SSO_PENDING_EXPIRED');
    const [row] = await db
      .select()
      .from(ssoPending)
      .where(and(eq(ssoPending.keyHash, hashKey(key)), gt(ssoPending.expiresAt, clock())));
    if (!row) throw new AppError('SSO_PENDING_EXPIRED');
    return row;
  }

  const personOfPending = (row: typeof ssoPending.$inferSelect) => row.claims as unknown as ProvenPerson;

  function identityRow(userId: string, provider: SsoProvider, person: ProvenPerson) {
    const now = clock();
    return {
      userId,
      provider: provider.id,
      subject: person.subject,
      email: person.email,
      rpps: person.rpps,
      profession: person.profession,
      createdAt: now,
      lastSignInAt: now,
    };
  }

  const isUniqueViolation = (error: unknown) =>
    (error as { code?: string; cause?: { code?: string } }).code === '23505' ||
    (error as { cause?: { code?: string } }).cause?.code === '23505';

  return {
    configured: providers.length > 0,
    callbackUrl,

    /** Whether a password signs this email in (SSO-only installations: only the break-glass account). */
    passwordAllowed(email: string | undefined): boolean {
      return !deps.ssoOnly || (deps.breakGlassEmail !== undefined && email?.toLowerCase() === deps.breakGlassEmail);
    },

    options(): SsoOptions {
      return { providers: providers.map((p) => ({ id: p.id, kind: p.kind, name: p.name })), passwordSignIn: !deps.ssoOnly };
    },

    adminView(): SsoAdmin {
      return {
        providers: providers.map((p) => ({
          id: p.id,
          kind: p.kind,
          name: p.name,
          issuer: p.issuer,
          requiredAcr: p.requireAcr,
          roles: p.roles,
        })),
        ssoOnly: deps.ssoOnly,
        breakGlassEmail: deps.breakGlassEmail ?? null,
        callbackUrl: callbackUrl('{id}'),
      };
    },

    /** Starts a sign-in: the provider's authorization URL, and the key the browser keeps for the callback. */
    async start(providerId: string, nextPath: string | undefined): Promise<{ url: string; key: string }> {
      const provider = providerOf(providerId);
      const { client, config } = await configurationOf(provider);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const key = newKey();
      const now = clock();
      // Requests never used leave with the next ones.
      await db.delete(ssoRequests).where(lt(ssoRequests.expiresAt, now));
      await db.insert(ssoRequests).values({
        keyHash: hashKey(key),
        provider: provider.id,
        state,
        nonce,
        codeVerifier,
        nextPath: nextPath ?? null,
        expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
        createdAt: now,
      });
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(provider.id),
        scope: provider.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(provider.acrValues ? { acr_values: provider.acrValues } : {}),
      });
      return { url: url.href, key };
    },

    /**
     * The provider's answer: the code exchanged (PKCE), the ID token checked (signature against the
     * provider's keys, issuer, audience, nonce, times, acr), then the person signed in, or their
     * identity kept pending a sign-up or a link. Refusals create nothing.
     */
    async callback(
      providerId: string,
      currentUrl: URL,
      key: string | undefined,
      ip: string,
      userAgent: string | undefined,
    ): Promise<{ session: Session; next: string | null } | { pendingKey: string }> {
      const provider = providerOf(providerId);
      if (!key) throw new AppError('SSO_STATE_INVALID');
      const [request] = await db
        .delete(ssoRequests)
        .where(and(eq(ssoRequests.keyHash, hashKey(key)), eq(ssoRequests.provider, provider.id)))
        .returning();
      if (!request || request.expiresAt.getTime() <= clock().getTime()) throw new AppError('SSO_STATE_INVALID');
      if (currentUrl.searchParams.get('state') !== request.state) throw new AppError('SSO_STATE_INVALID');
      const { client, config } = await configurationOf(provider);
      let claims: Record<string, unknown>;
      let idToken: string | null;
      try {
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: request.codeVerifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims()!;
        idToken = tokens.id_token ?? null;
        // openid-client checks that `iat` is not too old, not that it is not yet to come: a token
        // issued beyond the tolerated clock difference was not issued by a provider on time.
        if (idClaims.iat > clock().getTime() / 1000 + provider.clockToleranceSeconds) throw new AppError('SSO_TOKEN_INVALID');
        if (provider.requireAcr && idClaims.acr !== provider.requireAcr) throw new AppError('SSO_LEVEL_INSUFFICIENT');
        claims = { ...idClaims };
        if (provider.useUserinfo) {
          const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          claims = { ...info, ...idClaims };
        }
      } catch (error) {
        const refused = refusal(client, error);
        deps.log.info({ err: error, provider: provider.id, code: refused.code }, 'OpenID Connect sign-in refused');
        throw refused;
      }
      const person = personOf(provider, claims);

      const [linked] = await db
        .select({ user: users, identityId: ssoIdentities.id })
        .from(ssoIdentities)
        .innerJoin(users, eq(users.id, ssoIdentities.userId))
        .where(and(eq(ssoIdentities.provider, provider.id), eq(ssoIdentities.subject, person.subject)));
      if (linked) {
        const session = await signIn(provider, linked.user, person, idToken, ip, userAgent);
        await db
          .update(ssoIdentities)
          .set({ lastSignInAt: clock(), ...(person.email ? { email: person.email } : {}) })
          .where(eq(ssoIdentities.id, linked.identityId));
        return { session, next: request.nextPath };
      }

      let existing: UserRow | undefined;
      if (provider.kind === 'psc') {
        if (!person.rpps) throw new AppError('SSO_RPPS_MISSING');
        const [entry] = await db.select().from(rppsDirectory).where(eq(rppsDirectory.rpps, person.rpps));
        if (!entry) throw new AppError('SSO_RPPS_UNKNOWN');
        // The directory's names and profession, as for a sign-up with a typed RPPS.
        person.firstName = entry.firstName;
        person.lastName = entry.lastName;
        person.profession = entry.profession ?? person.profession;
        [existing] = await db.select().from(users).where(eq(users.rpps, person.rpps));
        // An email the provider gives that another account holds is not taken over: the person gives one.
        if (!existing && person.email) {
          const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.email, person.email));
          if (holder) person.email = null;
        }
      } else {
        if (!person.email) throw new AppError('SSO_EMAIL_MISSING');
        if (!person.emailVerified) throw new AppError('SSO_EMAIL_UNVERIFIED');
        [existing] = await db.select().from(users).where(eq(users.email, person.email));
        if (!person.firstName) person.firstName = person.email.split('@')[0]!;
        if (!person.lastName) person.lastName = '-';
      }
      const pendingKey = newKey();
      const now = clock();
      await db.delete(ssoPending).where(lt(ssoPending.expiresAt, now));
      await db.insert(ssoPending).values({
        keyHash: hashKey(pendingKey),
        provider: provider.id,
        subject: person.subject,
        kind: existing ? 'link' : 'signUp',
        claims: person as unknown as Record<string, unknown>,
        userId: existing?.id ?? null,
        idToken,
        expiresAt: new Date(now.getTime() + PENDING_TTL_MS),
        createdAt: now,
      });
      return { pendingKey };
    },

    async pending(key: string | undefined): Promise<SsoPending> {
      const row = await pendingOf(key);
      const provider = providerOf(row.provider);
      const person = personOfPending(row);
      const [account] = row.userId ? await db.select().from(users).where(eq(users.id, row.userId)) : [];
      return {
        kind: row.kind === 'link' ? 'link' : 'signUp',
        provider: { id: provider.id, kind: provider.kind, name: provider.name },
        firstName: person.firstName,
        lastName: person.lastName,
        email: person.email,
        rpps: person.rpps,
        profession: person.profession,
        account: account ? { maskedEmail: maskEmail(account.email), hasPassword: account.passwordHash !== '' } : null,
      };
    },

    async cancel(key: string | undefined): Promise<void> {
      if (key) await db.delete(ssoPending).where(eq(ssoPending.keyHash, hashKey(key)));
    },

    /** A first sign-in completed: the account is created validated (the provider proved the person) and linked. */
    async completeSignUp(
      key: string | undefined,
      body: SsoCompleteBody & { acceptTerms: true },
      ip: string,
      userAgent: string | undefined,
    ): Promise<Session> {
      await pendingOf(key);
      const { user, provider, row } = await db
        .transaction(async (tx) => {
          // Taken in the transaction: two clicks create one account.
          const [row] = await tx
            .delete(ssoPending)
            .where(and(eq(ssoPending.keyHash, hashKey(key!)), eq(ssoPending.kind, 'signUp'), gt(ssoPending.expiresAt, clock())))
            .returning();
          if (!row) throw new AppError('SSO_PENDING_EXPIRED');
          const provider = providerOf(row.provider);
          const person = personOfPending(row);
          const email = person.email ?? body.email;
          if (!email) throw new AppError('VALIDATION', {}, [{ path: 'email', code: 'FIELD_REQUIRED' }]);
          const [specialty] = await tx
            .select({ id: specialties.id })
            .from(specialties)
            .where(and(eq(specialties.id, body.specialtyId), isNull(specialties.retiredAt)));
          if (!specialty) throw new AppError('VALIDATION', {}, [{ path: 'specialtyId', code: 'INVALID_VALUE' }]);
          const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
          if (taken) throw new AppError('EMAIL_TAKEN');
          const now = clock();
          const roles = (await rolesFromGroups(provider, person, null)) ?? ['learner'];
          const [user] = await tx
            .insert(users)
            .values({
              email,
              // No password: the provider signs this account in (a password can be set later by a reset).
              passwordHash: '',
              roles,
              firstName: person.firstName,
              lastName: person.lastName,
              rpps: person.rpps,
              specialtyId: body.specialtyId,
              preferences: DEFAULT_PREFERENCES,
              notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
              emailVerifiedAt: now,
              termsAcceptedAt: now,
            })
            .returning();
          await tx.insert(ssoIdentities).values(identityRow(user!.id, provider, person));
          return { user: user!, provider, row };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError('SSO_IDENTITY_TAKEN');
          throw error;
        });
      await audit(user.id, 'user.sign_up', 'user', user.id, ip, { provider: provider.id });
      const session = await auth.openSession(user, ip, userAgent, { provider: provider.id, idToken: row.idToken });
      await audit(user.id, 'auth.sign_in', 'user', user.id, ip, { provider: provider.id });
      await auth.rememberDevice(user, userAgent);
      return session;
    },

    /** Mails a code to the existing account, for a holder without their password at hand. */
    async sendLinkCode(key: string | undefined, lang: Language): Promise<void> {
      const row = await pendingOf(key);
      if (row.kind !== 'link' || !row.userId) throw new AppError('SSO_PENDING_EXPIRED');
      const [user] = await db.select().from(users).where(eq(users.id, row.userId));
      if (!user) throw new AppError('SSO_PENDING_EXPIRED');
      const code = await codes.issue(user.id, 'link');
      await queue.send('mail.send', {
        to: user.email,
        lang: mailLanguage(user, lang),
        template: { name: 'ssoLinkCode', params: { firstName: user.firstName, code, provider: providerOf(row.provider).name[lang] } },
      });
    },

    /** Links the identity to the existing account once its holder proved they hold it, and signs in. */
    async link(key: string | undefined, body: SsoLinkBody, ip: string, userAgent: string | undefined): Promise<Session> {
      const pending = await pendingOf(key);
      if (pending.kind !== 'link' || !pending.userId) throw new AppError('SSO_PENDING_EXPIRED');
      const [holder] = await db.select().from(users).where(eq(users.id, pending.userId));
      if (!holder) throw new AppError('SSO_PENDING_EXPIRED');
      if ('password' in body) {
        if (!(await verifyPassword(holder.passwordHash, body.password))) {
          await audit(holder.id, 'auth.sign_in_failed', 'user', holder.id, ip, { provider: pending.provider });
          throw new AppError('CURRENT_PASSWORD_INCORRECT');
        }
      } else {
        await codes.check(holder.id, 'link', body.code, true);
      }
      const { user, provider, row } = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .delete(ssoPending)
            .where(and(eq(ssoPending.keyHash, hashKey(key!)), gt(ssoPending.expiresAt, clock())))
            .returning();
          if (!row) throw new AppError('SSO_PENDING_EXPIRED');
          const provider = providerOf(row.provider);
          const person = personOfPending(row);
          await tx.insert(ssoIdentities).values(identityRow(holder.id, provider, person));
          // The provider proved the email (or the RPPS): an account that waited for its code is validated.
          const [user] = await tx
            .update(users)
            .set({ emailVerifiedAt: holder.emailVerifiedAt ?? clock(), updatedAt: clock() })
            .where(eq(users.id, holder.id))
            .returning();
          return { user: user!, provider, row };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new AppError('SSO_IDENTITY_TAKEN');
          throw error;
        });
      await audit(user.id, 'user.sso_linked', 'user', user.id, ip, { provider: provider.id });
      return signIn(provider, user, personOfPending(row), row.idToken, ip, userAgent);
    },

    async identities(userId: string): Promise<{ identities: SsoIdentity[]; hasPassword: boolean }> {
      const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
      if (!user) throw new AppError('NOT_FOUND');
      const rows = await db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, userId)).orderBy(ssoIdentities.createdAt);
      return {
        hasPassword: user.passwordHash !== '',
        identities: rows.map((r) => {
          const provider = providers.find((p) => p.id === r.provider);
          return {
            id: r.id,
            // A provider no longer configured still shows, by its id, so that it can be removed.
            provider: provider
              ? { id: provider.id, kind: provider.kind, name: provider.name }
              : { id: r.provider, kind: 'hospital' as const, name: { fr: r.provider, en: r.provider } },
            subject: r.subject,
            email: r.email,
            rpps: r.rpps,
            profession: r.profession,
            rolesFromProvider: Boolean(provider?.roles),
            linkedAt: r.createdAt.toISOString(),
            lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
          };
        }),
      };
    },

    /** Unlinks an identity of the person's own; never their last way to sign in. */
    async removeIdentity(userId: string, identityId: string, ip: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!user) throw new AppError('NOT_FOUND');
        const rows = await tx.select().from(ssoIdentities).where(eq(ssoIdentities.userId, userId));
        const target = rows.find((r) => r.id === identityId);
        if (!target) throw new AppError('NOT_FOUND');
        const passwordSignsIn = user.passwordHash !== '' && (!deps.ssoOnly || user.email === deps.breakGlassEmail);
        if (rows.length === 1 && !passwordSignsIn) throw new AppError('SSO_LAST_SIGN_IN_METHOD');
        await tx.delete(ssoIdentities).where(eq(ssoIdentities.id, identityId));
      });
      await audit(userId, 'user.sso_unlinked', 'user', userId, ip);
    },

    /** Where the browser goes so that the provider's session ends too, when the session came from one that offers it. */
    async endSessionUrl(sessionId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ provider: sessions.ssoProvider, idToken: sessions.ssoIdToken })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      const provider = row?.provider ? providers.find((p) => p.id === row.provider) : undefined;
      if (!provider) return undefined;
      try {
        const { client, config } = await configurationOf(provider);
        if (!config.serverMetadata().end_session_endpoint) return undefined;
        return client.buildEndSessionUrl(config, {
          post_logout_redirect_uri: `${deps.publicUrl.replace(/\/$/, '')}/auth/login`,
          ...(row!.idToken ? { id_token_hint: row!.idToken } : { client_id: provider.clientId }),
        }).href;
      } catch {
        // The provider out of reach: the Sutura session is ended all the same.
        return undefined;
      }
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
