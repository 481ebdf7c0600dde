import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import { formatTimecode, type ExpertList, type ExpertListItem } from '@sutura/domain/analysis';
import { currentLanguage } from '@/lib/i18n';

/**
 * A video of the expert space: surgery and organ, length, number of steps, and what matters in
 * this list — the wait in the pool, the hours left on a hold, the day it was analysed.
 */
export function ExpertVideoCard({
  video,
  list,
  onClaim,
  claiming = false,
  disabled = false,
}: {
  video: ExpertListItem;
  list: ExpertList;
  onClaim?: () => void;
  /** This card's claim is under way. */
  claiming?: boolean;
  /** A claim is under way: one at a time. */
  disabled?: boolean;
}) {
  const { t } = useTranslation('expert');
  const lang = currentLanguage();
  const surgery = video.surgery?.name ?? t('card.noSurgery');
  const facts = [
    video.duration !== null ? t('card.duration', { duration: formatTimecode(video.duration) }) : null,
    t('card.steps', { count: video.stepCount }),
  ].filter(Boolean);

  return (
    <Card
      variant="outlined"
      data-testid="expert-video-card"
      data-video-id={video.id}
      sx={{ height: '100%', borderRadius: 3, display: 'flex', flexDirection: 'column' }}
    >
      <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'action.hover', display: 'grid', placeItems: 'center' }}>
        {video.posterUrl ? (
          <Box component="img" src={video.posterUrl} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
        ) : (
          <VideocamOutlined sx={{ fontSize: 48, color: 'text.secondary' }} aria-hidden />
        )}
        {video.priority && (
          <Chip
            size="small"
            color="quaternary"
            icon={<PriorityHigh aria-hidden />}
            label={t('card.priority')}
            sx={{ position: 'absolute', top: 8, left: 8, fontWeight: 700 }}
          />
        )}
      </Box>
      <CardContent sx={{ flexGrow: 1, display: 'grid', gap: 0.5, alignContent: 'start' }}>
        <Typography component="h3" sx={{ fontWeight: 700 }}>
          {surgery}
        </Typography>
        {video.organ && (
          <Typography variant="body2" color="text.secondary">
            {video.organ.name}
          </Typography>
        )}
        <Typography variant="body2">{facts.join(' · ')}</Typography>
        {list === 'pool' && (
          <Typography variant="body2" color="text.secondary" data-testid="expert-waiting">
            {video.waitingHours < 1 ? t('card.waitingUnderAnHour') : t('card.waiting', { count: video.waitingHours })}
          </Typography>
        )}
        {list === 'held' && video.hoursLeft !== null && (
          <Typography
            variant="body2"
            sx={{ fontWeight: 700, color: video.hoursLeft <= 2 ? 'error.main' : 'text.primary' }}
            data-testid="expert-hours-left"
          >
            {t('card.hoursLeft', { count: video.hoursLeft })}
          </Typography>
        )}
        {list === 'analysed' && video.submittedAt && (
          <Typography variant="body2" color="text.secondary">
            {t('card.analysedOn', { date: new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(video.submittedAt)) })}
          </Typography>
        )}
      </CardContent>
      <Box sx={{ p: 2, pt: 0 }}>
        {list === 'pool' ? (
          <Button fullWidth variant="contained" onClick={onClaim} disabled={claiming || disabled} data-testid="expert-claim">
            {claiming ? t('card.claiming') : t('card.claim')}
          </Button>
        ) : (
          <Button fullWidth variant={list === 'held' ? 'contained' : 'outlined'} component={RouterLink} to={`/expert/${video.id}`}>
            {list === 'held' ? t('card.continue') : t('card.open')}
          </Button>
        )}
      </Box>
    </Card>
  );
}
