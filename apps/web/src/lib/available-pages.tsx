import { createContext, useContext, type ReactNode } from 'react';

/**
 * The signed-in pages the router really has. Menu entries of pages that later issues build
 * stay hidden until their route exists.
 */
const AvailablePagesContext = createContext<ReadonlySet<string>>(new Set());

export function AvailablePagesProvider({ paths, children }: { paths: ReadonlySet<string>; children: ReactNode }) {
  return <AvailablePagesContext.Provider value={paths}>{children}</AvailablePagesContext.Provider>;
}

export function useAvailablePages(): ReadonlySet<string> {
  return useContext(AvailablePagesContext);
}
