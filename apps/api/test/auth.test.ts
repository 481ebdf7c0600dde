import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { users } from '../src/db/schema.ts';
import { codeFromMail, createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

/** Argon2id at the product's cost (the library's defaults: 64 MiB, three passes, four lanes), never the test people's. */
const PRODUCT_HASH = /^\$argon2id\$v=19\$m=65536,p=4,t=3\$/;
async function storedHash(email: string): Promise<string> {
  const [row] = await ctx.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email.toLowerCase()));
  return row!.hash;
}

/** Sign-up as typed by a person: the last name in lower case, years as the form sends them. */
function signUpBody(person: (typeof SAMPLE_PEOPLE)[number], email: string) {
  return ctx.signUpBody(person, email, {
    lastName: person.lastName.toLowerCase(),
    yearsOfExperience: '6',
    preferences: { theme: 'dark', langCode: 'en' },
  });
}

describe('sign-up, email validation and sign-in', () => {
  it('signs up with a person of the RPPS directory, validates the mailed code and signs in', async () => {
    const email = 'helene.lefevre@example.org';
    const res = await ctx.inject({ method: 'POST', url: '/v1/users', body: await signUpBody(SAMPLE_PEOPLE[0], email) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.email).toBe(email);
    expect(await storedHash(email)).toMatch(PRODUCT_HASH);

    // Not validated yet: sign-in is refused with a clear message.
    const early = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: 'robotic2026' } });
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe('EMAIL_NOT_VALIDATED');

    const mail = await ctx.waitForMail(email);
    expect(mail.text).toContain('Your Sutura validation code');
    const code = codeFromMail(mail.text);

    const wrong = await ctx.inject({
      method: 'POST',
      url: '/v1/users/verify',
      body: { email, code: code === '00000000' ? '11111111' : '00000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(ERRORS.CODE_INVALID.fr);

    const ok = await ctx.inject({ method: 'POST', url: '/v1/users/verify', body: { email, code } });
    expect(ok.statusCode, ok.body).toBe(200);
    const session = ok.json().data;
    expect(session.roles).toEqual(['learner']);
    expect(session.information).toEqual({ firstName: 'Hélène', lastName: 'lefèvre-durand' });
    expect(session.preferences).toMatchObject({ theme: 'dark', langCode: 'en' });

    const again = await ctx.inject({ method: 'POST', url: '/v1/users/verify?langCode=en', body: { email, code } });
    expect(again.json().error.message).toBe('Your email could not be validated');

    const login = await ctx.inject({
      method: 'POST',
      url: '/v1/auth',
      body: { email: 'Helene.Lefevre@example.org', password: 'robotic2026' },
    });
    expect(login.statusCode).toBe(200);
    const refreshed = await ctx.inject({ method: 'GET', url: '/v1/auth', token: login.json().data.token });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().data.userId).toBe(session.userId);
  });

  it('refuses a second account with the same email or the same RPPS number', async () => {
    const email = 'jf.marchand@example.org';
    expect((await ctx.inject({ method: 'POST', url: '/v1/users', body: await signUpBody(SAMPLE_PEOPLE[1], email) })).statusCode).toBe(201);
    const sameEmail = await ctx.inject({
      method: 'POST',
      url: '/v1/users?langCode=en',
      body: await signUpBody(SAMPLE_PEOPLE[2], email),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error.message).toBe('An account already exists with the email address entered');
    const sameRpps = await ctx.inject({
      method: 'POST',
      url: '/v1/users?langCode=en',
      body: await signUpBody(SAMPLE_PEOPLE[1], 'other@example.org'),
    });
    expect(sameRpps.statusCode).toBe(409);
    expect(sameRpps.json().error.message).toBe('An account already exists with this RPPS number');
  });

  it('answers every rule of SPEC §5 with its catalogue message and changes nothing', async () => {
    const body = {
      ...(await signUpBody(SAMPLE_PEOPLE[2], 'not-an-email')),
      password: 'short',
      confirmPassword: 'different',
      phone: '0612345678',
      yearsOfExperience: 'many',
      acceptTerms: false,
    };
    const res = await ctx.inject({ method: 'POST', url: '/v1/users', body, headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(res.statusCode).toBe(400);
    const messages = Object.fromEntries(res.json().error.details.map((d: { path: string; message: string }) => [d.path, d.message]));
    expect(messages).toMatchObject({
      email: 'Your email must be a valid email address',
      phone: 'The phone number is not in the correct format. Required format: +XX XXXXXXXXX',
      yearsOfExperience: 'This field must contain a number of years',
      acceptTerms: ERRORS.TERMS_REQUIRED.en,
    });
    expect(messages.password).toBe(ERRORS.PASSWORD_RULE.en);
    const mismatch = { ...(await signUpBody(SAMPLE_PEOPLE[2], 'eloise@example.org')), confirmPassword: 'different1' };
    const fr = await ctx.inject({ method: 'POST', url: '/v1/users?langCode=fr', body: mismatch });
    const frMessages = Object.fromEntries(fr.json().error.details.map((d: { path: string; message: string }) => [d.path, d.message]));
    expect(frMessages.confirmPassword).toBe('Les mots de passe ne correspondent pas');
    const login = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: 'not-an-email', password: 'x' } });
    expect(login.statusCode).toBe(400);
    // Nothing was created by the refused requests.
    const retry = await ctx.inject({ method: 'POST', url: '/v1/users', body: await signUpBody(SAMPLE_PEOPLE[2], 'eloise@example.org') });
    expect(retry.statusCode).toBe(201);
  });
});

describe('sign-in and sessions', () => {
  it('sets, beside the httpOnly session cookie, a readable companion without secret, and clears both on sign-out', async () => {
    const user = await ctx.createUser('learner');
    const cookieMode = { 'x-sutura-session': 'cookie' };
    const signedIn = await ctx.inject({
      method: 'POST',
      url: '/v1/auth',
      headers: cookieMode,
      body: { email: user.email, password: user.password },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const set = [signedIn.headers['set-cookie']].flat().map(String);
    const session = set.find((c) => c.startsWith('sutura_session='))!;
    const companion = set.find((c) => c.startsWith('sutura_signed_in='))!;
    expect(session).toMatch(/; HttpOnly/);
    // The page reads it to know there is a session to ask for; it says nothing else.
    expect(companion).toMatch(/^sutura_signed_in=1; Path=\/; SameSite=Strict; Max-Age=\d+$/);
    expect(companion).not.toMatch(/HttpOnly/);
    expect(/Max-Age=(\d+)/.exec(companion)![1]).toBe(/Max-Age=(\d+)/.exec(session)![1]);
    // The companion opens nothing: without the session cookie, no session.
    const companionOnly = await ctx.inject({ method: 'GET', url: '/v1/auth', headers: { ...cookieMode, cookie: 'sutura_signed_in=1' } });
    expect(companionOnly.statusCode).toBe(401);

    const cookie = session.split(';')[0]!;
    const out = await ctx.inject({ method: 'DELETE', url: '/v1/auth', headers: { ...cookieMode, cookie } });
    expect(out.statusCode, out.body).toBe(200);
    const cleared = [out.headers['set-cookie']].flat().map(String);
    expect(cleared.some((c) => c.startsWith('sutura_session=;') && c.includes('Max-Age=0'))).toBe(true);
    expect(cleared.some((c) => c.startsWith('sutura_signed_in=;') && c.includes('Max-Age=0'))).toBe(true);
  });

  it('refuses a wrong password with the catalogue message in the chosen language', async () => {
    const user = await ctx.createUser('learner');
    const en = await ctx.inject({ method: 'POST', url: '/v1/auth?langCode=en', body: { email: user.email, password: 'wrong-password1' } });
    expect(en.statusCode).toBe(401);
    expect(en.json()).toEqual({
      success: false,
      error: { code: 'INVALID_CREDENTIALS', message: 'Your email or password is incorrect, please try again' },
    });
    const fr = await ctx.inject({
      method: 'POST',
      url: '/v1/auth',
      body: { email: 'nobody@example.org', password: 'x1234567' },
      headers: { 'accept-language': 'fr-FR' },
    });
    expect(fr.json().error.message).toBe('Votre e-mail ou votre mot de passe est incorrect, veuillez réessayer');
  });

  it('follows the person’s language preference over Accept-Language', async () => {
    const user = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
    const res = await ctx.inject({
      method: 'GET',
      url: '/v1/notification/00000000-0000-4000-8000-000000000000',
      token: user.token,
      headers: { 'accept-language': 'fr' },
    });
    expect(res.statusCode).toBe(404);
    const del = await ctx.inject({
      method: 'DELETE',
      url: '/v1/notification/00000000-0000-4000-8000-000000000000',
      token: user.token,
      headers: { 'accept-language': 'fr' },
    });
    expect(del.json().error.message).toBe(ERRORS.NOT_FOUND.en);
  });

  it('revokes the token on sign-out', async () => {
    const user = await ctx.createUser('expert');
    expect((await ctx.inject({ method: 'DELETE', url: '/v1/auth', token: user.token })).statusCode).toBe(200);
    const after = await ctx.inject({ method: 'GET', url: '/v1/auth', token: user.token });
    expect(after.statusCode).toBe(401);
  });

  it('expires tokens and refreshes them with GET /auth', async () => {
    const user = await ctx.createUser('editor');
    ctx.clock.advance(ctx.config.tokenTtlHours * 3600_000 + 60_000);
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token: user.token })).statusCode).toBe(401);
    ctx.clock.advance(-(ctx.config.tokenTtlHours * 3600_000 + 60_000));
  });

  it('tells the person about a sign-in from a new device', async () => {
    const user = await ctx.createUser('learner');
    const login = await ctx.inject({
      method: 'POST',
      url: '/v1/auth',
      body: { email: user.email, password: user.password },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/605.1.15' },
    });
    expect(login.statusCode).toBe(200);
    const list = await ctx.inject({ method: 'GET', url: '/v1/notification/list?langCode=en', token: user.token });
    expect(list.json().data.data[0].content).toContain('New sign-in to your account from a new device (Safari, iOS)');
  });
});

describe('password reset and change', () => {
  it('resets a forgotten password with the mailed code', async () => {
    const user = await ctx.createUser('learner');
    const unknown = await ctx.inject({ method: 'POST', url: '/v1/users/reset/send?langCode=en', body: { email: 'ghost@example.org' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('No account was found with this email address');

    expect((await ctx.inject({ method: 'POST', url: '/v1/users/reset/send', body: { email: user.email } })).statusCode).toBe(200);
    const code = codeFromMail((await ctx.waitForMail(user.email)).text);
    const badFormat = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/check?langCode=en',
      body: { email: user.email, code: '12ab' },
    });
    expect(badFormat.json().error.message).toBe('The validation code must be a number of 8 digits');
    expect((await ctx.inject({ method: 'POST', url: '/v1/users/reset/check', body: { email: user.email, code } })).json().data).toEqual({
      valid: true,
    });
    const set = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/checkAndSet',
      body: { email: user.email, code, password: 'newpassword9', confirmPassword: 'newpassword9' },
    });
    expect(set.statusCode, set.body).toBe(200);
    // Existing sessions are signed out and the new password works.
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token: user.token })).statusCode).toBe(401);
    expect((await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: user.email, password: 'newpassword9' } })).statusCode).toBe(
      200,
    );
    // The code is used up.
    const reuse = await ctx.inject({ method: 'POST', url: '/v1/users/reset/check', body: { email: user.email, code } });
    expect(reuse.json().error.code).toBe('CODE_INVALID');
  });

  it('locks a code after 5 wrong tries and expires it after 15 minutes', async () => {
    const user = await ctx.createUser('learner');
    await ctx.inject({ method: 'POST', url: '/v1/users/reset/send', body: { email: user.email } });
    const code = codeFromMail((await ctx.waitForMail(user.email)).text);
    const wrong = code === '99999999' ? '99999998' : '99999999';
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push(
        (await ctx.inject({ method: 'POST', url: '/v1/users/reset/check', body: { email: user.email, code: wrong } })).json().error.code,
      );
    }
    expect(codes).toEqual(['CODE_INVALID', 'CODE_INVALID', 'CODE_INVALID', 'CODE_INVALID', 'CODE_LOCKED']);
    const locked = await ctx.inject({ method: 'POST', url: '/v1/users/reset/check', body: { email: user.email, code } });
    expect(locked.statusCode).toBe(429);

    // After a locked code, a new one waits until the locked one has expired (docs/security.md).
    ctx.clock.advance(15 * 60_000);
    await ctx.inject({ method: 'POST', url: '/v1/users/reset/send', body: { email: user.email } });
    const fresh = codeFromMail((await ctx.waitForMail(user.email, { after: 2 })).text);
    ctx.clock.advance(15 * 60_000 + 1000);
    const expired = await ctx.inject({ method: 'POST', url: '/v1/users/reset/check', body: { email: user.email, code: fresh } });
    ctx.clock.advance(-(30 * 60_000 + 1000));
    expect(expired.json().error.code).toBe('CODE_EXPIRED');
  });

  it('changes the password only with the current one, and signs out the other sessions', async () => {
    const user = await ctx.createUser('learner');
    const other = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: user.email, password: user.password } });
    const bad = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/setNewPassword?langCode=en',
      token: user.token,
      body: { currentPassword: 'nottheone1', password: 'brandnew12', confirmPassword: 'brandnew12' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('Your current password is incorrect');
    const good = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/setNewPassword',
      token: user.token,
      body: { currentPassword: user.password, password: 'brandnew12', confirmPassword: 'brandnew12' },
    });
    expect(good.statusCode).toBe(200);
    expect(await storedHash(user.email)).toMatch(PRODUCT_HASH);
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token: other.json().data.token })).statusCode).toBe(401);
    expect((await ctx.inject({ method: 'GET', url: '/v1/auth', token: good.json().data.token })).statusCode).toBe(200);
  });
});
