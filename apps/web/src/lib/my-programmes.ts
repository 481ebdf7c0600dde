import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyProgrammes } from '@sutura/domain/programmes';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query';
import { useSession } from '@/lib/session';

// Apart from the programmes' other reads and writes (lib/programmes.ts): the signed-in shell and the
// dashboard ask for it, and load no more of the programmes' code before they first draw.

export const programmeKeys = {
  all: ['programmes'] as const,
  mine: (lang: string) => ['programmes', 'mine', lang] as const,
  cohort: (id: string, lang: string) => ['programmes', 'cohort', id, lang] as const,
  learner: (id: string, learnerId: string, lang: string) => ['programmes', 'learner', id, learnerId, lang] as const,
  own: (programmeId: string | null, lang: string) => ['programmes', 'own', programmeId, lang] as const,
  adminList: (lang: string) => ['programmes', 'admin', lang] as const,
  adminDetail: (id: string, lang: string) => ['programmes', 'admin', id, lang] as const,
};

const myProgrammesOptions = (lang: string) =>
  queryOptions({
    queryKey: programmeKeys.mine(lang),
    queryFn: () => api<MyProgrammes>('GET', '/programmes'),
    staleTime: 60_000,
  });

/** The programmes the person directs and those they are a learner of (the menu's "Programmes" entry follows it). */
export function useMyProgrammes(enabled = true) {
  const { session } = useSession();
  return useQuery({ ...myProgrammesOptions(currentLanguage()), enabled: enabled && Boolean(session) });
}

/**
 * Asked with the signed-in shell's code and the session, when its address is known: the menu and
 * the dashboard's spaces draw with it at once, and the request does not wait for their first draw.
 */
export function prefetchMyProgrammes(): Promise<void> {
  return queryClient.prefetchQuery(myProgrammesOptions(currentLanguage()));
}
