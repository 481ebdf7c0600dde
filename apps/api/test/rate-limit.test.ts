import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@sutura/domain/errors';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' }, workers: false });
});
afterAll(async () => {
  await ctx?.close();
});

describe('rate limits on guessable endpoints', () => {
  it('answers the 4th sign-in attempt on one account within a minute with 429, in both languages', async () => {
    const person = await ctx.createUser('learner');
    // createUser signed in once already: that counts as the first attempt of the minute.
    const attempts = [];
    for (const email of [person.email, person.email.toUpperCase()]) {
      attempts.push(await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email, password: 'wrong-guess1' } }));
    }
    expect(attempts.map((r) => r.statusCode)).toEqual([401, 401]);

    const limited = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: person.email, password: 'wrong-guess2' } });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED.fr } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const en = await ctx.inject({ method: 'POST', url: '/v1/auth?langCode=en', body: { email: person.email, password: 'wrong-guess3' } });
    expect(en.json()).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED.en } });

    // Even the right password waits: the limit stops guessing, not only wrong guesses.
    const right = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: person.email, password: person.password } });
    expect(right.statusCode).toBe(429);

    // Another account from the same address is not blocked.
    const other = await ctx.createUser('learner');
    expect(other.token).toEqual(expect.any(String));
    const otherWrong = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: other.email, password: 'wrong-guess1' } });
    expect(otherWrong.statusCode).toBe(401);
  });

  it('limits code checks per account the same way', async () => {
    const person = await ctx.createUser('learner');
    const codes = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        (await ctx.inject({ method: 'POST', url: '/v1/users/reset/check?langCode=en', body: { email: person.email, code: '12345678' } }))
          .statusCode,
      );
    }
    expect(codes).toEqual([400, 400, 400, 429]);
    const elsewhere = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/check',
      body: { email: 'someone.else@example.org', code: '12345678' },
    });
    expect(elsewhere.statusCode).toBe(400);
  });
});
