import { Component, lazy as reactLazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useLocation, useRoutes, type RouteObject } from 'react-router';
// Each feature exports its pages as RouteObject[] from its `routes.tsx`; that feature's engineer owns it.
import { accountOpenRoutes, accountRoutes } from '@/features/account/routes';
import { guestRoutes, openAuthRoutes } from '@/features/auth/routes';
import { dashboardRoutes } from '@/features/dashboard/routes';
import { settingsRoutes } from '@/features/settings/routes';
import { videoRoutes } from '@/features/videos/routes';
import { editorRoutes } from '@/features/preparation/routes';
import { expertRoutes } from '@/features/analysis/routes';
import { statsRoutes } from '@/features/stats/routes';
import { catalogRoutes } from '@/features/admin/catalog-routes';
import { adminRoutes } from '@/features/admin/routes';
import { bestCaseRoutes } from '@/features/best-cases/routes';
import { calibrationRoutes } from '@/features/calibration/routes';
import { compareRoutes } from '@/features/compare/routes';
import { programmeRoutes } from '@/features/programmes/routes';
import { AppProviders } from '@/app/providers';
import { GuestOnly } from '@/app/guest-only';
import { NotFoundPage, RouteErrorPage } from '@/app/route-error';
import { RouteSkeleton } from '@/components/route-skeleton';
import { prefetchMyProgrammes } from '@/lib/my-programmes';
import { hasSessionCookie } from '@/lib/session';

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
  ...calibrationRoutes,
  ...compareRoutes,
  ...programmeRoutes,
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
 * (`preloadRoutesOf`), the page's own data asked at the same time (a route's
 * `handle.prefetch`), so the first page draws whole (index.html shows a skeleton meanwhile);
 * a navigation to a page whose code is not there yet shows that page's skeleton at once.
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
          ...accountOpenRoutes,
        ],
      },
      {
        lazy: async () => {
          const { SignedInLayout } = await import('@/app/layouts/signed-in-layout');
          return { element: <SignedInLayout availablePaths={availablePaths} /> };
        },
        // The menu's "Programmes" entry follows the person's programmes.
        handle: { prefetch: () => prefetchMyProgrammes() } satisfies RouteHandle,
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
    // A new boundary shows its skeleton at once, even inside a navigation's transition: the
    // next page's shape, not the previous page frozen or a blank screen, while its code loads.
    return (
      <Suspense fallback={<RouteSkeleton />}>
        <Page />
      </Suspense>
    );
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

/**
 * What a route may declare in its `handle`: the data its page will ask for, asked early. A promise
 * returned is the data the page waits for before it draws anything: the first draw waits for it too.
 */
export interface RouteHandle {
  prefetch?(params: Record<string, string | undefined>): void | Promise<unknown>;
}

/**
 * Loads the code of the routes that draw `pathname` (the first URL), all at once, and asks for
 * their data meanwhile (when someone is signed in: the session cookie is sent with it), instead
 * of after the session, the code and the first draw, one after another. Resolves once the code
 * and the data the page waits for are there, so that the page draws with its data rather than a
 * skeleton first and the page in another render that holds a phone's main thread.
 */
export async function preloadRoutesOf(pathname: string): Promise<void> {
  const matched = matchRoutes(routes, pathname) ?? [];
  const data: Promise<unknown>[] = [];
  if (hasSessionCookie()) {
    for (const { route, params } of matched) {
      const asked = (route.handle as RouteHandle | undefined)?.prefetch?.(params);
      if (asked) data.push(asked);
    }
  }
  // A failed read is the page's to show, with its retry.
  await Promise.all([...matched.map(({ route }) => (route as Preloaded).preload?.()), Promise.allSettled(data)]);
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

/** A navigation asks for the next page's data while its code loads (the first URL did it already). */
function usePrefetchOnNavigation(pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!hasSessionCookie()) return;
    for (const { route, params } of matchRoutes(routes, pathname) ?? []) void (route.handle as RouteHandle | undefined)?.prefetch?.(params);
  }, [pathname]);
}

export function AppRoutes() {
  const { pathname } = useLocation();
  usePrefetchOnNavigation(pathname);
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary pathname={pathname}>
      {/* Nothing is drawn until the first page's texts are there: no spinner, no keys. */}
      <Suspense fallback={null}>{page}</Suspense>
    </RouteErrorBoundary>
  );
}
