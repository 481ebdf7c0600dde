import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useToast } from '@/lib/toast';
import { useUiState } from '@/lib/ui-state';

/** SPEC §4: leaving during an upload would lose it, so the person is warned and stays. */
export function useLogout(): () => void {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const toast = useToast();
  const { uploadProgress } = useUiState();
  return () => {
    if (uploadProgress.value > 0) {
      toast('warning', t('warningVideoUploadLogout'));
      return;
    }
    void navigate('/auth/logout');
  };
}
