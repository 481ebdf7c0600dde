import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import { LAYOUT, TOAST_DURATION_MS } from '@sutura/domain/limits';
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

// SPEC §8: error → error, success → primary, info → secondary, warning → quaternary.
const PALETTE = { error: 'error', success: 'primary', info: 'secondary', warning: 'quaternary' } as const;
const ICONS = {
  error: <ErrorOutlined fontSize="inherit" />,
  success: <CheckCircleOutlined fontSize="inherit" />,
  info: <InfoOutlined fontSize="inherit" />,
  warning: <WarningAmberOutlined fontSize="inherit" />,
} as const;

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
        <Snackbar
          key={current.id}
          open={open}
          autoHideDuration={TOAST_DURATION_MS}
          onClose={close}
          anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
          slotProps={{
            transition: {
              onExited: () => {
                setQueue((q) => q.slice(1));
                setOpen(true);
              },
            },
          }}
          // Below the header and the upload's progress bar, never over them.
          sx={{ top: { xs: 64 + below, md: LAYOUT.headerHeight + below } }}
        >
          <Alert
            variant="filled"
            icon={ICONS[current.type]}
            severity={current.type}
            onClose={() => close()}
            slotProps={{ closeButton: { 'aria-label': t('close') } }}
            sx={{
              bgcolor: `${PALETTE[current.type]}.main`,
              color: `${PALETTE[current.type]}.contrastText`,
              '& .MuiAlert-icon, & .MuiAlert-action': { color: 'inherit' },
              alignItems: 'center',
              maxWidth: 560,
              width: '100%',
              boxShadow: 3,
            }}
          >
            {current.message}
          </Alert>
        </Snackbar>
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
