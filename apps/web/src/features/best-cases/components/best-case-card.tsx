import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { BestCaseSummary } from '@sutura/domain/best-cases';
import { OrganLabel } from '@/components/video/organ-label';
import { DurationBadge } from '@/components/video/duration-badge';
import { VideoPoster } from '@/components/video/video-poster';

/** A best case of the list: poster, duration, title, surgery and organ. */
export function BestCaseCard({ bestCase }: { bestCase: BestCaseSummary }) {
  const { t } = useTranslation(['best-cases', 'videos']);
  return (
    <Card data-testid="best-case-card" data-best-case-id={bestCase.id} variant="outlined" sx={{ height: '100%', borderRadius: 3 }}>
      <CardActionArea
        component={RouterLink}
        to={`/best-cases/${bestCase.id}`}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Box sx={{ position: 'relative', aspectRatio: '16 / 9', overflow: 'hidden' }}>
          <VideoPoster video={{ kind: 'video', mediaStatus: 'ready', posterUrl: bestCase.posterUrl, pictureCount: 0 }} />
          {bestCase.duration !== null && <DurationBadge seconds={bestCase.duration} label={t('card.duration')} />}
        </Box>
        <Box sx={{ p: 2, display: 'grid', gap: 0.75, flex: 1, alignContent: 'start' }}>
          <Typography variant="h3" component="h3" sx={{ fontSize: 17, overflowWrap: 'anywhere' }} data-testid="best-case-title">
            {bestCase.title}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 700 }}>
            {bestCase.surgery?.name ?? t('card.noSurgery')}
          </Typography>
          {bestCase.organ && (
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              <OrganLabel organ={bestCase.organ} />
            </Typography>
          )}
        </Box>
      </CardActionArea>
    </Card>
  );
}
