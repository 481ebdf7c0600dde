import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import type { VideoSummary } from '@sutura/domain/videos';
import { currentLanguage } from '@/lib/i18n';
import { FavouriteToggle } from '@/features/videos/components/favourite-toggle';
import { MediaState } from '@/features/videos/components/media-state';
import { DurationBadge } from '@/components/video/duration-badge';
import { VideoPoster } from '@/components/video/video-poster';
import { VideoStatusChip } from '@/components/case/video-status-chip';
import { formatDateTime } from '@/components/video/format';

/** Where a case opens: people it is shared with read it on its shared page. */
export const videoPath = (video: Pick<VideoSummary, 'id' | 'access'>) =>
  video.access === 'shared' ? `/videos/${video.id}/shared` : `/videos/${video.id}`;

/** One case of the list: poster, surgery and organ, date and time, duration, key steps, status and media state. */
export function VideoCard({ video }: { video: VideoSummary }) {
  const { t } = useTranslation(['videos', 'case-file']);
  const lang = currentLanguage();
  const surgery = video.surgery?.name ?? t('card.noSurgery');
  const author = `${video.author.firstName} ${video.author.lastName}`.trim();

  return (
    <Card
      data-testid="video-card"
      data-video-id={video.id}
      variant="outlined"
      sx={{ position: 'relative', height: '100%', borderRadius: 3 }}
    >
      <CardActionArea
        component={RouterLink}
        to={videoPath(video)}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Box sx={{ position: 'relative', aspectRatio: '16 / 9', overflow: 'hidden' }}>
          <VideoPoster video={video} />
          {video.priority && (
            <Chip
              size="small"
              color="quaternary"
              icon={<PriorityHigh aria-hidden />}
              label={t('card.priority')}
              sx={{ position: 'absolute', top: 8, left: 8, fontWeight: 700 }}
            />
          )}
          {video.duration !== null && <DurationBadge seconds={video.duration} label={t('card.duration')} />}
        </Box>
        <Box sx={{ p: 2, display: 'grid', gap: 1, flex: 1, alignContent: 'start' }}>
          <Box>
            <Typography variant="h3" component="h3" sx={{ fontSize: 17 }}>
              {surgery}
            </Typography>
            {video.organ && (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('card.organ', { organ: video.organ.name })}
              </Typography>
            )}
          </Box>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('card.addedOn', { date: formatDateTime(video.createdAt, lang) })}
            {video.access === 'shared' && author ? ` · ${t('card.sharedBy', { name: author })}` : ''}
          </Typography>
          {video.keySteps.length > 0 && (
            <Typography variant="body2" data-testid="card-key-steps" sx={{ color: 'text.secondary' }}>
              {t('case-file:card.keySteps', { steps: video.keySteps.map((s) => s.name).join(', ') })}
            </Typography>
          )}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <VideoStatusChip video={video} />
            {video.kind === 'pictures' && <Chip size="small" variant="outlined" label={t('media.picturesOnly')} />}
          </Box>
          <MediaState video={video} />
        </Box>
      </CardActionArea>
      {video.access === 'author' && (
        <Box sx={{ position: 'absolute', top: 8, right: 8 }}>
          <FavouriteToggle videoId={video.id} favourite={video.favourite} onMedia />
        </Box>
      )}
    </Card>
  );
}
