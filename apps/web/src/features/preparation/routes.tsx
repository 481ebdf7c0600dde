import type { RouteObject } from 'react-router';

/** The editor's space, mounted inside the signed-in shell (editors only: the server refuses anyone else). */
export const editorRoutes: RouteObject[] = [
  { path: '/editor', lazy: { Component: async () => (await import('@/features/preparation/pages/editor-space-page')).EditorSpacePage } },
  { path: '/editor/:id', lazy: { Component: async () => (await import('@/features/preparation/pages/preparation-page')).PreparationPage } },
  {
    path: '/editor/:id/complete',
    lazy: { Component: async () => (await import('@/features/preparation/pages/preparation-complete-page')).PreparationCompletePage },
  },
];
