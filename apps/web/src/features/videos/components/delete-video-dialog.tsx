import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { PendingButton } from '@/components/pending-button';
import { useToast } from '@/lib/toast';
import { useDeleteVideo } from '@/features/videos/api/video-actions';

/** Deletes the case for good after saying so, then goes back to the list. */
export function DeleteVideoDialog({ videoId, open, onClose }: { videoId: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const navigate = useNavigate();
  const remove = useDeleteVideo();
  const confirm = useSingleFlight(async () => {
    try {
      await remove.mutateAsync(videoId);
    } catch (error) {
      // Already gone (deleted from another tab or device): what the person asked for is done.
      if (!(error instanceof ApiRequestError && error.code === 'NOT_FOUND')) {
        toast('error', errorText(error));
        return;
      }
    }
    toast('success', t('delete.deleted'));
    // Replaced, so that going back does not lead to a case that no longer exists.
    await navigate('/videos', { replace: true });
  });

  return (
    <Dialog
      open={open}
      onClose={() => !confirm.pending && onClose()}
      maxWidth="xs"
      fullWidth
      aria-labelledby="delete-video-title"
      aria-describedby="delete-video-warning"
    >
      <DialogTitle id="delete-video-title">{t('delete.title')}</DialogTitle>
      <DialogContent>
        <Alert severity="error" id="delete-video-warning">
          {t('delete.irreversible')}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={confirm.pending}>
          {t('delete.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          color="error"
          onClick={() => void confirm.run()}
          pending={confirm.pending}
          icon={<DeleteForeverOutlined aria-hidden />}
          data-testid="confirm-delete"
        >
          {t('delete.confirm')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
