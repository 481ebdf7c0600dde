import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '@sutura/domain/preferences';
import type { Profile } from '@sutura/domain/users';
import { api } from '@/lib/http';

/** The person's profile holds the e-mail settings; the account feature reads the same query. */
export const profileQueryKey = ['users', 'profile', 'me'] as const;

export const getProfile = () => api<Profile>('GET', '/users/profile/me');

export const profileQueryOptions = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function useNotificationSettings() {
  return useQuery({ ...profileQueryOptions(), select: (profile) => profile.notificationSettings });
}

export const updateNotificationSettings = (changes: Partial<NotificationSettings>) =>
  api<Profile>('PUT', '/users/profile/me', { body: { notificationSettings: changes } });

/** Drawn at once; the previous settings come back if the server refuses. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: profileQueryKey });
      const previous = queryClient.getQueryData<Profile>(profileQueryKey);
      if (previous) {
        queryClient.setQueryData<Profile>(profileQueryKey, {
          ...previous,
          notificationSettings: { ...previous.notificationSettings, ...changes },
        });
      }
      return { previous };
    },
    onError: (_error, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(profileQueryKey, context.previous);
    },
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
