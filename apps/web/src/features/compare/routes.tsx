import type { RouteObject } from 'react-router';

/** Comparing a case, or a best case, with a published best case of the same surgery. */
export const compareRoutes: RouteObject[] = [
  {
    path: '/videos/:id/compare',
    lazy: { Component: async () => (await import('@/features/compare/pages/compare-page')).CaseComparePage },
  },
  {
    path: '/best-cases/:id/compare',
    lazy: { Component: async () => (await import('@/features/compare/pages/compare-page')).BestCaseComparePage },
  },
];
