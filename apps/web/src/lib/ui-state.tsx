import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

export interface UploadProgress {
  /** 0 to 100. */
  value: number;
  show: boolean;
}

interface UiStateValue {
  /** A video is playing fullscreen: the shell hides its header. */
  fullscreen: boolean;
  setFullscreen(fullscreen: boolean): void;
  uploadProgress: UploadProgress;
  setUploadProgress(progress: UploadProgress): void;
}

const UiStateContext = createContext<UiStateValue | null>(null);

export function UiStateProvider({ children }: { children: ReactNode }) {
  const [fullscreen, setFullscreen] = useState(false);
  const [uploadProgress, setUploadProgress] = useState<UploadProgress>({ value: 0, show: false });
  const value = useMemo(() => ({ fullscreen, setFullscreen, uploadProgress, setUploadProgress }), [fullscreen, uploadProgress]);
  return <UiStateContext.Provider value={value}>{children}</UiStateContext.Provider>;
}

export function useUiState(): UiStateValue {
  const value = useContext(UiStateContext);
  if (!value) throw new Error('useUiState must be used inside UiStateProvider');
  return value;
}
