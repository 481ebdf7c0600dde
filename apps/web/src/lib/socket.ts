import { io, type Socket } from 'socket.io-client';
import { SOCKET } from '@sutura/domain/limits';

/** One websocket-only connection to the API's socket.io server on the same origin. */
export function connectSocket(token: string): Socket {
  return io({
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: true,
    reconnectionAttempts: SOCKET.reconnectionAttempts,
    reconnectionDelay: SOCKET.reconnectionDelay,
    reconnectionDelayMax: SOCKET.reconnectionDelayMax,
    timeout: SOCKET.timeout,
    randomizationFactor: SOCKET.randomizationFactor,
  });
}
