import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import type { Logger } from 'pino';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import type { Authenticator } from '../http/access.ts';
import type { RealtimeHub } from '../modules/notifications/notifications.service.ts';

const room = (userId: string) => `user:${userId}`;
const roleRoom = (role: string) => `role:${role}`;

/**
 * The socket of SPEC §4: a client authenticates with its token, then `INITIALIZE {id}` joins
 * that person's room — only when the id is the token's own. With a PostgreSQL server the
 * rooms span every process through the PostgreSQL adapter.
 */
export async function createRealtime(opts: { server: HttpServer; auth: Authenticator; pool: pg.Pool | undefined; log: Logger }) {
  const io = new Server(opts.server, { serveClient: false, cors: { origin: false } });
  if (opts.pool) {
    await opts.pool.query(
      'CREATE TABLE IF NOT EXISTS socket_io_attachments (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)',
    );
    io.adapter(createAdapter(opts.pool));
  }

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const user = typeof token === 'string' ? await opts.auth.authenticate(token).catch(() => null) : null;
    socket.data.userId = user?.id ?? null;
    socket.data.roles = user?.roles ?? [];
    next();
  });

  io.on('connection', (socket) => {
    // A client that asks to restart is told to initialise again.
    socket.on(SOCKET_EVENTS.restartConnection, () => socket.emit(SOCKET_EVENTS.restartConnection));
    socket.on(SOCKET_EVENTS.initialize, async (payload: unknown) => {
      const id = (payload as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' || !socket.data.userId || socket.data.userId !== id) {
        opts.log.info({ socket: socket.id }, 'realtime: INITIALIZE refused');
        return;
      }
      for (const joined of socket.rooms) if (joined !== socket.id) await socket.leave(joined);
      await socket.join([room(id), ...(socket.data.roles as string[]).map(roleRoom)]);
    });
  });

  const hub: RealtimeHub = {
    emitToUser(userId, event, payload) {
      io.to(room(userId)).emit(event, payload);
    },
    emitToRole(role, event, payload) {
      io.to(roleRoom(role)).emit(event, payload);
    },
  };

  return {
    io,
    hub,
    /** Asks every client to initialise again, e.g. after this process restarts its adapter. */
    restartAll() {
      io.emit(SOCKET_EVENTS.restartConnection);
    },
    // io.close() expects an engine, which a detached server has none of: close the adapter alone.
    close: async () => {
      await io.of('/').adapter.close();
    },
  };
}

/**
 * For a process without HTTP (WORKERS=only): a socket.io server attached to nothing, whose
 * PostgreSQL adapter forwards every emit to the processes that hold the clients' sockets.
 */
export async function createRealtimeEmitter(pool: pg.Pool): Promise<{ hub: RealtimeHub; close: () => Promise<void> }> {
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
      emitToRole(role, event, payload) {
        io.to(roleRoom(role)).emit(event, payload);
      },
    },
    // io.close() expects an engine, which a detached server has none of: close the adapter alone.
    close: async () => {
      await io.of('/').adapter.close();
    },
  };
}
