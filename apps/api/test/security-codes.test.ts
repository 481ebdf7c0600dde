import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_DAILY_GUESS_BUDGET, CODE_LENGTH, CODE_MAX_ATTEMPTS } from '@sutura/domain/limits';
import { codeWaitMs } from '../src/modules/auth/codes.ts';
import { codeFromMail, createTestContext, SAMPLE_PEOPLE, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const wrongOf = (code: string) => (code === '0'.repeat(CODE_LENGTH) ? '1' : '0').repeat(CODE_LENGTH);
const post = (url: string, body: unknown) => ctx.inject({ method: 'POST', url: `${url}?langCode=en`, body });

describe('guessing reset codes by cycling new ones', () => {
  it('locks each code after 5 wrong tries, makes the next code wait, and tells the holder once per block', async () => {
    const person = await ctx.createUser('learner');
    expect((await post('/v1/users/reset/send', { email: person.email })).statusCode).toBe(200);
    const code = codeFromMail((await ctx.waitForMail(person.email)).text);
    const answers: string[] = [];
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++)
      answers.push((await post('/v1/users/reset/check', { email: person.email, code: wrongOf(code) })).json().error.code);
    expect(answers).toEqual(['CODE_INVALID', 'CODE_INVALID', 'CODE_INVALID', 'CODE_INVALID', 'CODE_LOCKED']);

    // The holder is told their reset is paused.
    const notice = await ctx.waitForMail(person.email, { after: 1 });
    expect(notice.text).toMatch(/paused|suspendus/);

    // Asking again at once gives no fresh tries: the account waits.
    const again = await post('/v1/users/reset/send', { email: person.email });
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe('CODE_WAIT');
    expect(again.json().error.message).toMatch(/in 15 min$/);
  });

  it('allows at most 45 wrong tries in a whole year of trying, a chance under one in a million', async () => {
    const person = await ctx.createUser('learner');
    const yearMs = 365 * 24 * 3600_000;
    let elapsed = 0;
    let guesses = 0;
    let blocked = 0;
    while (elapsed < yearMs) {
      let code: string;
      try {
        code = await ctx.services.codes.issue(person.id, 'reset');
      } catch (err) {
        expect((err as { code?: string }).code).toBe('CODE_WAIT');
        const at = await ctx.services.codes.nextCodeAt(person.id, 'reset', ctx.clock.now);
        const jump = Math.max(60_000, (at?.getTime() ?? 0) - ctx.clock.now.getTime());
        ctx.clock.advance(jump);
        elapsed += jump;
        continue;
      }
      for (;;) {
        const answer = await ctx.services.codes.check(person.id, 'reset', wrongOf(code), false).catch((err: { code: string }) => err.code);
        if (answer === 'CODE_INVALID') guesses += 1;
        else {
          if (answer === 'CODE_LOCKED') guesses += 1;
          blocked += 1;
          break;
        }
      }
    }
    ctx.clock.advance(-elapsed);
    expect(blocked).toBeGreaterThan(1);
    expect(guesses).toBeLessThanOrEqual(45);
    expect(guesses / 10 ** CODE_LENGTH).toBeLessThan(1e-6);
  });

  it('caps wrong tries per day across codes', async () => {
    const person = await ctx.createUser('learner');
    let guesses = 0;
    let advanced = 0;
    for (let round = 0; round < 4; round++) {
      const code = await ctx.services.codes.issue(person.id, 'reset').catch(() => undefined);
      if (code) {
        for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
          const answer = await ctx.services.codes
            .check(person.id, 'reset', wrongOf(code), false)
            .catch((err: { code: string }) => err.code);
          if (answer === 'CODE_WAIT') break;
          guesses += 1;
        }
      }
      ctx.clock.advance(codeWaitMs(round + 1));
      advanced += codeWaitMs(round + 1);
    }
    ctx.clock.advance(-advanced);
    expect(guesses).toBe(CODE_DAILY_GUESS_BUDGET);
  });

  it('a person who mistypes once and then gives the right code is not made to wait', async () => {
    const person = await ctx.createUser('learner');
    await post('/v1/users/reset/send', { email: person.email });
    const code = codeFromMail((await ctx.waitForMail(person.email)).text);
    expect((await post('/v1/users/reset/check', { email: person.email, code: wrongOf(code) })).json().error.code).toBe('CODE_INVALID');
    const set = await post('/v1/users/reset/checkAndSet', {
      email: person.email,
      code,
      password: 'newpassword9',
      confirmPassword: 'newpassword9',
    });
    expect(set.statusCode).toBe(200);
    expect((await post('/v1/users/reset/send', { email: person.email })).statusCode).toBe(200);
  });

  it('guards the sign-up validation code the same way', async () => {
    const email = 'cycle-verify@example.org';
    expect((await post('/v1/users', await ctx.signUpBody(SAMPLE_PEOPLE[1], email))).statusCode).toBe(201);
    const code = codeFromMail((await ctx.waitForMail(email)).text);
    const answers: string[] = [];
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++)
      answers.push((await post('/v1/users/verify', { email, code: wrongOf(code) })).json().error.code);
    expect(answers.at(-1)).toBe('CODE_LOCKED');
    const resend = await post('/v1/users/verify/resend', { email });
    expect(resend.statusCode).toBe(429);
    expect(resend.json().error.code).toBe('CODE_WAIT');
  });
});
