import type { RouteObject } from 'react-router';

/** The expert's pages, mounted inside the signed-in shell (the analysis page comes next). */
export const expertRoutes: RouteObject[] = [
  { path: '/expert', lazy: { Component: async () => (await import('@/features/expert/pages/expert-space-page')).ExpertSpacePage } },
];
