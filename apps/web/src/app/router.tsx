import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
// Pages of the settings and account features: that feature's engineer owns these two files.
import { accountRoutes } from '@/features/account/routes';
import { settingsRoutes } from '@/features/settings/routes';
import { videoRoutes } from '@/features/videos/routes';
import { editorRoutes } from '@/features/editor/routes';
import { expertRoutes } from '@/features/expert/routes';
import { statsRoutes } from '@/features/stats/routes';
import { AppProviders } from '@/app/providers';
import { GuestOnly } from '@/app/guest-only';
import { NotFoundPage, RouteErrorPage } from '@/app/route-error';
import { PublicLayout } from '@/app/layouts/public-layout';
import { SignedInLayout } from '@/app/layouts/signed-in-layout';
import { ForgotPasswordPage } from '@/features/auth/forgot-password-page';
import { LoginPage } from '@/features/auth/login-page';
import { LogoutPage } from '@/features/auth/logout-page';
import { SignUpPage } from '@/features/auth/sign-up-page';
import { ValidateEmailPage } from '@/features/auth/validate-email-page';
import { DashboardPage } from '@/features/dashboard/dashboard-page';

/** Pages of the signed-in shell. Add the routes of a new feature here. */
const signedInRoutes: RouteObject[] = [
  { path: '/dashboard', element: <DashboardPage /> },
  ...settingsRoutes,
  ...accountRoutes,
  ...videoRoutes,
  ...editorRoutes,
  ...expertRoutes,
  ...statsRoutes,
];

function joinPath(parent: string, path: string | undefined): string {
  if (!path) return parent;
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/** Every path the signed-in routes answer, so the menu only lists pages that exist. */
export function collectPaths(routes: readonly RouteObject[], parent = '/'): Set<string> {
  const paths = new Set<string>();
  for (const route of routes) {
    const full = joinPath(parent, route.path);
    if (route.path || route.index) paths.add(full.replace(/\/+$/, '') || '/');
    if (route.children) for (const child of collectPaths(route.children, full)) paths.add(child);
  }
  return paths;
}

const availablePaths = collectPaths(signedInRoutes);

export const router = createBrowserRouter([
  {
    element: <AppProviders />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      {
        element: <PublicLayout />,
        children: [
          { path: '/auth', element: <Navigate to="/auth/login" replace /> },
          {
            path: '/auth/login',
            element: (
              <GuestOnly>
                <LoginPage />
              </GuestOnly>
            ),
          },
          {
            path: '/auth/sign-up',
            element: (
              <GuestOnly>
                <SignUpPage />
              </GuestOnly>
            ),
          },
          {
            path: '/auth/forgot-password',
            element: (
              <GuestOnly>
                <ForgotPasswordPage />
              </GuestOnly>
            ),
          },
          { path: '/auth/validate-email', element: <ValidateEmailPage /> },
          { path: '/auth/logout', element: <LogoutPage /> },
        ],
      },
      { element: <SignedInLayout availablePaths={availablePaths} />, children: signedInRoutes },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
