import type { RouteObject } from 'react-router';
import type { RouteHandle } from '@/app/router';
import { prefetchCasePage } from '@/features/videos/api/video-detail';

/** The video pages, mounted inside the signed-in shell. */
export const videoRoutes: RouteObject[] = [
  { path: '/videos', lazy: { Component: async () => (await import('@/features/videos/pages/video-list-page')).VideoListPage } },
  { path: '/videos/add', lazy: { Component: async () => (await import('@/features/videos/add/add-video-page')).AddVideoPage } },
  {
    path: '/videos/:id',
    lazy: { Component: async () => (await import('@/features/videos/pages/video-detail-page')).VideoDetailPage },
    // The case and its result (with its expert), asked together with the page's code rather than
    // after it; from the app's first chunk, so that the requests leave before any page code loads.
    handle: { prefetch: ({ id }) => (id ? prefetchCasePage(id) : undefined) } satisfies RouteHandle,
  },
  {
    path: '/videos/:id/shared',
    lazy: { Component: async () => (await import('@/features/videos/pages/shared-video-page')).SharedVideoPage },
  },
];
