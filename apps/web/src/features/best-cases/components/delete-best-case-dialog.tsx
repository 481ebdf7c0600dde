import { useTranslation } from 'react-i18next';
import type { AdminBestCase } from '@sutura/domain/best-cases';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { useDeleteBestCase } from '@/features/best-cases/api/best-cases';
import { DeleteDialog } from '@/components/delete-dialog';

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
    <DeleteDialog
      open={!!bestCase}
      id="delete-best-case"
      title={t('admin.deleteTitle')}
      warning={t(bestCase?.origin === 'uploaded' ? 'admin.deleteUploaded' : 'admin.deleteConverted')}
      cancel={t('admin.cancel')}
      confirm={t('admin.delete')}
      pending={confirm.pending}
      testId="best-case-confirm-delete"
      onConfirm={() => void confirm.run()}
      onClose={onClose}
    />
  );
}
