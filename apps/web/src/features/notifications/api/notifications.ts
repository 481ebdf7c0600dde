import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { notificationListResponse } from '@sutura/domain/notifications';
import { SOCKET_EVENTS } from '@sutura/domain/socket-events';
import type { z } from 'zod';
import { api } from '@/lib/http';
import { useSocketEvent } from '@/lib/realtime';

export type NotificationList = z.infer<typeof notificationListResponse>;

const LIST_LIMIT = 50;

export const notificationKeys = { list: ['notifications', 'list'] as const };

// SPEC §4: notifications are never cached.
export const notificationListOptions = queryOptions({
  queryKey: notificationKeys.list,
  queryFn: () => api<NotificationList>('GET', '/notification/list', { query: { limit: LIST_LIMIT } }),
  staleTime: 0,
  gcTime: 0,
});

/** The list, refreshed whenever the server pushes a new notification. */
export function useNotifications(enabled: boolean) {
  const queryClient = useQueryClient();
  useSocketEvent(SOCKET_EVENTS.notificationReceived, () => {
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
  });
  return useQuery({ ...notificationListOptions, enabled });
}
