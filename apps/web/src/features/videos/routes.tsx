import type { RouteObject } from 'react-router';
import { AddVideoPage } from '@/features/videos/add/add-video-page';
import { SharedVideoPage } from '@/features/videos/pages/shared-video-page';
import { VideoDetailPage } from '@/features/videos/pages/video-detail-page';
import { VideoListPage } from '@/features/videos/pages/video-list-page';

/** The video pages, mounted inside the signed-in shell. */
export const videoRoutes: RouteObject[] = [
  { path: '/videos', element: <VideoListPage /> },
  { path: '/videos/add', element: <AddVideoPage /> },
  { path: '/videos/:id', element: <VideoDetailPage /> },
  { path: '/videos/:id/shared', element: <SharedVideoPage /> },
];
