import type { RouteObject } from 'react-router';
import { ExpertSpacePage } from '@/features/expert/pages/expert-space-page';

/** The expert's pages, mounted inside the signed-in shell (the analysis page comes next). */
export const expertRoutes: RouteObject[] = [{ path: '/expert', element: <ExpertSpacePage /> }];
