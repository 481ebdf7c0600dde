import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Box
      role="status"
      data-testid="page-loader"
      sx={{ display: 'grid', placeItems: 'center', minHeight: fullScreen ? '100dvh' : 240, bgcolor: 'background.default' }}
    >
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
