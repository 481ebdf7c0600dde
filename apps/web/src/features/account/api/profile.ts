import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Profile, updateProfileBody } from '@sutura/domain/users';
import { api } from '@/lib/http';

/** Same key as the settings feature's e-mail settings, which read the same profile. */
export const profileQueryKey = ['users', 'profile', 'me'] as const;

export const getProfile = () => api<Profile>('GET', '/users/profile/me');

export const profileQueryOptions = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile });

export function useProfile() {
  return useQuery(profileQueryOptions());
}

export type ProfileChanges = z.output<typeof updateProfileBody>;

export const updateProfile = (body: ProfileChanges) => api<Profile>('PUT', '/users/profile/me', { body });

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
