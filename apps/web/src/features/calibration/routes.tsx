import type { RouteObject } from 'react-router';

/** Agreement between experts: the administration's page and each expert's own; each loads when opened. */
export const calibrationRoutes: RouteObject[] = [
  {
    path: '/admin/calibration',
    lazy: { Component: async () => (await import('@/features/calibration/pages/admin-calibration-page')).AdminCalibrationPage },
  },
  {
    path: '/my-calibration',
    lazy: { Component: async () => (await import('@/features/calibration/pages/my-calibration-page')).MyCalibrationPage },
  },
];
