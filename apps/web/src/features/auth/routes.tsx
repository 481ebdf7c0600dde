import type { RouteObject } from 'react-router';

/** Pages for people without a session: the router shows them only to someone signed out. */
export const guestRoutes: RouteObject[] = [
  { path: '/auth/login', lazy: { Component: async () => (await import('@/features/auth/login-page')).LoginPage } },
  { path: '/auth/sign-up', lazy: { Component: async () => (await import('@/features/auth/sign-up-page')).SignUpPage } },
  {
    path: '/auth/forgot-password',
    lazy: { Component: async () => (await import('@/features/auth/forgot-password-page')).ForgotPasswordPage },
  },
];

/** Pages that work with or without a session. */
export const openAuthRoutes: RouteObject[] = [
  {
    path: '/auth/validate-email',
    lazy: { Component: async () => (await import('@/features/auth/validate-email-page')).ValidateEmailPage },
  },
  // A provider's identity waiting for a sign-up or a link (a signed-in person may link theirs too).
  { path: '/auth/sso', lazy: { Component: async () => (await import('@/features/auth/sso-page')).SsoPage } },
  { path: '/auth/logout', lazy: { Component: async () => (await import('@/features/auth/logout-page')).LogoutPage } },
];
