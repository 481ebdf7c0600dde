import type { RouteObject } from 'react-router';

/** The video pages, mounted inside the signed-in shell. */
export const videoRoutes: RouteObject[] = [
  { path: '/videos', lazy: { Component: async () => (await import('@/features/videos/pages/video-list-page')).VideoListPage } },
  { path: '/videos/add', lazy: { Component: async () => (await import('@/features/videos/add/add-video-page')).AddVideoPage } },
  { path: '/videos/:id', lazy: { Component: async () => (await import('@/features/videos/pages/video-detail-page')).VideoDetailPage } },
  {
    path: '/videos/:id/shared',
    lazy: { Component: async () => (await import('@/features/videos/pages/shared-video-page')).SharedVideoPage },
  },
];
