import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '@/components/delete-dialog';

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
    <DeleteDialog
      open
      id="surgery-video-delete"
      title={t('delete.title')}
      text={t('delete.text', { name: caseName })}
      textTestId="surgery-video-delete-name"
      warning={t('delete.irreversible')}
      cancel={t('delete.cancel')}
      confirm={t('delete.confirm')}
      pending={pending}
      testId="surgery-video-confirm-delete"
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
