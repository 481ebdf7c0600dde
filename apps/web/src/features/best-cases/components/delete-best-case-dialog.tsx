import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import type { AdminBestCase } from '@sutura/domain/best-cases';
import { PendingButton } from '@/components/pending-button';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { useDeleteBestCase } from '@/features/best-cases/api/best-cases';

/** Deletes a best case after saying what goes with it (an uploaded video is deleted too; an analysed case stays its author's). */
export function DeleteBestCaseDialog({ bestCase, onClose }: { bestCase: AdminBestCase | null; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const toast = useToast();
  const remove = useDeleteBestCase();
  const confirm = useSingleFlight(async () => {
    if (!bestCase) return;
    try {
      await remove.mutateAsync(bestCase.id);
    } catch (error) {
      if (!(error instanceof ApiRequestError && error.code === 'NOT_FOUND')) {
        toast('error', errorText(error));
        return;
      }
    }
    toast('success', t('admin.deleted'));
    onClose();
  });
  return (
    <Dialog
      open={!!bestCase}
      onClose={() => !confirm.pending && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby="delete-best-case-title"
    >
      <DialogTitle id="delete-best-case-title">{t('admin.deleteTitle')}</DialogTitle>
      <DialogContent>
        <Alert severity="error">{t(bestCase?.origin === 'uploaded' ? 'admin.deleteUploaded' : 'admin.deleteConverted')}</Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={confirm.pending}>
          {t('admin.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          color="error"
          onClick={() => void confirm.run()}
          pending={confirm.pending}
          icon={<DeleteForeverOutlined aria-hidden />}
          data-testid="best-case-confirm-delete"
        >
          {t('admin.delete')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
