import { queryOptions } from '@tanstack/react-query';
import type { Dashboard } from '@sutura/domain/dashboard';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { queryClient } from '@/lib/query';

/** The hours left on a lease go down with time alone: the numbers are read again now and then. */
const REFRESH_MS = 5 * 60_000;
/** While the demo is being made the server is asked this often how far it is. */
const DEMO_POLL_MS = 3000;

export interface DemoState {
  preparing: boolean;
  progress: number;
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  mine: (lang: string, showRatings: boolean) => ['dashboard', lang, showRatings] as const,
};

/** The caller's key numbers, one section per role. */
export const dashboardOptions = (lang: string, showRatings: boolean) =>
  queryOptions({
    queryKey: dashboardKeys.mine(lang, showRatings),
    queryFn: () => api<Dashboard>('GET', '/dashboard'),
    // Asked before the page mounts (prefetchDashboard); the socket's events refresh it.
    staleTime: 30_000,
    refetchInterval: REFRESH_MS,
  });

/** Whether the demo's cases are still being made (/v1/health), asked again while they are. */
export const demoStateOptions = () =>
  queryOptions({
    queryKey: ['health', 'demo'],
    queryFn: async () => (await api<{ demo?: DemoState }>('GET', '/health')).demo ?? { preparing: false, progress: 100 },
    refetchInterval: (q) => (q.state.data?.preparing ? DEMO_POLL_MS : false),
    staleTime: Infinity,
  });

/**
 * The dashboard's data, asked as soon as its address is known (the first URL with the app's code,
 * or a navigation), beside the session and the page's code rather than after them. The session's
 * preferences are not known yet: the numbers are asked as most people see them (ratings shown);
 * for someone who hides them, the page asks for its own when it mounts. Resolves once both have
 * answered (the page draws nothing before), failed or not.
 */
export function prefetchDashboard(): Promise<unknown> {
  return Promise.all([queryClient.prefetchQuery(dashboardOptions(currentLanguage(), true)), queryClient.prefetchQuery(demoStateOptions())]);
}
