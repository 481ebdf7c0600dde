import type { RouteObject } from 'react-router';

/** The administration area's own pages (dashboard, people, audit log, double review); each loads when opened. */
export const adminRoutes: RouteObject[] = [
  { path: '/admin', lazy: { Component: async () => (await import('@/features/admin/pages/admin-dashboard-page')).AdminDashboardPage } },
  { path: '/admin/users', lazy: { Component: async () => (await import('@/features/admin/pages/admin-users-page')).AdminUsersPage } },
  { path: '/admin/audit', lazy: { Component: async () => (await import('@/features/admin/pages/audit-log-page')).AuditLogPage } },
  {
    path: '/admin/double-review',
    lazy: { Component: async () => (await import('@/features/admin/pages/double-review-page')).DoubleReviewPage },
  },
  {
    path: '/admin/disagreements',
    lazy: { Component: async () => (await import('@/features/admin/pages/disagreements-page')).DisagreementsPage },
  },
  { path: '/admin/retention', lazy: { Component: async () => (await import('@/features/admin/pages/retention-page')).RetentionPage } },
  { path: '/admin/storage', lazy: { Component: async () => (await import('@/features/admin/pages/storage-page')).StoragePage } },
  {
    path: '/admin/programmes',
    lazy: { Component: async () => (await import('@/features/admin/pages/admin-programmes-page')).AdminProgrammesPage },
  },
  {
    path: '/admin/programmes/:id',
    lazy: { Component: async () => (await import('@/features/admin/pages/admin-programme-page')).AdminProgrammePage },
  },
];
