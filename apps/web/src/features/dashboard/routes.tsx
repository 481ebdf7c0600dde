import type { RouteObject } from 'react-router';
import type { RouteHandle } from '@/app/router';
import { prefetchDashboard } from '@/features/dashboard/api/dashboard-query';

/** The dashboard, mounted inside the signed-in shell. */
export const dashboardRoutes: RouteObject[] = [
  {
    path: '/dashboard',
    lazy: { Component: async () => (await import('@/features/dashboard/dashboard-page')).DashboardPage },
    // Its numbers asked with the page's code and the session, from the app's first chunk.
    handle: { prefetch: () => prefetchDashboard() } satisfies RouteHandle,
  },
];
