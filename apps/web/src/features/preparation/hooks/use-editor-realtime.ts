import { useQueryClient } from '@tanstack/react-query';
import { SOCKET_EVENTS } from '@sutura/domain/notifications';
import { PREPARATION_SOCKET_EVENTS } from '@sutura/domain/preparation';
import { useSocketEvent } from '@/lib/realtime';
import { editorKeys } from '@/features/preparation/api/editor-keys';

/**
 * A video entered or left the pool, a render finished, a notification arrived: the editor's
 * queries are fetched again (events carry no state).
 */
export function useEditorRealtime(): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: editorKeys.all });
  useSocketEvent(PREPARATION_SOCKET_EVENTS.poolChanged, refresh);
  useSocketEvent(PREPARATION_SOCKET_EVENTS.videoStatusChanged, refresh);
  useSocketEvent(SOCKET_EVENTS.notificationReceived, refresh);
}
