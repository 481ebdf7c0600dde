import { useTranslation } from 'react-i18next';
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { VideoStatus } from '@sutura/domain/videos';

const COLOURS: Record<VideoStatus, ChipProps['color']> = {
  saved: 'default',
  pending_preparation: 'quaternary',
  in_preparation: 'secondary',
  processing: 'secondary',
  pending_analysis: 'quaternary',
  in_analysis: 'secondary',
  analysed: 'primary',
};

/** The workflow status of SPEC §4, in the person's language. */
export function VideoStatusChip({ status, size = 'small' }: { status: VideoStatus; size?: ChipProps['size'] }) {
  const { t } = useTranslation('videos');
  return (
    <Chip
      data-testid="video-status"
      data-status={status}
      size={size}
      color={COLOURS[status]}
      variant={status === 'saved' ? 'outlined' : 'filled'}
      label={t(`status.${status}`)}
      sx={{ fontWeight: 700 }}
    />
  );
}
