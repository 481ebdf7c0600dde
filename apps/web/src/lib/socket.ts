import type { Socket } from 'socket.io-client';
import { SOCKET } from '@sutura/domain/limits';

/**
 * One websocket-only connection to the API's socket.io server on the same origin. The browser
 * sends the session cookie with the handshake; the server accepts it from this origin only. The
 * client is fetched at the first connection, so the sign-in page does not load it.
 */
export async function connectSocket(): Promise<Socket> {
  const { io } = await import('socket.io-client');
  return io({
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: true,
    reconnectionAttempts: SOCKET.reconnectionAttempts,
    reconnectionDelay: SOCKET.reconnectionDelay,
    reconnectionDelayMax: SOCKET.reconnectionDelayMax,
    timeout: SOCKET.timeout,
    randomizationFactor: SOCKET.randomizationFactor,
  });
}
