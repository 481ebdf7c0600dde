import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { mediaUploadResponse, Profile } from '@sutura/domain/users';
import { api } from '@/lib/http';
import { profileQueryKey } from '@/features/account/api/profile';

export type MediaUpload = z.infer<typeof mediaUploadResponse>;

/** Multipart upload; for `purpose=avatar` the server replaces the profile's avatar. */
export const uploadAvatar = (file: File) => {
  const form = new FormData();
  // The purpose comes before the file so the server knows what it receives while it streams.
  form.append('purpose', 'avatar');
  form.append('file', file, file.name);
  return api<MediaUpload>('POST', '/common/medias/create/upload', { form });
};

export const removeAvatar = () => api<Profile>('DELETE', '/users/profile/me/avatar');

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}

export function useRemoveAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAvatar,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
