import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notification } from '@sutura/domain/notifications';
import { api } from '@/lib/http';
import { notificationKeys } from '@/features/notifications/api/notifications';

// The panel's own writes, apart from the list the bell reads (notifications.ts): the first screen
// loads the bell's code, and no mutation code, without them.

export function useDeleteNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<object>('DELETE', `/notification/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}

/** The 'empty' action: deletes the listed notifications one by one. */
export function useEmptyNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (notifications: readonly Notification[]) => {
      for (const n of notifications) await api<object>('DELETE', `/notification/${encodeURIComponent(n.id)}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}

/** One update per unread notification, then the list again. */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (notifications: readonly Notification[]) => {
      const unread = notifications.filter((n) => n.status === 'unread');
      await Promise.allSettled(
        unread.map((n) => api<Notification>('PUT', `/notification/${encodeURIComponent(n.id)}`, { body: { id: n.id, status: 'read' } })),
      );
      return unread.length;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}
