import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { errorMessage, type ErrorCode } from '@sutura/domain/errors';
import { sessions, ssoIdentities, ssoPending, users } from '../src/db/schema.ts';
import { codeFromMail, createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';
import { browseProvider, pscClaims, startTestProvider, type TestProvider } from './oidc-test-provider.ts';

/**
 * Sign-in through OpenID Connect against real providers (oidc-provider, in-process): one like
 * Pro Santé Connect, one like a hospital's Keycloak. The test plays the browser: it follows the
 * redirects at the provider with its cookies, and brings the callback back to Sutura.
 */
const PUBLIC_URL = 'http://sutura.test';
let ctx: TestContext;
let psc: TestProvider;
let keycloak: TestProvider;
let keyed: TestProvider;

const callbackOf = (id: string) => `${PUBLIC_URL}/v1/auth/sso/${id}/callback`;

beforeAll(async () => {
  psc = await startTestProvider({ flavour: 'psc', redirectUri: callbackOf('psc'), postLogoutRedirectUri: `${PUBLIC_URL}/auth/login` });
  keycloak = await startTestProvider({
    flavour: 'keycloak',
    redirectUri: callbackOf('chu'),
    postLogoutRedirectUri: `${PUBLIC_URL}/auth/login`,
  });
  keyed = await startTestProvider({
    flavour: 'keycloak',
    redirectUri: callbackOf('keyed'),
    postLogoutRedirectUri: `${PUBLIC_URL}/auth/login`,
    clientAuth: 'private_key_jwt',
  });
  ctx = await createTestContext({
    env: {
      PUBLIC_URL,
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'psc',
          preset: 'psc',
          name: { fr: 'Pro Santé Connect', en: 'Pro Santé Connect' },
          issuer: psc.issuer,
          clientId: psc.clientId,
          clientSecret: psc.clientSecret,
        },
        {
          id: 'chu',
          name: { fr: 'CHU de Test', en: 'Test University Hospital' },
          issuer: keycloak.issuer,
          clientId: keycloak.clientId,
          clientSecret: keycloak.clientSecret,
          scopes: 'openid email profile groups',
          roles: { claim: 'groups', map: { 'sutura-experts': ['expert'], 'sutura-admins': ['administrator'] } },
        },
        {
          id: 'keyed',
          name: { fr: 'Clé privée', en: 'Private key' },
          issuer: keyed.issuer,
          clientId: keyed.clientId,
          clientAuth: 'private_key_jwt',
          privateKey: keyed.clientKeyPem,
          privateKeyId: 'sutura-client-key',
        },
        // Nobody listens there.
        {
          id: 'down',
          name: { fr: 'Hors service', en: 'Out of order' },
          issuer: 'http://127.0.0.1:9',
          clientId: 'x',
          clientSecret: 'y',
        },
      ]),
    },
  });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await psc?.close();
  await keycloak?.close();
  await keyed?.close();
});

const cookieValue = (setCookie: string | string[] | undefined, name: string) => {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  for (const c of all) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(c);
    if (match) return match[1];
  }
  return undefined;
};

async function start(providerId: string) {
  const res = await ctx.inject({ method: 'GET', url: `/v1/auth/sso/${providerId}/start` });
  expect(res.statusCode).toBe(303);
  return { location: String(res.headers.location), key: cookieValue(res.headers['set-cookie'], 'sutura_sso_request') };
}

function callback(url: string, key: string | undefined) {
  const u = new URL(url);
  return ctx.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers: key ? { cookie: `sutura_sso_request=${key}` } : {} });
}

/** A whole sign-in as `account` at the provider: the callback's answer, and the URL the provider sent back. */
async function signInAs(provider: TestProvider, providerId: string, account: string) {
  provider.nextAccount = account;
  const { location, key } = await start(providerId);
  expect(location.startsWith(provider.issuer)).toBe(true);
  const back = await browseProvider(location, PUBLIC_URL);
  return { res: await callback(back, key), back, key };
}

async function tally() {
  const [u] = await ctx.database.db.select({ n: count() }).from(users);
  const [i] = await ctx.database.db.select({ n: count() }).from(ssoIdentities);
  const [p] = await ctx.database.db.select({ n: count() }).from(ssoPending);
  return { users: u!.n, identities: i!.n, pending: p!.n };
}

/** A refusal: back to the sign-in page with the catalogue code, nothing created. */
async function expectRefused(run: () => Promise<{ statusCode: number; headers: Record<string, unknown> }>, code: ErrorCode) {
  const before = await tally();
  const res = await run();
  expect(res.statusCode).toBe(303);
  expect(res.headers.location).toBe(`/auth/login?sso_error=${code}`);
  expect(cookieValue(res.headers['set-cookie'] as string[], 'sutura_session')).toBeUndefined();
  expect(await tally()).toEqual(before);
  // The person reads it in either language.
  expect(errorMessage(code, 'fr').length).toBeGreaterThan(20);
  expect(errorMessage(code, 'en').length).toBeGreaterThan(20);
}

const pendingCall = (method: 'GET' | 'POST' | 'DELETE', path: string, pendingKey: string | undefined, body?: unknown) =>
  ctx.inject({ method, url: `/v1/auth/sso/pending${path}`, headers: { cookie: `sutura_sso_pending=${pendingKey}` }, body });

describe('the sign-in services offered', () => {
  it('lists the providers and that a password also signs in', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/auth/sso' });
    expect(res.json().data).toEqual({
      providers: [
        { id: 'psc', kind: 'psc', name: { fr: 'Pro Santé Connect', en: 'Pro Santé Connect' } },
        { id: 'chu', kind: 'hospital', name: { fr: 'CHU de Test', en: 'Test University Hospital' } },
        { id: 'keyed', kind: 'hospital', name: { fr: 'Clé privée', en: 'Private key' } },
        { id: 'down', kind: 'hospital', name: { fr: 'Hors service', en: 'Out of order' } },
      ],
      passwordSignIn: true,
    });
  });

  it('sends the browser to PSC with PKCE, state, nonce, scope_all and acr eidas1', async () => {
    const { location, key } = await start('psc');
    const url = new URL(location);
    expect(url.searchParams.get('scope')).toBe('openid scope_all');
    expect(url.searchParams.get('acr_values')).toBe('eidas1');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(callbackOf('psc'));
    expect(key).toMatch(/^[\w-]{43}$/);
  });

  it('refuses an unknown provider', async () => {
    const res = await ctx.inject({ method: 'GET', url: '/v1/auth/sso/nobody/start' });
    expect(res.headers.location).toBe('/auth/login?sso_error=SSO_PROVIDER_UNKNOWN');
  });
});

describe('Pro Santé Connect', () => {
  const person = SAMPLE_PEOPLE[0];
  let email = '';

  it('first sign-in: the account is created from the directory, validated, asking only for email, specialty and consent', async () => {
    psc.accounts.set('psc-first', pscClaims(person.rpps));
    const before = await tally();
    const { res } = await signInAs(psc, 'psc', 'psc-first');
    expect(res.headers.location).toBe('/auth/sso');
    const pendingKey = cookieValue(res.headers['set-cookie'], 'sutura_sso_pending');
    expect(pendingKey).toBeTruthy();
    expect((await tally()).users).toBe(before.users);

    const pending = await pendingCall('GET', '', pendingKey);
    expect(pending.json().data).toMatchObject({
      kind: 'signUp',
      provider: { id: 'psc', kind: 'psc' },
      firstName: person.firstName,
      lastName: person.lastName,
      email: null,
      rpps: person.rpps,
      account: null,
    });

    // The provider gave no email: it is asked.
    const noEmail = await pendingCall('POST', '/complete', pendingKey, {
      specialtyId: await ctx.specialtyId(),
      acceptTerms: true,
      acceptPrivacy: true,
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error.details[0]).toMatchObject({ path: 'email', code: 'FIELD_REQUIRED' });
    expect((await tally()).users).toBe(before.users);

    email = `psc-${Date.now()}@example.org`;
    const done = await pendingCall('POST', '/complete', pendingKey, {
      email,
      specialtyId: await ctx.specialtyId(),
      acceptTerms: true,
      acceptPrivacy: true,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.roles).toEqual(['learner']);
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ rpps: person.rpps, firstName: person.firstName, lastName: person.lastName, passwordHash: '' });
    expect(user!.emailVerifiedAt).not.toBeNull();
    expect(user!.termsAcceptedAt).not.toBeNull();
    const identities = await ctx.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, user!.id));
    expect(identities).toMatchObject([{ provider: 'psc', subject: 'psc-first', rpps: person.rpps }]);

    // Completed once, whatever the clicks: the pending identity is gone.
    const again = await pendingCall('POST', '/complete', pendingKey, {
      email: `other-${email}`,
      specialtyId: await ctx.specialtyId(),
      acceptTerms: true,
      acceptPrivacy: true,
    });
    expect(again.json().error.code).toBe('SSO_PENDING_EXPIRED');
  });

  it('second sign-in: signed in at once with the session cookie; sign-out ends the provider session too', async () => {
    const { res } = await signInAs(psc, 'psc', 'psc-first');
    expect(res.headers.location).toBe('/dashboard');
    const token = cookieValue(res.headers['set-cookie'], 'sutura_session');
    expect(token).toBeTruthy();
    const me = await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token });
    expect(me.json().data.email).toBe(email);
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, me.json().data.id));
    expect(session!.ssoProvider).toBe('psc');

    const identities = await ctx.inject({ method: 'GET', url: '/v1/users/profile/me/identities', token });
    expect(identities.json().data).toMatchObject({ hasPassword: false, identities: [{ provider: { id: 'psc' }, rpps: person.rpps }] });
    // The only way to sign in is not removed.
    const remove = await ctx.inject({
      method: 'DELETE',
      url: `/v1/users/profile/me/identities/${identities.json().data.identities[0].id}`,
      token,
    });
    expect(remove.json().error.code).toBe('SSO_LAST_SIGN_IN_METHOD');

    const out = await ctx.inject({ method: 'DELETE', url: '/v1/auth', token });
    const end = new URL(out.json().data.endSessionUrl);
    expect(end.href.startsWith(psc.issuer)).toBe(true);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/auth/login`);
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token })).statusCode).toBe(401);
  });

  it('an existing account with the same RPPS is linked once its holder proves it (emailed code)', async () => {
    const holder = await ctx.createUser('learner', { rpps: SAMPLE_PEOPLE[1].rpps });
    psc.accounts.set('psc-link', pscClaims(SAMPLE_PEOPLE[1].rpps));
    const { res } = await signInAs(psc, 'psc', 'psc-link');
    expect(res.headers.location).toBe('/auth/sso');
    const pendingKey = cookieValue(res.headers['set-cookie'], 'sutura_sso_pending');
    const pending = await pendingCall('GET', '', pendingKey);
    expect(pending.json().data).toMatchObject({ kind: 'link', account: { hasPassword: true } });
    expect(pending.json().data.account.maskedEmail).not.toBe(holder.email);

    // A wrong password links nothing.
    const wrong = await pendingCall('POST', '/link', pendingKey, { password: 'not-the-password' });
    expect(wrong.json().error.code).toBe('CURRENT_PASSWORD_INCORRECT');
    expect(await ctx.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, holder.id))).toHaveLength(0);

    expect((await pendingCall('POST', '/code', pendingKey)).json().data).toEqual({ sent: true });
    const code = codeFromMail((await ctx.waitForMail(holder.email)).text);
    const linked = await pendingCall('POST', '/link', pendingKey, { code });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().data.userId).toBe(holder.id);
    expect(await ctx.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, holder.id))).toHaveLength(1);

    // From then on, PSC signs this account in.
    const { res: next } = await signInAs(psc, 'psc', 'psc-link');
    expect(next.headers.location).toBe('/dashboard');

    // With a password besides, the person may unlink it.
    const list = await ctx.inject({ method: 'GET', url: '/v1/users/profile/me/identities', token: holder.token });
    expect(list.json().data.hasPassword).toBe(true);
    const removed = await ctx.inject({
      method: 'DELETE',
      url: `/v1/users/profile/me/identities/${list.json().data.identities[0].id}`,
      token: holder.token,
    });
    expect(removed.json().data.identities).toEqual([]);
  });

  it('refuses a PSC sign-in at a level below eidas1', async () => {
    psc.accounts.set('psc-weak', pscClaims(SAMPLE_PEOPLE[2].rpps));
    psc.acr = 'eidas2';
    try {
      await expectRefused(async () => (await signInAs(psc, 'psc', 'psc-weak')).res, 'SSO_LEVEL_INSUFFICIENT');
    } finally {
      psc.acr = 'eidas1';
    }
  });

  it('refuses a missing RPPS', async () => {
    psc.accounts.set('psc-no-rpps', pscClaims(null));
    await expectRefused(async () => (await signInAs(psc, 'psc', 'psc-no-rpps')).res, 'SSO_RPPS_MISSING');
  });

  it('refuses an RPPS that is not in the directory', async () => {
    psc.accounts.set('psc-unknown', pscClaims('10999999998'));
    await expectRefused(async () => (await signInAs(psc, 'psc', 'psc-unknown')).res, 'SSO_RPPS_UNKNOWN');
  });
});

describe("the hospital's provider (Keycloak)", () => {
  it('first sign-in creates the account with the roles of its groups; each sign-in applies them again', async () => {
    const email = `chu-${Date.now()}@hospital.example`;
    keycloak.accounts.set('kc-expert', {
      email,
      email_verified: true,
      given_name: 'Camille',
      family_name: 'Durand',
      groups: ['sutura-experts', 'unrelated'],
    });
    const { res } = await signInAs(keycloak, 'chu', 'kc-expert');
    const pendingKey = cookieValue(res.headers['set-cookie'], 'sutura_sso_pending');
    expect((await pendingCall('GET', '', pendingKey)).json().data).toMatchObject({ kind: 'signUp', email, firstName: 'Camille' });
    const done = await pendingCall('POST', '/complete', pendingKey, {
      specialtyId: await ctx.specialtyId(),
      acceptTerms: true,
      acceptPrivacy: true,
    });
    expect(done.json().data.roles).toEqual(['expert']);

    // The groups change at the provider: the roles follow at the next sign-in.
    keycloak.accounts.set('kc-expert', { ...keycloak.accounts.get('kc-expert'), groups: ['sutura-admins'] });
    const { res: second } = await signInAs(keycloak, 'chu', 'kc-expert');
    const token = cookieValue(second.headers['set-cookie'], 'sutura_session');
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token })).json().data.roles).toEqual(['administrator']);

    // Administrators see the mapping and the person's identities.
    const view = await ctx.inject({ method: 'GET', url: '/v1/admin/sso', token });
    expect(view.json().data.providers[1]).toMatchObject({ id: 'chu', roles: { claim: 'groups' } });
    expect(view.json().data.callbackUrl).toBe(`${PUBLIC_URL}/v1/auth/sso/{id}/callback`);
    const userId = done.json().data.userId;
    const seen = await ctx.inject({ method: 'GET', url: `/v1/admin/users/${userId}/identities`, token });
    expect(seen.json().data.identities).toMatchObject([{ provider: { id: 'chu' }, rolesFromProvider: true, email }]);

    // Without the administrators' group, the last administrator keeps the role all the same.
    const [others] = await ctx.database.db
      .select({ n: count() })
      .from(users)
      .where(sql`'administrator' = ANY(${users.roles})`);
    expect(others!.n).toBe(1);
    keycloak.accounts.set('kc-expert', { ...keycloak.accounts.get('kc-expert'), groups: ['sutura-experts'] });
    const { res: third } = await signInAs(keycloak, 'chu', 'kc-expert');
    const again = cookieValue(third.headers['set-cookie'], 'sutura_session');
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token: again })).json().data.roles.sort()).toEqual([
      'administrator',
      'expert',
    ]);
  });

  it('an existing account with the same verified email is linked after its password', async () => {
    const holder = await ctx.createUser('editor');
    keycloak.accounts.set('kc-holder', { email: holder.email, email_verified: true, given_name: 'A', family_name: 'B', groups: [] });
    const { res } = await signInAs(keycloak, 'chu', 'kc-holder');
    const pendingKey = cookieValue(res.headers['set-cookie'], 'sutura_sso_pending');
    expect((await pendingCall('GET', '', pendingKey)).json().data.kind).toBe('link');
    const linked = await pendingCall('POST', '/link', pendingKey, { password: holder.password });
    expect(linked.json().data.userId).toBe(holder.id);
    // The provider maps no group of theirs: learner.
    expect(linked.json().data.roles).toEqual(['learner']);
  });

  it('authenticates the client with private_key_jwt when configured so', async () => {
    keyed.accounts.set('kc-keyed', { email: `keyed-${Date.now()}@hospital.example`, email_verified: true, groups: [] });
    const { res } = await signInAs(keyed, 'keyed', 'kc-keyed');
    expect(res.headers.location).toBe('/auth/sso');
  });

  it('refuses an unverified email', async () => {
    keycloak.accounts.set('kc-unverified', { email: 'unverified@hospital.example', email_verified: false, groups: [] });
    await expectRefused(async () => (await signInAs(keycloak, 'chu', 'kc-unverified')).res, 'SSO_EMAIL_UNVERIFIED');
  });
});

describe('refusals of the protocol', () => {
  const account = 'kc-protocol';
  beforeAll(() => {
    keycloak.accounts.set(account, { email: 'protocol@hospital.example', email_verified: true, groups: [] });
  });

  it('refuses a wrong state', async () => {
    keycloak.nextAccount = account;
    const { location, key } = await start('chu');
    const back = new URL(await browseProvider(location, PUBLIC_URL));
    back.searchParams.set('state', 'forged-state-value-0123456789');
    await expectRefused(() => callback(back.href, key), 'SSO_STATE_INVALID');
  });

  it('refuses a callback without the browser that started it (no cookie)', async () => {
    keycloak.nextAccount = account;
    const { location } = await start('chu');
    const back = await browseProvider(location, PUBLIC_URL);
    await expectRefused(() => callback(back, undefined), 'SSO_STATE_INVALID');
  });

  it('refuses a replayed code', async () => {
    const first = await signInAs(keycloak, 'chu', account);
    expect(first.res.headers.location).toBe('/auth/sso');
    // The same answer again: the sign-in it belonged to is spent.
    await expectRefused(() => callback(first.back, first.key), 'SSO_STATE_INVALID');
    // The code in another sign-in of the same browser: the provider refuses it (used, and another PKCE).
    const { key, location } = await start('chu');
    const state = new URL(location).searchParams.get('state')!;
    const replay = new URL(first.back);
    replay.searchParams.set('state', state);
    await expectRefused(() => callback(replay.href, key), 'SSO_PROVIDER_REFUSED');
  });

  const tampered: [string, (p: TestProvider) => (idToken: string) => Promise<string>][] = [
    ['a wrong nonce', (p) => (t) => p.resign(t, (c) => ({ ...c, nonce: 'another-nonce' }))],
    ['a wrong issuer', (p) => (t) => p.resign(t, (c) => ({ ...c, iss: 'https://evil.example' }))],
    ['a wrong audience', (p) => (t) => p.resign(t, (c) => ({ ...c, aud: 'another-client' }))],
    [
      'an expired ID token',
      (p) => (t) => p.resign(t, (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })),
    ],
    [
      'an ID token issued a day in the future',
      (p) => (t) =>
        p.resign(t, (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) + 86_400, exp: Math.floor(Date.now() / 1000) + 87_000 })),
    ],
    [
      'an ID token issued beyond the clock difference tolerated (30 s)',
      (p) => (t) => p.resign(t, (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) + 90 })),
    ],
    ['a badly signed ID token', (p) => (t) => p.forge(t)],
    ['an ID token with alg none', (p) => async (t) => p.unsigned(t)],
  ];
  for (const [name, tamper] of tampered) {
    it(`refuses ${name}`, async () => {
      keycloak.tamper = tamper(keycloak);
      try {
        await expectRefused(async () => (await signInAs(keycloak, 'chu', account)).res, 'SSO_TOKEN_INVALID');
      } finally {
        keycloak.tamper = undefined;
      }
    });
  }

  it('accepts an ID token issued a few seconds ahead, within the clock difference tolerated', async () => {
    keycloak.tamper = (t) => keycloak.resign(t, (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) + 10 }));
    try {
      const { res } = await signInAs(keycloak, 'chu', account);
      expect(res.headers.location).toBe('/auth/sso');
    } finally {
      keycloak.tamper = undefined;
    }
  });

  it('refuses while the provider is unreachable', async () => {
    await expectRefused(() => ctx.inject({ method: 'GET', url: '/v1/auth/sso/down/start' }), 'SSO_PROVIDER_UNREACHABLE');
  });

  it('answers an expired or absent pending identity with its catalogue error', async () => {
    const res = await pendingCall('GET', '', 'no-such-key');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('SSO_PENDING_EXPIRED');
  });
});

describe('access', () => {
  it('needs a session for identities, an administrator for the admin views, and the person’s own identity', async () => {
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me/identities' })).statusCode).toBe(401);
    const learner = await ctx.createUser('learner');
    expect((await ctx.inject({ method: 'GET', url: '/v1/admin/sso', token: learner.token })).statusCode).toBe(403);
    expect((await ctx.inject({ method: 'GET', url: `/v1/admin/users/${learner.id}/identities`, token: learner.token })).statusCode).toBe(
      403,
    );
    const [someone] = await ctx.database.db.select().from(ssoIdentities).limit(1);
    const other = await ctx.inject({ method: 'DELETE', url: `/v1/users/profile/me/identities/${someone!.id}`, token: learner.token });
    expect(other.statusCode).toBe(404);
    expect(await ctx.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.id, someone!.id))).toHaveLength(1);
  });
});

describe('SSO-only installation', () => {
  let only: TestContext;
  beforeAll(async () => {
    only = await createTestContext({
      databaseOf: ctx,
      workers: false,
      env: {
        PUBLIC_URL,
        OIDC_PROVIDERS: JSON.stringify([
          {
            id: 'chu',
            name: { fr: 'CHU', en: 'CHU' },
            issuer: keycloak.issuer,
            clientId: keycloak.clientId,
            clientSecret: keycloak.clientSecret,
          },
        ]),
        SSO_ONLY: 'on',
        SSO_BREAK_GLASS_EMAIL: 'Break.Glass@example.org',
      },
    });
  });
  afterAll(async () => {
    await only?.close();
  });

  it('turns password sign-in and sign-up off, except for the break-glass administrator', async () => {
    expect((await only.inject({ method: 'GET', url: '/v1/auth/sso' })).json().data.passwordSignIn).toBe(false);
    const person = await ctx.createUser('learner');
    const refused = await only.inject({ method: 'POST', url: '/v1/auth', body: { email: person.email, password: person.password } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PASSWORD_SIGN_IN_OFF');
    const signUp = await only.inject({ method: 'POST', url: '/v1/users', body: await ctx.signUpBody(SAMPLE_PEOPLE[2], 'new@example.org') });
    expect(signUp.json().error.code).toBe('PASSWORD_SIGN_IN_OFF');
    expect(await ctx.database.db.select().from(users).where(eq(users.email, 'new@example.org'))).toHaveLength(0);

    await ctx.createUser('administrator', { email: 'break.glass@example.org' });
    const breakGlass = await only.inject({
      method: 'POST',
      url: '/v1/auth',
      body: { email: 'break.glass@example.org', password: 'password123' },
    });
    expect(breakGlass.statusCode).toBe(200);
  });

  it('refuses a configuration that names no provider, or a bad one, at start', async () => {
    const { loadConfig } = await import('../src/config.ts');
    expect(() => loadConfig({ DATA_DIR: ctx.dataDir, SSO_ONLY: 'on' })).toThrow(/SSO_ONLY: needs at least one provider/);
    expect(() => loadConfig({ DATA_DIR: ctx.dataDir, OIDC_PROVIDERS: '[{"id":"Bad Id"}]' })).toThrow(/OIDC_PROVIDERS\[0\.id\]/);
    expect(() =>
      loadConfig({
        DATA_DIR: ctx.dataDir,
        OIDC_PROVIDERS: JSON.stringify([
          { id: 'x', name: { fr: 'X', en: 'X' }, issuer: 'http://idp.example', clientId: 'c', clientSecret: 's' },
        ]),
      }),
    ).toThrow(/must be https/);
  });
});
