import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import VideocamOffOutlined from '@mui/icons-material/VideocamOffOutlined';

/** What anyone a case does not concern sees (the server answers 404 whether it exists or not). */
export function VideoNotFound() {
  const { t } = useTranslation(['videos', 'common']);
  return (
    <Box
      data-testid="video-not-found"
      sx={{ maxWidth: 520, mx: 'auto', mt: 6, textAlign: 'center', display: 'grid', gap: 2, justifyItems: 'center' }}
    >
      <VideocamOffOutlined sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
      <Typography variant="h2" component="h2">
        {t('common:notFoundTitle')}
      </Typography>
      <Typography>{t('videos:detail.notFound')}</Typography>
      <Button component={RouterLink} to="/videos" variant="contained">
        {t('videos:detail.backToList')}
      </Button>
    </Box>
  );
}
