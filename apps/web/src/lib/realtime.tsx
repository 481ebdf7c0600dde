import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { Socket } from 'socket.io-client';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import { queryClient } from '@/lib/query';
import { useSession } from '@/lib/session';
import { afterFirstPaint } from '@/lib/first-paint';
import { connectSocket } from '@/lib/socket';

// The live socket, published outside React so any component can subscribe to its events.
let current: Socket | null = null;
const listeners = new Set<() => void>();

function publish(socket: Socket | null): void {
  current = socket;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSocket(): Socket | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** SPEC §4: connected while a person is signed in and not signing out. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { session, signingOut, refresh } = useSession();
  const userId = session?.userId;
  // Kept in a ref: a new session object must not reconnect the socket.
  const refreshRef = useRef(refresh);
  useEffect(() => {
    refreshRef.current = refresh;
  });

  useEffect(() => {
    if (!userId || signingOut) return;
    let socket: Socket | null = null;
    let closed = false;
    const initialize = () => socket?.emit(SOCKET_EVENTS.initialize, { id: userId });
    // Back after the connection dropped: a role change may have happened meanwhile.
    let connections = 0;
    const onConnect = () => {
      initialize();
      connections += 1;
      if (connections > 1) void refreshRef.current().catch((error: unknown) => console.error(error));
    };
    // An administrator changed the person's roles: the session (menu, pages) is fetched again,
    // the socket joins the live events of the new roles, and every screen refetches its data.
    const sessionChanged = () => {
      initialize();
      void refreshRef.current().then(
        () => queryClient.invalidateQueries(),
        (error: unknown) => console.error(error),
      );
    };
    // Connected once the page has drawn: the first screen's code and data come first.
    const cancelWait = afterFirstPaint(() => {
      void connectSocket().then(
        (connected) => {
          // Signed out, or another person signed in, while the client was loading.
          if (closed) {
            connected.disconnect();
            return;
          }
          socket = connected;
          socket.on('connect', onConnect);
          socket.on(SOCKET_EVENTS.restartConnection, initialize);
          socket.on(SOCKET_EVENTS.sessionChanged, sessionChanged);
          publish(socket);
        },
        (error: unknown) => console.error(error),
      );
    });
    return () => {
      closed = true;
      cancelWait();
      if (!socket) return;
      socket.off('connect', onConnect);
      socket.off(SOCKET_EVENTS.restartConnection, initialize);
      socket.off(SOCKET_EVENTS.sessionChanged, sessionChanged);
      socket.disconnect();
      publish(null);
    };
  }, [userId, signingOut]);

  return children;
}

/** Runs the handler on each event; realtime events only invalidate queries, they carry no state. */
export function useSocketEvent(event: string, handler: (payload: unknown) => void): void {
  const socket = useSocket();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: unknown) => handlerRef.current(payload);
    socket.on(event, listener);
    return () => {
      socket.off(event, listener);
    };
  }, [socket, event]);
}
