import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { mediaUploadResponse } from '@sutura/domain/users';
import type { createVideoBody, updateVideoBody, VideoDetail } from '@sutura/domain/videos';
import { api } from '@/lib/http';

export type CreateVideoBody = z.output<typeof createVideoBody>;
export type UpdateVideoBody = z.output<typeof updateVideoBody>;
export type PictureUpload = z.infer<typeof mediaUploadResponse>;

/** Every list and detail of videos starts with this key. */
const videosKey = ['videos'] as const;

export const createVideo = (body: CreateVideoBody) => api<VideoDetail>('POST', '/videos', { body });

/** A case saved by an earlier try whose pictures did not all arrive: its fields are saved again. */
export const updateVideo = (id: string, body: UpdateVideoBody) => api<VideoDetail>('PUT', `/videos/${encodeURIComponent(id)}`, { body });

const IMAGE_EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * One docking picture of a case (multipart). The original file name is replaced by a neutral
 * one: it may contain the patient's name.
 */
export const uploadPicture = (videoId: string, file: File, index: number) => {
  const form = new FormData();
  // The fields come before the file so the server knows what it receives while it streams.
  form.append('purpose', 'picture');
  form.append('videoId', videoId);
  form.append('file', file, `picture-${index + 1}.${IMAGE_EXTENSIONS[file.type] ?? 'img'}`);
  return api<PictureUpload>('POST', '/common/medias/create/upload', { form });
};

/** Takes off the case a picture sent by an earlier try and removed since (by its media id). */
export const removePicture = (videoId: string, mediaId: string) =>
  api<VideoDetail>('DELETE', `/videos/${encodeURIComponent(videoId)}/pictures/${encodeURIComponent(mediaId)}`);

export function useCreateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVideo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videosKey }),
  });
}

export function useUpdateVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateVideoBody }) => updateVideo(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videosKey }),
  });
}

export function useUploadPicture() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ videoId, file, index }: { videoId: string; file: File; index: number }) => uploadPicture(videoId, file, index),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: videosKey }),
  });
}
