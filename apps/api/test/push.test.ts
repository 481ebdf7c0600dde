import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

// The decryption half of RFC 8188, from the package web-push itself encrypts with.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

let ctx: TestContext;
let server: Server;
let base: string;
const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];

/** A push service of our own: `/gone/...` answers 410 as a real one does for an expired subscription. */
beforeAll(async () => {
  ctx = await createTestContext({ workers: false });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = req.url?.startsWith('/gone/') ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

/** A browser's subscription: its own P-256 key pair and auth secret. */
function device() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
}

async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Web Push', () => {
  it('delivers each notification to every device, encrypted for it and signed with the VAPID key', async () => {
    const learner = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
    const phone = device();
    const endpoint = `${base}/ok/${learner.id}`;
    const saved = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/save/pushtoken',
      token: learner.token,
      body: { pushToken: endpoint, keys: phone.keys },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    await ctx.services.notifications.notify(
      learner.id,
      'analysisSubmitted',
      { surgery: { fr: 'pyéloplastie', en: 'pyeloplasty' }, expert: 'Claire Dubois' },
      '/videos/abc',
    );
    const push = await waitFor(() => received.find((r) => r.path === `/ok/${learner.id}`));

    // VAPID (RFC 8292): a JWT for the push service's origin, signed by the key the web subscribed with.
    const auth = /^vapid t=([^,]+), k=(.+)$/.exec(String(push.headers.authorization));
    expect(auth, String(push.headers.authorization)).toBeTruthy();
    const [, jwt, k] = auth!;
    const health = await ctx.inject({ method: 'GET', url: '/v1/health' });
    expect(k).toBe(health.json().data.pushPublicKey);
    const point = Buffer.from(k!, 'base64url');
    const key = await importJWK(
      { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
      'ES256',
    );
    const { payload } = await jwtVerify(jwt!, key, { audience: base });
    expect(payload.sub).toBe('mailto:support@sutura.local');
    expect(payload.exp! * 1000).toBeGreaterThan(Date.now());

    // The payload opens only with the device's own keys.
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    const message = JSON.parse(
      ece.decrypt(push.body, { version: 'aes128gcm', privateKey: phone.ecdh, authSecret: phone.keys.auth }).toString(),
    );
    expect(message).toMatchObject({
      title: 'Sutura',
      body: 'Your video of pyeloplasty has been analysed by Claire Dubois: read the advice.',
      url: '/videos/abc',
    });

    // A forged signature does not verify.
    const forged = `${jwt!.slice(0, -6)}AAAAAA`;
    await expect(jwtVerify(forged, key, { audience: base })).rejects.toThrow();
  });

  it('forgets a device the push service says is gone, and one its person turns off', async () => {
    const learner = await ctx.createUser('learner');
    const gone = device();
    const kept = device();
    for (const [endpoint, keys] of [
      [`${base}/gone/${learner.id}`, gone.keys],
      [`${base}/ok/kept-${learner.id}`, kept.keys],
    ] as const) {
      const res = await ctx.inject({
        method: 'PUT',
        url: '/v1/users/save/pushtoken',
        token: learner.token,
        body: { pushToken: endpoint, keys },
      });
      expect(res.statusCode).toBe(200);
    }
    await ctx.services.notifications.notify(learner.id, 'videoReady', { surgery: { fr: 'colectomie', en: 'colectomy' } });
    const rows = await waitFor(async () => {
      const left = await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, learner.id));
      return left.length === 1 ? left : undefined;
    });
    expect(rows[0]!.endpoint).toBe(`${base}/ok/kept-${learner.id}`);

    const off = await ctx.inject({
      method: 'DELETE',
      url: '/v1/users/save/pushtoken',
      token: learner.token,
      body: { pushToken: `${base}/ok/kept-${learner.id}` },
    });
    expect(off.statusCode).toBe(200);
    expect(await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, learner.id))).toEqual([]);
  });

  it('refuses a subscription whose endpoint is not a web address', async () => {
    const learner = await ctx.createUser('learner');
    const res = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/save/pushtoken',
      token: learner.token,
      body: { pushToken: 'file:///etc/passwd', keys: device().keys },
    });
    expect(res.statusCode).toBe(400);
    expect(await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, learner.id))).toEqual([]);
    const profile = await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: learner.token });
    expect(profile.json().data.pushToken).toBeNull();
  });
});
