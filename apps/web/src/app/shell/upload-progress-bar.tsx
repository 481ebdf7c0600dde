import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { UPLOAD_RESET_DELAY_MS } from '@sutura/domain/limits';
import { LiveAnnouncement, progressMilestone } from '@/components/live-announcement';
import { useToast } from '@/lib/toast';
import { useUiState } from '@/lib/ui-state';
import { useUploads } from '@/lib/uploads';

/** SPEC §4: shown while an upload runs; at 100 it resets after 1.5 s and says so. */
export function UploadProgressBar({ compact }: { compact: boolean }) {
  const { t } = useTranslation(['shell', 'upload']);
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
  const percent = Math.round(Math.min(100, Math.max(0, value)));
  return (
    <Box
      data-testid="upload-progress"
      sx={{ px: { xs: 2.5, md: 3.75, lg: 5 }, py: 1.5, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.default' }}
    >
      <Typography variant="body2" sx={{ fontWeight: 700, mb: 0.75 }}>
        {t(compact ? 'uploadProgressApp' : 'uploadProgressDesktop')} {t('common:percent', { value: percent })}
      </Typography>
      {paused && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75 }} data-testid="upload-paused">
          {t('upload:manager.paused')}
        </Typography>
      )}
      <LinearProgress variant="determinate" value={percent} aria-label={t('uploadProgressLabel')} sx={{ height: 8, borderRadius: 4 }} />
      {/* Said at each quarter, not at every percent. */}
      <LiveAnnouncement
        testId="upload-progress-announcement"
        text={`${t(compact ? 'uploadProgressApp' : 'uploadProgressDesktop')} ${t('common:percent', { value: progressMilestone(percent) })}`}
      />
    </Box>
  );
}
