import type { RouteObject } from 'react-router';

/** Best cases: browsing and watching (learners, editors, experts) and their administration. */
export const bestCaseRoutes: RouteObject[] = [
  {
    path: '/best-cases',
    lazy: { Component: async () => (await import('@/features/best-cases/pages/best-case-list-page')).BestCaseListPage },
  },
  {
    path: '/best-cases/:id',
    lazy: { Component: async () => (await import('@/features/best-cases/pages/best-case-page')).BestCasePage },
  },
  {
    path: '/admin/best-cases',
    lazy: { Component: async () => (await import('@/features/best-cases/pages/admin-best-cases-page')).AdminBestCasesPage },
  },
  {
    path: '/admin/best-cases/add',
    lazy: { Component: async () => (await import('@/features/best-cases/pages/add-best-case-page')).AddBestCasePage },
  },
];
