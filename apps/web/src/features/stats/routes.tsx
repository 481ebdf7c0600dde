import type { RouteObject } from 'react-router';

/** The learner's statistics; the page and its charts load only when opened. */
export const statsRoutes: RouteObject[] = [
  { path: '/my-stats', lazy: async () => ({ Component: (await import('@/features/stats/pages/my-stats-page')).MyStatsPage }) },
];
