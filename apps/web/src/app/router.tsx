import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
// Each feature exports its pages as RouteObject[] from its `routes.tsx`; that feature's engineer owns it.
import { accountRoutes } from '@/features/account/routes';
import { guestRoutes, openAuthRoutes } from '@/features/auth/routes';
import { dashboardRoutes } from '@/features/dashboard/routes';
import { settingsRoutes } from '@/features/settings/routes';
import { videoRoutes } from '@/features/videos/routes';
import { editorRoutes } from '@/features/editor/routes';
import { expertRoutes } from '@/features/expert/routes';
import { statsRoutes } from '@/features/stats/routes';
import { catalogRoutes } from '@/features/admin/catalog-routes';
import { adminRoutes } from '@/features/admin/routes';
import { bestCaseRoutes } from '@/features/best-cases/routes';
import { AppProviders } from '@/app/providers';
import { GuestOnly } from '@/app/guest-only';
import { NotFoundPage, RouteErrorPage } from '@/app/route-error';

// Every page loads with its route, in its own chunk: in a feature's routes.tsx write
// `{ path: '/x', lazy: { Component: async () => (await import('@/features/x/pages/x-page')).XPage } }`.

/** Pages of the signed-in shell. Add the routes of a new feature here. */
const signedInRoutes: RouteObject[] = [
  ...dashboardRoutes,
  ...settingsRoutes,
  ...accountRoutes,
  ...videoRoutes,
  ...editorRoutes,
  ...expertRoutes,
  ...statsRoutes,
  ...catalogRoutes,
  ...adminRoutes,
  ...bestCaseRoutes,
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
    // Nothing is drawn until the first page's code and texts are there: no spinner, no keys.
    HydrateFallback: () => null,
    children: [
      { path: '/', element: <Navigate to="/dashboard" replace /> },
      {
        lazy: { Component: async () => (await import('@/app/layouts/public-layout')).PublicLayout },
        children: [
          { path: '/auth', element: <Navigate to="/auth/login" replace /> },
          { element: <GuestOnly />, children: guestRoutes },
          ...openAuthRoutes,
        ],
      },
      {
        lazy: async () => {
          const { SignedInLayout } = await import('@/app/layouts/signed-in-layout');
          return { element: <SignedInLayout availablePaths={availablePaths} /> };
        },
        children: signedInRoutes,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
