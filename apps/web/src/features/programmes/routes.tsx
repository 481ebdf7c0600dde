import type { RouteObject } from 'react-router';

/** The programmes' pages: the directors' cohort and learner pages, and the administration's; each loads when opened. */
export const programmeRoutes: RouteObject[] = [
  { path: '/programmes', lazy: { Component: async () => (await import('@/features/programmes/pages/programmes-page')).ProgrammesPage } },
  { path: '/programmes/:id', lazy: { Component: async () => (await import('@/features/programmes/pages/cohort-page')).CohortPage } },
  {
    path: '/programmes/:id/learners/:learnerId',
    lazy: { Component: async () => (await import('@/features/programmes/pages/learner-page')).LearnerPage },
  },
];
