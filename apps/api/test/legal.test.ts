import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGAL_SETTINGS, missingLegalSettings } from '@sutura/domain/legal';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    workers: false,
    env: { LEGAL_OPERATOR_NAME: 'CHU de Lyon', LEGAL_DPO_CONTACT: 'dpo@chu-lyon.fr', LEGAL_HOST_NAME: '  ' },
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('the legal settings an installation has not set', () => {
  it('are listed to administrators, never to the people who read the texts', async () => {
    const admin = await ctx.createUser('administrator');
    const res = await ctx.inject({ method: 'GET', url: '/v1/legal/missing', token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    const { missing } = res.json().data as { missing: string[] };
    expect(missing).toEqual(LEGAL_SETTINGS.filter((s) => s !== 'LEGAL_OPERATOR_NAME' && s !== 'LEGAL_DPO_CONTACT'));
    // A blank value counts as unset.
    expect(missing).toContain('LEGAL_HOST_NAME');

    for (const role of ['learner', 'copil'] as const) {
      const person = await ctx.createUser(role);
      expect((await ctx.inject({ method: 'GET', url: '/v1/legal/missing', token: person.token })).statusCode).toBe(403);
    }
  });

  it('are none once every setting is there', () => {
    const all = Object.fromEntries(
      LEGAL_SETTINGS.map((s, i) => [
        s
          .slice(6)
          .toLowerCase()
          .replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
        `v${i}`,
      ]),
    );
    expect(missingLegalSettings(all)).toEqual([]);
  });
});
