import { useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { PREPARATION_SOCKET_EVENTS } from '@sutura/domain/preparation';
import { VIDEO_SOCKET_EVENTS } from '@sutura/domain/videos';
import { useSocketEvent } from '@/lib/realtime';
import { videoKeys } from '@/features/videos/api/video-keys';

/**
 * The pipeline's progress, the workflow's status changes and every notification (ready, failed, shared) fetch the videos on
 * screen again, so a video becoming ready appears without a reload. A fetch already running is
 * restarted: its answer may predate the event.
 */
export function useVideoRealtime(): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: videoKeys.all });
  useSocketEvent(VIDEO_SOCKET_EVENTS.progress, refresh);
  // The workflow moves on (claimed, rendering, waiting for analysis): status and detail follow live.
  useSocketEvent(PREPARATION_SOCKET_EVENTS.videoStatusChanged, refresh);
  useSocketEvent(SOCKET_EVENTS.notificationReceived, refresh);
}
