import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { sessions } from '../src/db/schema.ts';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
let port: number;
const opened: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ listen: true, workers: false, env: { TOKEN_GRACE_SECONDS: '2', SESSION_MAX_DAYS: '30' } });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of opened) s.close();
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

/** A socket opened with a token, initialised into its person's room; `closed` resolves when the server closes it. */
async function connect(token: string, userId: string) {
  const socket = io(`http://127.0.0.1:${port}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  opened.push(socket);
  const notifications: unknown[] = [];
  socket.on(SOCKET_EVENTS.notificationReceived, (n: unknown) => notifications.push(n));
  const closed = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  socket.emit(SOCKET_EVENTS.initialize, { id: userId });
  await roundTrip(socket);
  return { socket, notifications, closed };
}

function roundTrip(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once(SOCKET_EVENTS.restartConnection, () => resolve());
    socket.emit(SOCKET_EVENTS.restartConnection);
  });
}

const within = <T>(promise: Promise<T>, ms = 5000) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

async function secondSession(person: Person): Promise<string> {
  const res = await ctx.inject({ method: 'POST', url: '/v1/auth', body: { email: person.email, password: person.password } });
  return res.json().data.token as string;
}

describe('a session that ends closes its sockets', () => {
  it('sign-out closes the sockets of that session only', async () => {
    const person = await ctx.createUser('learner');
    const other = await secondSession(person);
    const here = await connect(person.token, person.id);
    const there = await connect(other, person.id);
    expect((await ctx.inject({ method: 'DELETE', url: '/v1/auth', token: person.token })).statusCode).toBe(200);
    expect(await within(here.closed)).toBe('io server disconnect');
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    // Emits go through the PostgreSQL adapter (the sockets may be on any process): the
    // notification arrives shortly after, not before the next round trip.
    await vi.waitFor(() => expect(there.notifications).toHaveLength(1), { timeout: 5000, interval: 50 });
    await roundTrip(there.socket);
    expect(there.socket.connected).toBe(true);
    expect(here.notifications).toHaveLength(0);
  });

  it('a password change closes every other session and its sockets; this device stays signed in', async () => {
    const person = await ctx.createUser('learner');
    const other = await secondSession(person);
    const here = await connect(person.token, person.id);
    const there = await connect(other, person.id);
    const change = await ctx.inject({
      method: 'POST',
      url: '/v1/users/reset/setNewPassword',
      token: person.token,
      body: { currentPassword: person.password, password: 'changed2026', confirmPassword: 'changed2026' },
    });
    expect(change.statusCode).toBe(200);
    expect(await within(there.closed)).toBe('io server disconnect');
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: other })).statusCode).toBe(401);
    // This device: the same session with a fresh token, and its socket still receives notifications.
    const fresh = change.json().data.token as string;
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: fresh })).statusCode).toBe(200);
    await ctx.services.notifications.notify(person.id, 'passwordChanged');
    await roundTrip(here.socket);
    expect(here.socket.connected).toBe(true);
    expect(here.notifications.length).toBeGreaterThanOrEqual(1);
  });

  it('account deletion closes every socket of the person', async () => {
    const person = await ctx.createUser('learner');
    const a = await connect(person.token, person.id);
    const b = await connect(await secondSession(person), person.id);
    const res = await ctx.inject({
      method: 'POST',
      url: '/v1/users/me/delete',
      token: person.token,
      body: { password: person.password, confirmation: 'SUPPRIMER' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await within(a.closed)).toBe('io server disconnect');
    expect(await within(b.closed)).toBe('io server disconnect');
  });

  it('a socket whose session expired is closed when it asks to join a room, and when its session ends', async () => {
    const person = await ctx.createUser('learner');
    const first = await connect(person.token, person.id);
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, person.id));
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, row!.id));
    first.socket.emit(SOCKET_EVENTS.initialize, { id: person.id });
    expect(await within(first.closed)).toBe('io server disconnect');

    // A session that ends while its socket is open: closed at the end, without any message.
    const other = await ctx.createUser('learner');
    const [session] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, other.id));
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 1500) })
      .where(eq(sessions.id, session!.id));
    const open = await connect(other.token, other.id);
    expect(await within(open.closed, 6000)).toBe('io server disconnect');
  });
});

describe('session lifetimes', () => {
  it('a refreshed token retires the one it replaced after a short grace', async () => {
    const person = await ctx.createUser('learner');
    const refreshed = await ctx.inject({ method: 'GET', url: '/v1/auth', token: person.token });
    const next = refreshed.json().data.token as string;
    expect(next).not.toBe(person.token);
    // Within the grace (2 s here) a request already in flight with the old token still passes.
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: person.token })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 2200));
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: person.token })).statusCode).toBe(401);
    expect((await ctx.inject({ method: 'GET', url: '/v1/users/profile/me', token: next })).statusCode).toBe(200);
  });

  it('a session ends 30 days after sign-in however often it is refreshed', async () => {
    const person = await ctx.createUser('learner');
    let token = person.token;
    let advanced = 0;
    for (let day = 0; day < 29; day += 6) {
      ctx.clock.advance(6 * 24 * 3600_000);
      advanced += 6 * 24 * 3600_000;
      const res = await ctx.inject({ method: 'GET', url: '/v1/auth', token });
      if (day + 6 < 30) {
        expect(res.statusCode, `day ${day + 6}`).toBe(200);
        token = res.json().data.token as string;
      }
    }
    ctx.clock.advance(24 * 3600_000);
    advanced += 24 * 3600_000;
    const late = await ctx.inject({ method: 'GET', url: '/v1/auth', token });
    ctx.clock.advance(-advanced);
    expect(late.statusCode).toBe(401);
  });
});
