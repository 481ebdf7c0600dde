import type { RouteObject } from 'react-router';
import type { RouteHandle } from '@/app/router';
import { prefetchAccountPage } from '@/features/account/api/profile-query';

/** The account pages, mounted inside the signed-in shell. */
export const accountRoutes: RouteObject[] = [
  {
    path: '/my-account',
    lazy: { Component: async () => (await import('@/features/account/pages/my-account-page')).MyAccountPage },
    // The profile and the page's texts asked with its code and the session, from the app's first chunk.
    handle: { prefetch: () => prefetchAccountPage() } satisfies RouteHandle,
  },
  {
    path: '/my-account/edit-password',
    lazy: { Component: async () => (await import('@/features/account/pages/edit-password-page')).EditPasswordPage },
  },
];

/** Pages shown with or without a session: the receipt of an account deletion. */
export const accountOpenRoutes: RouteObject[] = [
  {
    path: '/account-deleted',
    lazy: { Component: async () => (await import('@/features/account/pages/account-deleted-page')).AccountDeletedPage },
  },
];
