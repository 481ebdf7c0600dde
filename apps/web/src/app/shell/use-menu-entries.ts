import { menuFor, type NavigationEntry } from '@sutura/domain/menu';
import { useAvailablePages } from '@/lib/available-pages';
import { useSession } from '@/lib/session';

/** Menu entries for the person's roles whose page exists in this build. */
export function useMenuEntries(where: 'drawer' | 'tabs'): NavigationEntry[] {
  const { session } = useSession();
  const available = useAvailablePages();
  return menuFor(session?.roles ?? [], where).filter((entry) => available.has(entry.path));
}

export function isActivePath(entryPath: string, pathname: string): boolean {
  return pathname === entryPath || pathname.startsWith(`${entryPath}/`);
}
