import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

/** The Sutura mark: a stitched S on a teal tile; the word beside it unless `compact`. */
export function Logo({ size = 40, compact = false }: { size?: number; compact?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25 }}>
      <Box
        component="img"
        src="/icons/logo.svg"
        alt={compact ? t('appName') : ''}
        width={size}
        height={size}
        sx={{ display: 'block', borderRadius: `${size * 0.22}px` }}
      />
      {!compact && (
        <Box component="span" sx={{ fontWeight: 700, fontSize: size * 0.55, letterSpacing: 0.2, color: 'text.primary' }}>
          {t('appName')}
        </Box>
      )}
    </Box>
  );
}
