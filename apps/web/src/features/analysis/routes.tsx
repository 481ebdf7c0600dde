import type { RouteObject } from 'react-router';

/** The expert's pages, mounted inside the signed-in shell (experts only: the server refuses anyone else). */
export const expertRoutes: RouteObject[] = [
  { path: '/expert', lazy: { Component: async () => (await import('@/features/analysis/pages/expert-space-page')).ExpertSpacePage } },
  { path: '/expert/:id', lazy: { Component: async () => (await import('@/features/analysis/pages/analysis-page')).AnalysisPage } },
  {
    path: '/expert/:id/complete',
    lazy: { Component: async () => (await import('@/features/analysis/pages/analysis-complete-page')).AnalysisCompletePage },
  },
];
