import { Component, lazy as reactLazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
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

/**
 * The route tree, drawn with React Router's declarative API (`<BrowserRouter>` + `useRoutes`):
 * its data router (loaders, actions, fetchers) is twice the code and the app uses none of it.
 * What the data router did for lazy routes is done here: a route's `lazy` becomes a component
 * loaded on first use; the routes of the first URL load before the app first draws, all at once
 * (`preloadRoutesOf`), so nothing is drawn until the first page's code is there; and a
 * navigation keeps the previous page on screen until the next one's code and texts are there
 * (`BrowserRouter` moves in a React transition).
 */
const tree: RouteObject[] = [
  {
    element: <AppProviders />,
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
];

type Preloaded = RouteObject & { preload?: () => Promise<unknown> };

/** A route's `lazy` (either form React Router takes) as a component and its loader. */
function lazyElement(lazy: NonNullable<RouteObject['lazy']>): { element: ReactNode; preload: () => Promise<unknown> } {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const load = () =>
    (loading ??= (async (): Promise<ComponentType> => {
      if (typeof lazy === 'function') {
        const route = await lazy();
        const { Component, element } = route;
        return Component ?? (() => element ?? null);
      }
      const Component = await lazy.Component?.();
      if (!Component) throw new Error('A lazy route must load its Component');
      return Component;
    })().then((component) => (loaded = component)));
  const Lazy = reactLazy(async () => ({ default: await load() }));
  function LazyRoute() {
    // Loaded already (the first URL's routes, or a page seen before): drawn at once, without a
    // fallback; decided once per mount, so that the page never remounts.
    const [Page] = useState(() => loaded ?? Lazy);
    return <Page />;
  }
  return { element: <LazyRoute />, preload: load };
}

function declarative(routes: RouteObject[]): Preloaded[] {
  return routes.map((route) => {
    const { lazy, children, ...rest } = route;
    const converted: Preloaded = lazy ? { ...rest, ...lazyElement(lazy) } : { ...rest };
    if (children) converted.children = declarative(children);
    return converted as Preloaded;
  });
}

const routes = declarative(tree);

/** Loads the code of the routes that draw `pathname` (the first URL), all at once. */
export async function preloadRoutesOf(pathname: string): Promise<void> {
  const matched = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matched.map(({ route }) => (route as Preloaded).preload?.()));
}

/** A page that throws while drawing shows the error screen; the next navigation tries again. */
class RouteErrorBoundary extends Component<{ pathname: string; children: ReactNode }, { error: unknown; pathname: string }> {
  override state = { error: undefined as unknown, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: { error: unknown; pathname: string }) {
    return props.pathname === state.pathname ? null : { error: undefined, pathname: props.pathname };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : <RouteErrorPage error={this.state.error} />;
  }
}

export function AppRoutes() {
  const { pathname } = useLocation();
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary pathname={pathname}>
      {/* Nothing is drawn until the first page's texts are there: no spinner, no keys. */}
      <Suspense fallback={null}>{page}</Suspense>
    </RouteErrorBoundary>
  );
}
