import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import HourglassTopOutlined from '@mui/icons-material/HourglassTopOutlined';
import MovieOutlined from '@mui/icons-material/MovieOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import type { VideoSummary } from '@sutura/domain/videos';
import { useStableMediaUrl } from '@/components/video/use-stable-media-url';

/** The poster of a case, or what stands for it: its pictures, or the video still on its way. */
export function VideoPoster({ video }: { video: Pick<VideoSummary, 'kind' | 'mediaStatus' | 'posterUrl' | 'pictureCount'> }) {
  const { t } = useTranslation('videos');
  const poster = useStableMediaUrl(video.posterUrl);
  if (poster.src) {
    return (
      <Box
        component="img"
        src={poster.src}
        alt=""
        loading="lazy"
        onError={() => poster.renew()}
        sx={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover', bgcolor: '#000' }}
      />
    );
  }
  const pictures = video.kind === 'pictures';
  const Icon = pictures ? PhotoLibraryOutlined : video.mediaStatus === 'ready' ? MovieOutlined : HourglassTopOutlined;
  return (
    <Box
      sx={{
        width: '100%',
        height: '100%',
        display: 'grid',
        placeContent: 'center',
        justifyItems: 'center',
        gap: 0.5,
        bgcolor: 'action.hover',
        color: 'text.secondary',
      }}
    >
      <Icon sx={{ fontSize: 44 }} aria-hidden />
      {pictures && (
        <Typography variant="body2" sx={{ fontWeight: 700 }}>
          {t('media.pictureCount', { count: video.pictureCount })}
        </Typography>
      )}
    </Box>
  );
}
