import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import { currentLanguage } from '@/lib/i18n';
import { useSocketEvent } from '@/lib/realtime';
import { useSession } from '@/lib/session';
import { dashboardKeys, dashboardOptions } from '@/features/dashboard/api/dashboard-query';

export { dashboardKeys };

/** The caller's key numbers, one section per role; fetched again whenever the server says one changed. */
export function useDashboard(enabled = true) {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  useSocketEvent(SOCKET_EVENTS.dashboardChanged, refresh);
  // A notification follows the writes that come after a state change (an analysis marked
  // submitted just after its case is): read again then too, so the latest feedback is there.
  useSocketEvent(SOCKET_EVENTS.notificationReceived, refresh);
  return useQuery({ ...dashboardOptions(currentLanguage(), session?.preferences.showRatings ?? true), enabled });
}
