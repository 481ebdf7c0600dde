import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useToast } from '@/lib/toast';
import { useUiState } from '@/lib/ui-state';
import { useUploads } from '@/lib/uploads';

/** SPEC §4: leaving during an upload would lose it, so the person is warned and stays. */
export function useLogout(): () => void {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const toast = useToast();
  const { uploadProgress } = useUiState();
  // An upload that has not sent its first bytes yet (or waits for the network) counts too.
  const { active } = useUploads();
  return () => {
    if (uploadProgress.value > 0 || active) {
      toast('warning', t('warningVideoUploadLogout'));
      return;
    }
    void navigate('/auth/logout');
  };
}
