import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';

/**
 * What stands in a page's place while its code (or its texts) load: the shape of a page, a title
 * and blocks, never a blank screen. Every lazy route shows it (app/router.tsx).
 */
export function RouteSkeleton() {
  // Not the suspending hook: the common texts are loaded before anything draws.
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <Box
      role="status"
      aria-label={t('loading')}
      data-testid="route-skeleton"
      sx={{ maxWidth: 1400, mx: 'auto', width: '100%', p: { xs: 2, sm: 3 } }}
    >
      <Skeleton variant="text" sx={{ fontSize: 28, width: { xs: '70%', sm: '35%' } }} />
      <Skeleton variant="rounded" sx={{ mt: 2, height: { xs: 180, sm: 280 } }} />
      <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
        <Skeleton variant="rounded" height={120} />
        <Skeleton variant="rounded" height={120} />
      </Box>
    </Box>
  );
}
