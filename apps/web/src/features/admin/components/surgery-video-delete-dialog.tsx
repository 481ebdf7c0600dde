import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import { PendingButton } from '@/components/pending-button';

/** Says which case goes (its surgery, its author, its date) before deleting it for good. */
export function SurgeryVideoDeleteDialog({
  caseName,
  pending,
  onConfirm,
  onClose,
}: {
  caseName: string;
  pending: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('surgery-videos');
  return (
    <Dialog
      open
      onClose={() => !pending && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby="surgery-video-delete-title"
      aria-describedby="surgery-video-delete-text"
    >
      <DialogTitle id="surgery-video-delete-title">{t('delete.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText id="surgery-video-delete-text" data-testid="surgery-video-delete-name">
          {t('delete.text', { name: caseName })}
        </DialogContentText>
        <Alert severity="error">{t('delete.irreversible')}</Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={pending}>
          {t('delete.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          color="error"
          pending={pending}
          onClick={onConfirm}
          icon={<DeleteForeverOutlined aria-hidden />}
          data-testid="surgery-video-confirm-delete"
        >
          {t('delete.confirm')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
