import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import { PendingButton } from '@/components/pending-button';

/**
 * The question before something is deleted for good: what goes, in red, and a confirm button
 * that is pending (disabled) while the deletion runs; the dialog cannot be closed meanwhile.
 */
export function DeleteDialog({
  open,
  id,
  title,
  text,
  textTestId,
  warning,
  cancel,
  confirm,
  pending,
  testId,
  onConfirm,
  onClose,
}: {
  open: boolean;
  /** Prefix of the title's and description's element ids. */
  id: string;
  title: string;
  /** What is deleted, above the warning. */
  text?: string;
  textTestId?: string;
  warning: string;
  cancel: string;
  confirm: string;
  pending: boolean;
  /** The confirm button's test id. */
  testId: string;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <Dialog
      open={open}
      onClose={() => !pending && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
    >
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {text !== undefined && (
          <DialogContentText id={`${id}-text`} data-testid={textTestId}>
            {text}
          </DialogContentText>
        )}
        <Alert severity="error" id={text === undefined ? `${id}-text` : undefined}>
          {warning}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={pending}>
          {cancel}
        </Button>
        <PendingButton
          variant="contained"
          color="error"
          onClick={onConfirm}
          pending={pending}
          icon={<DeleteForeverOutlined aria-hidden />}
          data-testid={testId}
        >
          {confirm}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
