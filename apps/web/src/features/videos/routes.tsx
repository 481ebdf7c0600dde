import type { RouteObject } from 'react-router';
import type { RouteHandle } from '@/app/router';

/** The video pages, mounted inside the signed-in shell. */
export const videoRoutes: RouteObject[] = [
  { path: '/videos', lazy: { Component: async () => (await import('@/features/videos/pages/video-list-page')).VideoListPage } },
  { path: '/videos/add', lazy: { Component: async () => (await import('@/features/videos/add/add-video-page')).AddVideoPage } },
  {
    path: '/videos/:id',
    lazy: { Component: async () => (await import('@/features/videos/pages/video-detail-page')).VideoDetailPage },
    // The case, then its result and expert, asked with the page's code rather than after it.
    handle: {
      prefetch: ({ id }) => {
        if (id) void import('@/features/videos/api/video-detail').then((m) => m.prefetchCasePage(id));
      },
    } satisfies RouteHandle,
  },
  {
    path: '/videos/:id/shared',
    lazy: { Component: async () => (await import('@/features/videos/pages/shared-video-page')).SharedVideoPage },
  },
];
