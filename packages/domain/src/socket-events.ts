/** Events of the realtime socket (kept apart from the schemas: the web app's shell loads them first). */
export const SOCKET_EVENTS = {
  initialize: 'INITIALIZE',
  restartConnection: 'RESTART_CONNECTION',
  notificationReceived: 'NOTIFICATION_RECEIVED',
  /** A number of the person's dashboard changed (no payload): it is fetched again. */
  dashboardChanged: 'DASHBOARD_CHANGED',
  /** The person's session changed (an administrator changed their roles, no payload): it is fetched again. */
  sessionChanged: 'SESSION_CHANGED',
} as const;
