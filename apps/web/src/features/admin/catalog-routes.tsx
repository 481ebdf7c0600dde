import type { RouteObject } from 'react-router';

/** The administrators' catalogue: vocabularies and every case; each page loads when opened. */
export const catalogRoutes: RouteObject[] = [
  {
    path: '/admin/vocabularies',
    lazy: { Component: async () => (await import('@/features/admin/pages/vocabularies-page')).VocabulariesPage },
  },
  {
    path: '/admin/surgery-videos',
    lazy: { Component: async () => (await import('@/features/admin/pages/surgery-videos-page')).SurgeryVideosPage },
  },
];
