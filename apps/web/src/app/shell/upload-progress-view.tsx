import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { LiveAnnouncement, progressMilestone } from '@/components/live-announcement';

/** The shell's upload bar itself (see UploadProgressBar), fetched when a first upload starts. */
export function UploadProgressView({ compact, value, paused }: { compact: boolean; value: number; paused: boolean }) {
  const { t } = useTranslation('shell');
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
          {t('shell:uploads.paused')}
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
