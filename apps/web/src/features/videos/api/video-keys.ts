import type { VideoListParams } from '@/features/videos/api/video-list';

/**
 * Every query of this feature starts with 'videos', so one invalidation (a realtime event, a
 * mutation) reaches lists and details alike. Names come in the caller's language: it is part of
 * the key.
 */
export const videoKeys = {
  all: ['videos'] as const,
  lists: ['videos', 'list'] as const,
  list: (lang: string, params: VideoListParams) => ['videos', 'list', lang, params] as const,
  details: ['videos', 'detail'] as const,
  detail: (id: string, lang: string) => ['videos', 'detail', id, lang] as const,
};
