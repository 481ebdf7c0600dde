import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { UPLOAD_RESET_DELAY_MS } from '@sutura/domain/limits';
import { useToast } from '@/lib/toast';
import { useUiState } from '@/lib/ui-state';
import { useUploads } from '@/lib/uploads';

// The bar's code (and MUI's LinearProgress) comes with the first upload: most visits upload nothing.
const UploadProgressView = lazy(async () => ({ default: (await import('@/app/shell/upload-progress-view')).UploadProgressView }));

/** SPEC §4: shown while an upload runs; at 100 it resets after 1.5 s and says so. */
export function UploadProgressBar({ compact }: { compact: boolean }) {
  const { t } = useTranslation('shell');
  const toast = useToast();
  const { uploadProgress, setUploadProgress } = useUiState();
  const { value, show } = uploadProgress;
  const { paused } = useUploads();

  useEffect(() => {
    if (!show || value < 100) return;
    const id = window.setTimeout(() => {
      setUploadProgress({ value: 0, show: false });
      toast('success', t('uploadSuccessMessage'));
    }, UPLOAD_RESET_DELAY_MS);
    return () => window.clearTimeout(id);
  }, [show, value, setUploadProgress, toast, t]);

  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <UploadProgressView compact={compact} value={value} paused={paused} />
    </Suspense>
  );
}
