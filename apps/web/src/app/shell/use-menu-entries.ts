import { menuFor, type NavigationEntry } from '@sutura/domain/menu';
import { useAvailablePages } from '@/lib/available-pages';
import { useSession } from '@/lib/session';
import { useMyProgrammes } from '@/lib/my-programmes';

/** Menu entries for the person's roles whose page exists in this build. */
export function useMenuEntries(where: 'drawer' | 'tabs'): NavigationEntry[] {
  const { session } = useSession();
  const available = useAvailablePages();
  // "Programmes" for the directors of a programme only: the server's answer, not a role.
  const programmes = useMyProgrammes();
  const facts = { directsProgramme: (programmes.data?.directed.length ?? 0) > 0 };
  return menuFor(session?.roles ?? [], where, facts).filter((entry) => available.has(entry.path));
}

export function isActivePath(entryPath: string, pathname: string): boolean {
  return pathname === entryPath || pathname.startsWith(`${entryPath}/`);
}
