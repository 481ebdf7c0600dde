import { useTranslation } from 'react-i18next';
import Chip, { type ChipProps } from '@mui/material/Chip';
import type { VideoSummary, VideoStatus } from '@sutura/domain/videos';
import { useUploadProgress } from '@/lib/use-upload-progress';

const COLOURS: Record<VideoStatus, ChipProps['color']> = {
  saved: 'default',
  pending_preparation: 'quaternary',
  in_preparation: 'secondary',
  processing: 'secondary',
  pending_analysis: 'quaternary',
  in_analysis: 'secondary',
  pending_review: 'quaternary',
  in_review: 'secondary',
  analysed: 'primary',
};

/** A second or third review of the case is awaited or under way. */
const REVIEWING: readonly VideoStatus[] = ['pending_review', 'in_review'];

/**
 * The workflow status of SPEC §4, in the person's language. Before the file of a saved case is
 * ready, the chip says where the file stands instead (uploading with its percent, stopped,
 * processing, failed): "uploaded" is said only of a file that is. The learner and the people
 * they share the case with read a review round as a second expert's review (before the result
 * is shown) or another expert's (a further review after it); administrators read the workflow's
 * own status (docs/double-review.md).
 */
export function VideoStatusChip({
  video,
  size = 'small',
}: {
  video: Pick<VideoSummary, 'id' | 'status' | 'mediaStatus'> & Partial<Pick<VideoSummary, 'resultShown' | 'access'>>;
  size?: ChipProps['size'];
}) {
  const { t } = useTranslation(['videos', 'case-file']);
  const uploadPercent = useUploadProgress(video.id);
  const { status, mediaStatus } = video;
  const media = status === 'saved' && mediaStatus !== 'ready' ? mediaStatus : null;
  const label = (() => {
    switch (media) {
      case null:
        if (REVIEWING.includes(status) && video.access !== undefined && video.access !== 'admin')
          return t(video.resultShown ? 'learnerStatus.furtherReview' : 'learnerStatus.secondReview');
        return t(`status.${status}`);
      case 'uploading':
        return uploadPercent === null
          ? t('case-file:chip.uploadUnfinished')
          : t('case-file:chip.uploading', { percent: t('common:percent', { value: uploadPercent }) });
      case 'processing':
        return t('case-file:chip.processing');
      case 'failed':
        return t('case-file:chip.failed');
    }
  })();
  const colour = media === 'failed' ? 'error' : media === 'processing' || media === 'uploading' ? 'secondary' : COLOURS[status];
  return (
    <Chip
      data-testid="video-status"
      data-status={status}
      data-media-status={mediaStatus}
      size={size}
      color={colour}
      variant={status === 'saved' && !media ? 'outlined' : 'filled'}
      label={label}
      sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}
    />
  );
}
