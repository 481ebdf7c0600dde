import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import type { Logger } from 'pino';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { ROLES, type Role } from '@sutura/domain/roles';
import { sessionCookieToken, type Authenticator } from '../http/access.ts';
import type { RealtimeHub, RoleRooms } from '../modules/notifications/notifications.service.ts';

const room = (userId: string) => `user:${userId}`;
/** Every socket sits in its session's room from connection on, so that the session can close it. */
const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** setTimeout's largest delay; a longer session is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function disconnector(io: Server) {
  return (sessionIds: string[]) => {
    for (const id of sessionIds) io.in(sessionRoom(id)).disconnectSockets(true);
  };
}

/**
 * The token a client opened its socket with: its `auth.token` (API clients), else the web app's
 * session cookie — only from a page of this same origin, since a browser sends the cookie with a
 * websocket opened by any page.
 */
function socketToken(auth: unknown, headers: IncomingHttpHeaders): string | null {
  const token = (auth as { token?: unknown } | undefined)?.token;
  if (typeof token === 'string' && token) return token;
  return sameOrigin(headers) ? (sessionCookieToken(headers.cookie) ?? null) : null;
}

function sameOrigin(headers: IncomingHttpHeaders): boolean {
  try {
    return !!headers.origin && new URL(headers.origin).host === headers.host;
  } catch {
    return false;
  }
}
const roleRoom = (role: string) => `role:${role}`;

/**
 * A person's roles changed: their sockets (on every process, through the adapter) move to the
 * rooms of the new roles at once, then their clients are told to fetch the session again.
 */
function roleMover(io: Server) {
  return async (userId: string, roles: readonly Role[]) => {
    // The adapter tells the other processes, then moves this process's sockets: awaited, so that
    // a client told its session changed already hears its new roles' events, and no longer its
    // former ones (the NOTIFY of the move is sent before the one of the message).
    const adapter = io.of('/').adapter;
    const whose = { rooms: new Set([room(userId)]), except: new Set<string>() };
    try {
      await (adapter.delSockets(whose, ROLES.filter((r) => !roles.includes(r)).map(roleRoom)) as void | Promise<void>);
      if (roles.length) await (adapter.addSockets(whose, roles.map(roleRoom)) as void | Promise<void>);
    } finally {
      io.to(room(userId)).emit(SOCKET_EVENTS.sessionChanged);
    }
  };
}

/**
 * The socket of SPEC §4: a client authenticates with its token, then `INITIALIZE {id}` joins
 * that person's room — only when the id is the token's own. The rooms span every process on
 * the same database through the PostgreSQL adapter (embedded server or DATABASE_URL alike).
 */
export async function createRealtime(opts: {
  server: HttpServer;
  auth: Authenticator & { rolesOf(userId: string): Promise<Role[] | null> };
  pool: pg.Pool;
  log: Logger;
}) {
  const io = new Server(opts.server, { serveClient: false, cors: { origin: false } });
  await opts.pool.query(
    'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)',
  );
  io.adapter(createAdapter(opts.pool));

  io.use(async (socket, next) => {
    const token = socketToken(socket.handshake.auth, socket.handshake.headers);
    const user = token ? await opts.auth.authenticate(token).catch(() => null) : null;
    socket.data.userId = user?.id ?? null;
    socket.data.sessionId = user?.sessionId ?? null;
    next();
  });

  io.on('connection', (socket) => {
    const sessionId = socket.data.sessionId as string | null;
    if (sessionId) void socket.join(sessionRoom(sessionId));

    // A socket lives as long as the session it was opened with (a refresh extends the session;
    // the socket does not need the new token). When the session's end comes, it is checked
    // again and the socket closed unless a refresh moved it; a revocation closes it at once.
    let timer: NodeJS.Timeout | undefined;
    const alive = async () => (sessionId ? await opts.auth.sessionEndsAt(sessionId).catch(() => null) : null);
    const schedule = (endsAt: Date | null) => {
      if (!endsAt) return socket.disconnect(true);
      timer = setTimeout(() => void alive().then(schedule), Math.min(MAX_TIMER_MS, Math.max(0, endsAt.getTime() - Date.now()) + 500));
      timer.unref();
    };
    if (sessionId) void alive().then(schedule);
    socket.on('disconnect', () => clearTimeout(timer));

    // A client that asks to restart is told to initialise again.
    socket.on(SOCKET_EVENTS.restartConnection, () => socket.emit(SOCKET_EVENTS.restartConnection));
    // A client may pass an acknowledgement: it is called once the socket sits in its rooms (or was refused).
    socket.on(SOCKET_EVENTS.initialize, async (payload: unknown, ack?: unknown) => {
      const done = () => (typeof ack === 'function' ? (ack as () => void)() : undefined);
      const id = (payload as { id?: unknown } | undefined)?.id;
      const userId = socket.data.userId as string | null;
      if (typeof id !== 'string' || !userId || !sessionId || userId !== id) {
        opts.log.info({ socket: socket.id }, 'realtime: INITIALIZE refused');
        return done();
      }
      // The session may have ended since the connection: checked again before joining. The
      // person's roles are those of now, not of the connection: an administrator may have changed them.
      const [endsAt, roles] = await Promise.all([alive(), opts.auth.rolesOf(userId).catch(() => null)]);
      if (!endsAt) {
        opts.log.info({ socket: socket.id }, 'realtime: session ended, socket closed');
        socket.disconnect(true);
        return done();
      }
      for (const joined of socket.rooms) if (joined !== socket.id && joined !== sessionRoom(sessionId)) await socket.leave(joined);
      await socket.join([room(id), ...(roles ?? []).map(roleRoom)]);
      done();
    });
  });

  const hub: RealtimeHub & RoleRooms = {
    emitToUser(userId, event, payload) {
      io.to(room(userId)).emit(event, payload);
    },
    disconnectSessions: disconnector(io),
    emitToRole(role, event, payload) {
      io.to(roleRoom(role)).emit(event, payload);
    },
    rolesChanged: roleMover(io),
  };

  return {
    io,
    hub,
    /** Asks every client to initialise again, e.g. after this process restarts its adapter. */
    restartAll() {
      io.emit(SOCKET_EVENTS.restartConnection);
    },
    /** Sockets connected to this process. */
    count: () => io.engine.clientsCount,
    /**
     * On shutdown: every connection of this process is closed at the transport, which clients
     * take as a lost connection and reconnect, through the proxy, to a process still running
     * (a server-side `disconnect` would tell them not to come back).
     */
    drain() {
      for (const socket of io.of('/').sockets.values()) socket.conn.close();
    },
    close: async () => {
      await io.of('/').adapter.close();
    },
  };
}

/**
 * For a process without HTTP (WORKERS=only): a socket.io server attached to nothing, whose
 * PostgreSQL adapter forwards every emit to the processes that hold the clients' sockets.
 */
export async function createRealtimeEmitter(pool: pg.Pool): Promise<{ hub: RealtimeHub & RoleRooms; close: () => Promise<void> }> {
  await pool.query(
    'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)',
  );
  const io = new Server({ serveClient: false });
  io.adapter(createAdapter(pool));
  return {
    hub: {
      emitToUser(userId, event, payload) {
        io.to(room(userId)).emit(event, payload);
      },
      disconnectSessions: disconnector(io),
      emitToRole(role, event, payload) {
        io.to(roleRoom(role)).emit(event, payload);
      },
      rolesChanged: roleMover(io),
    },
    // io.close() expects an engine, which a detached server has none of: close the adapter alone.
    close: async () => {
      await io.of('/').adapter.close();
    },
  };
}
