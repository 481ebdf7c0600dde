import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { useDeleteVideo } from '@/features/videos/api/video-actions';
import { DeleteDialog } from '@/components/delete-dialog';

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
    <DeleteDialog
      open={open}
      id="delete-video"
      title={t('delete.title')}
      warning={t('delete.irreversible')}
      cancel={t('delete.cancel')}
      confirm={t('delete.confirm')}
      pending={confirm.pending}
      testId="confirm-delete"
      onConfirm={() => void confirm.run()}
      onClose={onClose}
    />
  );
}
