import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { VideoDetail } from '@sutura/domain/videos';
import { i18n } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { useUiState } from '@/lib/ui-state';
import type { UploadManager } from '@/lib/upload-manager';

/** The case's unfinished upload the server knows of (VideoDetail.upload). */
export type ServerUpload = NonNullable<VideoDetail['upload']>;

export type VideoUploadStatus = 'uploading' | 'paused' | 'error' | 'done';

export interface VideoUploadState {
  videoId: string;
  /** Only shown in this tab: the name is never sent (it may contain the patient's name). */
  fileName: string;
  bytesSent: number;
  bytesTotal: number;
  status: VideoUploadStatus;
  error?: string;
}

interface UploadsContextValue {
  /** Every upload of this tab, in the order they started. */
  uploads: readonly VideoUploadState[];
  /** An upload still has bytes to send: leaving the page or signing out would stop it. */
  active: boolean;
  /** An upload waits for the network. */
  paused: boolean;
  uploadOf(videoId: string): VideoUploadState | undefined;
  startVideoUpload(videoId: string, file: File): Promise<void>;
  /** Goes on with the case's unfinished upload (or starts again when there is none, or its file failed). */
  resumeVideoUpload(videoId: string, file: File, upload: ServerUpload | null): Promise<void>;
  retry(videoId: string): void;
  cancel(videoId: string): Promise<void>;
}

const UploadsContext = createContext<UploadsContextValue | null>(null);

const NO_UPLOADS: readonly VideoUploadState[] = [];
const noUploads = () => NO_UPLOADS;
const unsubscribed = () => () => undefined;

function invalidateVideos(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['videos'] });
}

/**
 * SPEC §1 and §4: the upload of a video goes on in the background while the person moves around
 * the app; the shell's bar shows its percent, and leaving the page warns. The manager that sends
 * the files (and the checks of a file before it is sent) is fetched with the first upload: the
 * screens that never upload draw without it.
 */
export function UploadsProvider({ children }: { children: ReactNode }) {
  const [manager, setManager] = useState<UploadManager | null>(null);
  const loading = useRef<Promise<UploadManager> | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { setUploadProgress } = useUiState();
  const { status } = useSession();
  const uploads = useSyncExternalStore(
    manager?.subscribe ?? unsubscribed,
    manager?.getSnapshot ?? noUploads,
    manager?.getSnapshot ?? noUploads,
  );

  // The manager outlives the renders: it reaches the interface through the latest of these.
  const ui = useRef({ progress: setUploadProgress, notify: toast });
  useEffect(() => {
    ui.current = { progress: setUploadProgress, notify: toast };
  }, [setUploadProgress, toast]);

  const loadManager = useCallback((): Promise<UploadManager> => {
    loading.current ??= import('@/lib/upload-manager').then(
      ({ UploadManager, maxUploadBytesQueryOptions }) => {
        const created = new UploadManager();
        created.setHandlers({
          maxUploadBytes: () => queryClient.fetchQuery(maxUploadBytesQueryOptions()),
          progress: (progress) => ui.current.progress(progress),
          // The server sends the `videoUploaded` notification through the socket.
          finished: () => invalidateVideos(queryClient),
          notify: (type, message) => ui.current.notify(type, message),
        });
        setManager(created);
        return created;
      },
      (error: unknown) => {
        loading.current = null;
        throw error;
      },
    );
    return loading.current;
  }, [queryClient]);

  useEffect(() => {
    if (!manager) return;
    const offline = () => manager.wentOffline();
    const online = () => manager.cameOnline();
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!manager.hasActive()) return;
      event.preventDefault();
      // Older browsers show their own text only when this is set.
      event.returnValue = i18n.t('shell:uploads.leaveWarning');
    };
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [manager]);

  useEffect(() => {
    if (status === 'signedOut') manager?.stopAll();
  }, [manager, status]);

  const value = useMemo<UploadsContextValue>(() => {
    const running = uploads.filter((u) => u.status === 'uploading' || u.status === 'paused');
    const start = async (videoId: string, file: File, upload: ServerUpload | null = null) => {
      await (await loadManager()).start(videoId, file, upload);
      invalidateVideos(queryClient);
    };
    return {
      uploads,
      active: running.length > 0,
      paused: running.some((u) => u.status === 'paused'),
      uploadOf: (videoId) => uploads.find((u) => u.videoId === videoId),
      startVideoUpload: (videoId, file) => start(videoId, file),
      resumeVideoUpload: start,
      retry: (videoId) => manager?.retry(videoId),
      cancel: async (videoId) => manager?.cancel(videoId),
    };
  }, [loadManager, manager, queryClient, uploads]);

  return <UploadsContext.Provider value={value}>{children}</UploadsContext.Provider>;
}

export function useUploads(): UploadsContextValue {
  const value = useContext(UploadsContext);
  if (!value) throw new Error('useUploads must be used inside UploadsProvider');
  return value;
}
