import type { Socket } from 'socket.io-client';
import { SOCKET } from '@sutura/domain/limits';
import { readToken } from '@/lib/http';

/**
 * One websocket-only connection to the API's socket.io server on the same origin. The token is
 * read at every (re)connection, so a refreshed token is the one sent. The client is fetched at
 * the first connection, so the sign-in page does not load it.
 */
export async function connectSocket(): Promise<Socket> {
  const { io } = await import('socket.io-client');
  return io({
    path: '/socket.io',
    auth: (cb) => cb({ token: readToken() }),
    transports: ['websocket'],
    reconnection: true,
    reconnectionAttempts: SOCKET.reconnectionAttempts,
    reconnectionDelay: SOCKET.reconnectionDelay,
    reconnectionDelayMax: SOCKET.reconnectionDelayMax,
    timeout: SOCKET.timeout,
    randomizationFactor: SOCKET.randomizationFactor,
  });
}
