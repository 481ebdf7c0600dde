import type { RouteObject } from 'react-router';
import { AnalysisCompletePage } from '@/features/expert/pages/analysis-complete-page';
import { AnalysisPage } from '@/features/expert/pages/analysis-page';
import { ExpertSpacePage } from '@/features/expert/pages/expert-space-page';

/** The expert's pages, mounted inside the signed-in shell (experts only: the server refuses anyone else). */
export const expertRoutes: RouteObject[] = [
  { path: '/expert', element: <ExpertSpacePage /> },
  { path: '/expert/:id', element: <AnalysisPage /> },
  { path: '/expert/:id/complete', element: <AnalysisCompletePage /> },
];
