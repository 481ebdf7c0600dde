import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Profile, updateProfileBody } from '@sutura/domain/users';
import { api } from '@/lib/http';
import { profileQueryKey, profileQueryOptions } from '@/features/account/api/profile-query';

export { getProfile, profileQueryKey, profileQueryOptions } from '@/features/account/api/profile-query';

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
