import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useDeleteVideo } from '@/features/videos/api/video-actions';

/** Deletes the case for good after saying so, then goes back to the list. */
export function DeleteVideoDialog({ videoId, open, onClose }: { videoId: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const navigate = useNavigate();
  const remove = useDeleteVideo();

  const confirm = () => {
    remove.mutate(videoId, {
      onSuccess: () => {
        toast('success', t('delete.deleted'));
        // Replaced, so that going back does not lead to a case that no longer exists.
        void navigate('/videos', { replace: true });
      },
      onError: (error) => toast('error', errorText(error)),
    });
  };

  return (
    <Dialog
      open={open}
      onClose={() => !remove.isPending && onClose()}
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
        <Button onClick={onClose} disabled={remove.isPending}>
          {t('delete.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={confirm}
          disabled={remove.isPending}
          startIcon={remove.isPending ? <CircularProgress size={18} color="inherit" /> : <DeleteForeverOutlined aria-hidden />}
          data-testid="confirm-delete"
        >
          {t('delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
