import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dashboard } from '@sutura/domain/dashboard';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSocketEvent } from '@/lib/realtime';
import { useSession } from '@/lib/session';

/** The hours left on a lease go down with time alone: the numbers are read again now and then. */
const REFRESH_MS = 5 * 60_000;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  mine: (lang: string, showRatings: boolean) => ['dashboard', lang, showRatings] as const,
};

/** The caller's key numbers, one section per role; fetched again whenever the server says one changed. */
export function useDashboard(enabled = true) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  useSocketEvent(SOCKET_EVENTS.dashboardChanged, refresh);
  // A notification follows the writes that come after a state change (an analysis marked
  // submitted just after its case is): read again then too, so the latest feedback is there.
  useSocketEvent(SOCKET_EVENTS.notificationReceived, refresh);
  return useQuery({
    queryKey: dashboardKeys.mine(currentLanguage(), session?.preferences.showRatings ?? true),
    queryFn: () => api<Dashboard>('GET', '/dashboard'),
    refetchInterval: REFRESH_MS,
    enabled,
  });
}
