import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import { TOAST_DURATION_MS } from '@sutura/domain/limits';
import type { ToastType } from '@/lib/toast';

// SPEC §8: error → error, success → primary, info → secondary, warning → quaternary.
const PALETTE = { error: 'error', success: 'primary', info: 'secondary', warning: 'quaternary' } as const;
const ICONS = {
  error: <ErrorOutlined fontSize="inherit" />,
  success: <CheckCircleOutlined fontSize="inherit" />,
  info: <InfoOutlined fontSize="inherit" />,
  warning: <WarningAmberOutlined fontSize="inherit" />,
} as const;

/** One toast on screen; its own chunk, fetched with the first toast. */
export default function ToastView({
  toast,
  open,
  top,
  closeLabel,
  onClose,
  onExited,
}: {
  toast: { id: number; type: ToastType; message: string };
  open: boolean;
  top: { xs: number; md: number };
  closeLabel: string;
  onClose(event?: unknown, reason?: string): void;
  onExited(): void;
}) {
  return (
    <Snackbar
      open={open}
      autoHideDuration={TOAST_DURATION_MS}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      slotProps={{ transition: { onExited } }}
      sx={{ top }}
    >
      <Alert
        variant="filled"
        icon={ICONS[toast.type]}
        severity={toast.type}
        onClose={() => onClose()}
        slotProps={{ closeButton: { 'aria-label': closeLabel } }}
        sx={{
          bgcolor: `${PALETTE[toast.type]}.main`,
          color: `${PALETTE[toast.type]}.contrastText`,
          '& .MuiAlert-icon, & .MuiAlert-action': { color: 'inherit' },
          alignItems: 'center',
          maxWidth: 560,
          width: '100%',
          boxShadow: 3,
        }}
      >
        {toast.message}
      </Alert>
    </Snackbar>
  );
}
