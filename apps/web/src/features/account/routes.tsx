import type { RouteObject } from 'react-router';
import { MyAccountPage } from '@/features/account/pages/my-account-page';
import { EditPasswordPage } from '@/features/account/pages/edit-password-page';

/** The account pages, mounted inside the signed-in shell. */
export const accountRoutes: RouteObject[] = [
  { path: '/my-account', element: <MyAccountPage /> },
  { path: '/my-account/edit-password', element: <EditPasswordPage /> },
];
