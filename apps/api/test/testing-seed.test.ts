import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createTestContext } from './harness.ts';

/** The end-to-end suite's seeding route: present on a server started for the tests, absent elsewhere. */
describe('POST /v1/testing/people', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'sutura-seeding-'));

  it('cannot be turned on outside the test suite', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), TEST_SEEDING: 'on' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), TEST_SEEDING: 'on', NODE_ENV: 'production' })).toThrow(/TEST_SEEDING/);
    expect(loadConfig({ DATA_DIR: dataDir(), TEST_SEEDING: 'on', NODE_ENV: 'test' }).testSeeding).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir() }).testSeeding).toBe(false);
  });

  it('does not exist on a server of the product', async () => {
    const ctx = await createTestContext({ workers: false });
    try {
      const res = await ctx.inject({ method: 'POST', url: '/v1/testing/people', body: { people: [{ roles: ['administrator'] }] } });
      expect(res.statusCode).toBe(404);
      expect(ctx.routes.some((r) => r.url.startsWith('/v1/testing'))).toBe(false);
    } finally {
      await ctx.close();
    }
  });

  it('makes people of their own, each signing in with their roles, language and theme', async () => {
    const ctx = await createTestContext({ workers: false, env: { TEST_SEEDING: 'on', NODE_ENV: 'test' } });
    try {
      const res = await ctx.inject({
        method: 'POST',
        url: '/v1/testing/people',
        body: {
          people: [
            { key: 'learner', roles: ['learner'], firstName: 'Léa', lastName: 'Test', langCode: 'en', theme: 'dark' },
            { key: 'learner', roles: ['learner'] },
            { key: 'expert', roles: ['expert', 'administrator'] },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const people = (res.json() as { data: { people: { key: string; email: string; password: string }[] } }).data.people;
      expect(people.map((p) => p.key)).toEqual(['learner', 'learner', 'expert']);
      // Two people under one key are still two people.
      expect(new Set(people.map((p) => p.email)).size).toBe(3);
      const signIn = await ctx.inject({
        method: 'POST',
        url: '/v1/auth',
        body: { email: people[0]!.email, password: people[0]!.password },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const token = (signIn.json() as { data: { token: string } }).data.token;
      const me = await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token });
      expect(me.json()).toMatchObject({
        data: { roles: ['learner'], information: { firstName: 'Léa', lastName: 'Test' }, preferences: { langCode: 'en', theme: 'dark' } },
      });
      const expert = await ctx.inject({
        method: 'POST',
        url: '/v1/auth',
        body: { email: people[2]!.email, password: people[2]!.password },
      });
      expect(expert.json()).toMatchObject({ data: { roles: ['expert', 'administrator'] } });

      const bad = await ctx.inject({ method: 'POST', url: '/v1/testing/people', body: { people: [{ roles: ['surgeon'] }] } });
      expect(bad.statusCode).toBe(400);
    } finally {
      await ctx.close();
    }
  });
});
