// @database-server: LISTEN/NOTIFY under the socket.io PostgreSQL adapter
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSchema, SOCKET_EVENTS, type Notification } from '@sutura/domain/notifications';
import { createTestContext, type TestContext } from './harness.ts';

let ctx: TestContext;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ listen: true, workers: false });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await ctx?.close();
});

type Person = Awaited<ReturnType<TestContext['createUser']>>;

/** A connected client that records every notification it is pushed. */
async function connect(token: string | undefined) {
  const socket = io(`http://127.0.0.1:${port}`, {
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const received: Notification[] = [];
  socket.on(SOCKET_EVENTS.notificationReceived, (payload: Notification) => received.push(payload));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

/** Asks the server to restart and waits for its answer, so every event sent before is handled. */
function roundTrip(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no RESTART_CONNECTION answer')), 5000);
    socket.once(SOCKET_EVENTS.restartConnection, () => {
      clearTimeout(timer);
      resolve();
    });
    socket.emit(SOCKET_EVENTS.restartConnection);
  });
}

/** INITIALIZE, acknowledged once the socket sits in its rooms (or was refused). */
async function initialize(socket: Socket, id: string): Promise<void> {
  await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.initialize, { id });
}

function waitFor<T>(list: T[], count: number, timeoutMs = 5000): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (list.length >= count) return resolve(list);
      if (Date.now() > deadline) return reject(new Error(`expected ${count} events, got ${list.length}`));
      setTimeout(check, 20);
    };
    check();
  });
}

describe('realtime notifications', () => {
  let alice: Person;
  let bob: Person;
  beforeAll(async () => {
    alice = await ctx.createUser('learner', { preferences: { langCode: 'en', theme: 'auto', showRatings: true } });
    bob = await ctx.createUser('expert');
  });

  it('answers RESTART_CONNECTION with RESTART_CONNECTION', async () => {
    const { socket } = await connect(alice.token);
    await expect(roundTrip(socket)).resolves.toBeUndefined();
  });

  it('pushes a new notification to the person who initialised with their own id', async () => {
    const { socket, received } = await connect(alice.token);
    await initialize(socket, alice.id);
    const sent = await ctx.services.notifications.notify(alice.id, 'contactSent', { subject: 'Live' }, '/dashboard');
    const [pushed] = await waitFor(received, 1);
    expect(notificationSchema.parse(pushed)).toEqual(sent);
    expect(pushed).toMatchObject({
      id: sent!.id,
      key: 'contactSent',
      content: 'Your message "Live" was sent to the support team, who will answer by email.',
      status: 'unread',
      link: '/dashboard',
    });
    // It is the notification the list then shows.
    const list = await ctx.inject({ method: 'GET', url: '/v1/notification/list', token: alice.token });
    expect(list.json().data.data[0].id).toBe(pushed!.id);
  });

  it('pushes nothing to a client that claims someone else’s id, or has no valid token', async () => {
    const own = await connect(alice.token);
    await initialize(own.socket, alice.id);
    const impostor = await connect(bob.token);
    await initialize(impostor.socket, alice.id);
    const anonymous = await connect(undefined);
    await initialize(anonymous.socket, alice.id);
    const forged = await connect(`${alice.token.slice(0, -4)}AAAA`);
    await initialize(forged.socket, alice.id);
    const garbage = await connect('not-a-token');
    await initialize(garbage.socket, alice.id);

    await ctx.services.notifications.notify(alice.id, 'passwordChanged');
    await waitFor(own.received, 1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(impostor.received).toEqual([]);
    expect(anonymous.received).toEqual([]);
    expect(forged.received).toEqual([]);
    expect(garbage.received).toEqual([]);

    // Bob's own notifications still reach him once he initialises with his id.
    await initialize(impostor.socket, bob.id);
    await ctx.services.notifications.notify(bob.id, 'passwordChanged');
    const [his] = await waitFor(impostor.received, 1);
    expect(his!.key).toBe('passwordChanged');
    expect(own.received.map((n) => n.key)).toEqual(['passwordChanged']);
  });
});

describe('role changes on open sockets', () => {
  it('moves a person’s open sockets to their new roles’ live events at once, and tells their clients', async () => {
    const admin = await ctx.createUser('administrator');
    const learner = await ctx.createUser('learner');
    const editor = await ctx.createUser('editor');
    const open = async (person: Person) => {
      const client = await connect(person.token);
      const dashboard: unknown[] = [];
      const session: unknown[] = [];
      client.socket.on(SOCKET_EVENTS.dashboardChanged, (payload: unknown) => dashboard.push(payload));
      client.socket.on(SOCKET_EVENTS.sessionChanged, (payload: unknown) => session.push(payload ?? null));
      await initialize(client.socket, person.id);
      return { ...client, dashboard, session };
    };
    const becoming = await open(learner);
    const leaving = await open(editor);
    const bystander = await open(await ctx.createUser('editor'));
    // An event to every editor. Room events go through the adapter (a PostgreSQL round trip
    // first), so the test waits for the expected counts, then a while for any extra one.
    const counts = () => [becoming.dashboard.length, leaving.dashboard.length, bystander.dashboard.length];
    const toEditors = async (expected: number[]) => {
      ctx.services.dashboardEvents.changed({ users: [], roles: ['editor'] });
      const deadline = Date.now() + 5000;
      while (counts().some((n, i) => n < expected[i]!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(counts()).toEqual(expected);
    };
    await toEditors([0, 1, 1]);

    const setRoles = (person: Person, roles: string[]) =>
      ctx.inject({ method: 'PUT', url: `/v1/admin/users/${person.id}/roles`, token: admin.token, body: { roles } });
    expect((await setRoles(learner, ['learner', 'editor'])).statusCode).toBe(200);
    expect((await setRoles(editor, ['learner'])).statusCode).toBe(200);
    await waitFor(becoming.session, 1);
    await waitFor(leaving.session, 1);
    expect(bystander.session).toEqual([]);

    // Without reconnecting, the new editor hears the editors' events and the former one no longer does.
    await toEditors([1, 1, 2]);

    // Initialising again (as a client does after the server asks it to) keeps the roles of now.
    await initialize(becoming.socket, learner.id);
    await initialize(leaving.socket, editor.id);
    await toEditors([2, 1, 3]);

    // A change to the same roles writes nothing and tells nobody.
    expect((await setRoles(learner, ['editor', 'learner'])).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(becoming.session).toHaveLength(1);
  });
});
