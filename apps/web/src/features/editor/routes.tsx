import type { RouteObject } from 'react-router';
import { EditorSpacePage } from '@/features/editor/pages/editor-space-page';
import { PreparationCompletePage } from '@/features/editor/pages/preparation-complete-page';
import { PreparationPage } from '@/features/editor/pages/preparation-page';

/** The editor's space, mounted inside the signed-in shell (editors only: the server refuses anyone else). */
export const editorRoutes: RouteObject[] = [
  { path: '/editor', element: <EditorSpacePage /> },
  { path: '/editor/:id', element: <PreparationPage /> },
  { path: '/editor/:id/complete', element: <PreparationCompletePage /> },
];
