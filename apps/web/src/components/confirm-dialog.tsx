import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: ReactNode;
  confirm: string;
  cancel: string;
  pending: boolean;
  danger?: boolean;
  testId: string;
  onConfirm(): void;
  onClose(): void;
}

/** A question before an action that loses work (back to trim, giving a video back); pending → disabled. */
export function ConfirmDialog({ open, title, text, confirm, cancel, pending, danger, testId, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={() => !pending && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby={`${testId}-title`}
      aria-describedby={`${testId}-text`}
    >
      <DialogTitle id={`${testId}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${testId}-text`}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={pending}>
          {cancel}
        </Button>
        <Button
          variant="contained"
          color={danger ? 'error' : 'primary'}
          onClick={onConfirm}
          disabled={pending}
          startIcon={pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          data-testid={`${testId}-confirm`}
        >
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
