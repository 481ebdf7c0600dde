import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import type { Role } from '@sutura/domain/roles';
import type { RealtimeHub } from '../notifications/notifications.service.ts';

/** Whose dashboard a change of a case touches: people by id, and everyone of a role (a pool). */
export interface DashboardChange {
  users?: readonly (string | null | undefined)[];
  roles?: readonly Role[];
}

/**
 * Tells the dashboards a change touches to fetch their numbers again (the event carries none).
 * Called where a case changes state: the claims of both stages (claim, release, expiry, submit),
 * a video sent or deleted, a source processed, a preparation rendered.
 */
export function createDashboardEvents(hub: Pick<RealtimeHub, 'emitToUser' | 'emitToRole'>) {
  return {
    changed(change: DashboardChange): void {
      for (const userId of new Set(change.users ?? [])) if (userId) hub.emitToUser(userId, SOCKET_EVENTS.dashboardChanged, null);
      for (const role of new Set(change.roles ?? [])) hub.emitToRole(role, SOCKET_EVENTS.dashboardChanged, null);
    },
  };
}
export type DashboardEvents = ReturnType<typeof createDashboardEvents>;
