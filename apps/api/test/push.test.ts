import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions, users } from '../src/db/schema.ts';
import { isPublicAddress, systemResolve, type ResolveHost } from '../src/modules/push/push-endpoint.ts';
import { createTestContext, type TestContext } from './harness.ts';

// The decryption half of RFC 8188, from the package web-push itself encrypts with.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(body: Buffer, params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

let ctx: TestContext;
let server: Server;
let base: string;
const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];

/**
 * Names the tests resolve themselves: a public push service, an intranet name, a name that turns
 * to loopback between subscription and sending (DNS rebinding), and a relay on loopback that only
 * this resolver knows. Other names go to the system resolver (`localhost`).
 */
const names: Record<string, string[]> = {
  'push.public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.10'],
  'rebind.example': ['93.184.216.34'],
  'push.relay.test': ['127.0.0.1'],
};
const resolve: ResolveHost = async (hostname) => {
  const known = names[hostname];
  if (!known) return systemResolve(hostname);
  return known.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/**
 * A push service of our own on loopback, trusted through PUSH_ALLOWED_HOSTS as an intranet relay
 * would be: `/gone/...` answers 410 as a real one does for an expired subscription, `/moved/...` a
 * redirect to a path that must never be asked for.
 */
beforeAll(async () => {
  ctx = await createTestContext({ workers: false, env: { PUSH_ALLOWED_HOSTS: '127.0.0.1, push.relay.test' }, pushResolve: resolve });
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url?.startsWith('/moved/')) {
        res.writeHead(307, { location: `/ok/redirected${req.url.slice('/moved'.length)}` });
        res.end();
        return;
      }
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

  it('refuses endpoints that are not https or that reach this server or its network, and saves nothing', async () => {
    const learner = await ctx.createUser('learner');
    const refused = [
      'http://push.public.example/send/1', // a public service, but not over https
      'https://127.0.0.2/send', // loopback (only 127.0.0.1 is trusted here)
      'https://localhost/send', // a name that resolves to loopback
      'https://[::1]/send',
      'https://169.254.169.254/latest/meta-data/', // cloud metadata, link-local
      'https://10.0.0.8/send', // private
      'https://172.16.5.4/send',
      'https://192.168.1.1/send',
      'https://intranet.example/send', // a name that resolves to a private address
      'https://mixed.example/send', // one public and one private address
      'https://0.0.0.0/send',
      'https://100.64.1.1/send', // CGNAT
      'https://[::ffff:127.0.0.1]/send', // IPv4-mapped IPv6
      'https://[::ffff:a9fe:a9fe]/send',
      'https://[64:ff9b::a00:1]/send', // NAT64 of 10.0.0.1
      'https://[fd12:3456::1]/send', // unique-local
      'https://[fe80::1]/send', // link-local
      'https://224.0.0.1/send', // multicast
      'https://[ff02::1]/send',
      'https://2130706434/send', // 127.0.0.2 in decimal
      'https://0x7f.0.0.3/send',
      'https://user:pass@push.public.example/send',
      'https://unknown-name.invalid/send',
    ];
    for (const endpoint of refused) {
      const res = await ctx.inject({
        method: 'PUT',
        url: '/v1/users/save/pushtoken',
        token: learner.token,
        body: { pushToken: endpoint, keys: device().keys },
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().error, endpoint).toMatchObject({
        code: 'PUSH_ENDPOINT_REFUSED',
        message: 'Notifications cannot be sent to this address: it must be an https address of a public push service',
        details: [{ path: 'pushToken', code: 'PUSH_ENDPOINT_REFUSED' }],
      });
    }
    expect(await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, learner.id))).toEqual([]);
    const [row] = await ctx.database.db.select({ pushToken: users.pushToken }).from(users).where(eq(users.id, learner.id));
    expect(row!.pushToken).toBeNull();

    const accepted = await ctx.inject({
      method: 'PUT',
      url: '/v1/users/save/pushtoken',
      token: learner.token,
      body: { pushToken: 'https://push.public.example/send/abc', keys: device().keys },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('checks the address again when sending: a name that turned to loopback gets nothing and is forgotten', async () => {
    const learner = await ctx.createUser('learner');
    let connections = 0;
    const trap = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    try {
      const { port } = trap.address() as AddressInfo;
      const saved = await ctx.inject({
        method: 'PUT',
        url: '/v1/users/save/pushtoken',
        token: learner.token,
        body: { pushToken: `https://rebind.example:${port}/send/${learner.id}`, keys: device().keys },
      });
      expect(saved.statusCode, saved.body).toBe(200);

      names['rebind.example'] = ['127.0.0.1'];
      await ctx.services.notifications.notify(learner.id, 'videoReady', { surgery: { fr: 'colectomie', en: 'colectomy' } });
      await waitFor(async () => {
        const left = await ctx.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, learner.id));
        return left.length === 0 ? true : undefined;
      });
      expect(connections).toBe(0);
    } finally {
      names['rebind.example'] = ['93.184.216.34'];
      await new Promise((r) => trap.close(r));
    }
  });

  it('connects to the address it checked, without a second lookup, and follows no redirect', async () => {
    const learner = await ctx.createUser('learner');
    const port = new URL(base).port;
    // Only the test's resolver knows this name: the message arrives only if the checked address is used.
    for (const endpoint of [`http://push.relay.test:${port}/ok/relay-${learner.id}`, `${base}/moved/${learner.id}`]) {
      const res = await ctx.inject({
        method: 'PUT',
        url: '/v1/users/save/pushtoken',
        token: learner.token,
        body: { pushToken: endpoint, keys: device().keys },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const delivered = await ctx.services.push.sendToUser(learner.id, { title: 'Sutura', body: 'test', url: null, tag: 't' });
    expect(delivered).toBe(1);
    const relayed = received.find((r) => r.path === `/ok/relay-${learner.id}`);
    expect(relayed?.headers.host).toBe(`push.relay.test:${port}`);
    expect(received.some((r) => r.path === `/moved/${learner.id}`)).toBe(true);
    expect(received.some((r) => r.path === `/ok/redirected/${learner.id}`)).toBe(false);
  });
});

describe('public addresses', () => {
  it('tells public addresses from every loopback, private, shared, link-local, multicast and reserved one', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '0.1.2.3',
      '10.9.8.7',
      '172.31.255.255',
      '192.168.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '169.254.169.254',
      '224.0.0.251',
      '239.255.255.250',
      '255.255.255.255',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::7f00:1',
      'fc00::1',
      'fdff:ffff::1',
      'fe80::1',
      'febf::1',
      'ff02::1',
      'ff05::1:3',
      '2001:db8::1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
