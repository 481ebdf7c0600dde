import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { createTestContext, type TestContext } from './harness.ts';
import { videoForm } from './video-fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    workers: false,
    env: { RATE_LIMIT_AUTH_PER_MINUTE: '5', SIGN_IN_FAILURES_PER_ADDRESS: '8', RATE_LIMIT_LOOKUPS_PER_HOUR: '8' },
  });
});
afterAll(async () => {
  await ctx?.close();
});

/** A request from a given client address (the hospital's NAT, or somewhere else). */
function from(remoteAddress: string, method: 'POST' | 'PUT', url: string, body: unknown, token?: string) {
  return ctx.app.inject({
    method,
    url: `${url}${url.includes('?') ? '&' : '?'}langCode=en`,
    remoteAddress,
    payload: body as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

describe('password spraying from one address', () => {
  it('stops failed sign-ins on many different emails from one address, not other addresses', { timeout: 120_000 }, async () => {
    const victim = await ctx.createUser('learner');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await from('10.1.1.1', 'POST', '/v1/auth', { email: `spray${i}@example.org`, password: 'Summer2026' })).statusCode);
    }
    expect(statuses.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429, 429]);
    const limited = await from('10.1.1.1', 'POST', '/v1/auth', { email: victim.email, password: victim.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toEqual({ code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED.en });
    // Another address signs in as usual.
    expect((await from('10.2.2.2', 'POST', '/v1/auth', { email: victim.email, password: victim.password })).statusCode).toBe(200);
  });

  it('counts only failures: colleagues behind one address sign in all day', { timeout: 120_000 }, async () => {
    // More successful sign-ins (12) than the 8 failures the address is allowed; each email stays
    // under its own limit of 5 a minute.
    const colleagues = await Promise.all(Array.from({ length: 3 }, () => ctx.createUser('learner')));
    for (let round = 0; round < 4; round++) {
      for (const c of colleagues) {
        expect((await from('10.3.3.3', 'POST', '/v1/auth', { email: c.email, password: c.password })).statusCode).toBe(200);
      }
    }
  });
});

describe('signed-in routes are limited per person', () => {
  it('one person’s wrong password changes do not block a colleague behind the same address', { timeout: 120_000 }, async () => {
    const clumsy = await ctx.createUser('learner');
    const colleague = await ctx.createUser('learner');
    const change = (p: typeof clumsy, current: string) =>
      from(
        '10.4.4.4',
        'POST',
        '/v1/users/reset/setNewPassword',
        { currentPassword: current, password: 'another2026', confirmPassword: 'another2026' },
        p.token,
      );
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await change(clumsy, 'wrong-password1')).statusCode);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect((await change(colleague, colleague.password)).statusCode).toBe(200);
  });
});

describe('lookups that reveal an account', () => {
  it('limits reset requests from one address across emails, keeping the spec’s message until then', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await from('10.5.5.5', 'POST', '/v1/users/reset/send', { email: `who${i}@example.org` }));
    expect(answers.slice(0, 8).map((r) => r.json().error.message)).toEqual(Array(8).fill('No account was found with this email address'));
    expect(answers.slice(8).map((r) => r.statusCode)).toEqual([429, 429]);
    expect(Number(answers[9]!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits code resends from one address across emails', async () => {
    const statuses = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await from('10.6.6.6', 'POST', '/v1/users/verify/resend', { email: `who${i}@example.org` })).statusCode);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(404));
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it('limits sharing by email per person', async () => {
    const author = await ctx.createUser('learner');
    const video = await ctx.inject({ method: 'POST', url: '/v1/videos', token: author.token, body: await videoForm(ctx, 'pictures') });
    expect(video.statusCode, video.body).toBe(201);
    const id = video.json().data.id as string;
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(await from('10.7.7.7', 'POST', `/v1/videos/${id}/shares`, { email: `guess${i}@example.org` }, author.token));
    expect(answers.slice(0, 8).map((r) => r.json().error.code)).toEqual(Array(8).fill('SHARE_USER_NOT_FOUND'));
    expect(answers.slice(8).map((r) => r.statusCode)).toEqual([429, 429]);
  });
});
