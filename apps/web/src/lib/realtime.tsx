import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Socket } from 'socket.io-client';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { readToken } from '@/lib/http';
import { useSession } from '@/lib/session';
import { connectSocket } from '@/lib/socket';

const SocketContext = createContext<Socket | null>(null);

/** SPEC §4: connected while a person is signed in and not signing out. */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { session, signingOut } = useSession();
  const userId = session?.userId;
  const [socket, setSocket] = useState<Socket | null>(null);

  useEffect(() => {
    const token = readToken();
    if (!userId || signingOut || !token) return;
    const next = connectSocket(token);
    const initialize = () => next.emit(SOCKET_EVENTS.initialize, { id: userId });
    next.on('connect', initialize);
    next.on(SOCKET_EVENTS.restartConnection, initialize);
    setSocket(next);
    return () => {
      next.off('connect', initialize);
      next.off(SOCKET_EVENTS.restartConnection, initialize);
      next.disconnect();
      setSocket(null);
    };
  }, [userId, signingOut]);

  return <SocketContext.Provider value={socket}>{children}</SocketContext.Provider>;
}

/** Runs the handler on each event; realtime events only invalidate queries, they carry no state. */
export function useSocketEvent(event: string, handler: (payload: unknown) => void): void {
  const socket = useContext(SocketContext);
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
