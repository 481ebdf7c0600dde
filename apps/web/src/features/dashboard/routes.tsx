import type { RouteObject } from 'react-router';

/** The dashboard, mounted inside the signed-in shell. */
export const dashboardRoutes: RouteObject[] = [
  { path: '/dashboard', lazy: { Component: async () => (await import('@/features/dashboard/dashboard-page')).DashboardPage } },
];
