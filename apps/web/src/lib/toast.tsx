import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LAYOUT } from '@sutura/domain/limits';
import { useUiState } from '@/lib/ui-state';

/** Height of the shell's upload progress bar (label, bar and padding), which toasts leave visible. */
const UPLOAD_BAR_HEIGHT = 72;

export type ToastType = 'error' | 'success' | 'info' | 'warning';
type ToastFn = (type: ToastType, message: string) => void;

interface Toast {
  id: number;
  type: ToastType;
  message: string;
}

const ToastView = lazy(() => import('@/lib/toast-view'));

const ToastContext = createContext<ToastFn | null>(null);

let nextId = 1;

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [queue, setQueue] = useState<Toast[]>([]);
  const [open, setOpen] = useState(true);
  const current = queue[0];
  const { uploadProgress } = useUiState();
  const below = uploadProgress.show ? UPLOAD_BAR_HEIGHT + 8 : 8;

  const toast = useCallback<ToastFn>((type, message) => {
    setQueue((q) => [...q, { id: nextId++, type, message }]);
    setOpen(true);
  }, []);

  const close = (_event?: unknown, reason?: string) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  };

  const value = useMemo(() => toast, [toast]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      {current && (
        <Suspense fallback={null}>
          <ToastView
            key={current.id}
            toast={current}
            open={open}
            // Below the header and the upload's progress bar, never over them.
            top={{ xs: 64 + below, md: LAYOUT.headerHeight + below }}
            closeLabel={t('close')}
            onClose={close}
            onExited={() => {
              setQueue((q) => q.slice(1));
              setOpen(true);
            }}
          />
        </Suspense>
      )}
    </ToastContext.Provider>
  );
}

/** Callable as `useToast()(type, message)` and as `useToast().toast(type, message)`. */
export type UseToast = ToastFn & { toast: ToastFn };

export function useToast(): UseToast {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast must be used inside ToastProvider');
  return useMemo(() => Object.assign((type: ToastType, message: string) => toast(type, message), { toast }), [toast]);
}
