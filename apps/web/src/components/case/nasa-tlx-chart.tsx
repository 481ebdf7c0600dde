import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { NASA_TLX_DIMENSIONS, nasaTlxRawScore, type NasaTlx } from '@sutura/domain/videos';

/** The six NASA-TLX subscales (0 to 100) as bars, and the raw score, their mean. */
export function NasaTlxChart({ tlx }: { tlx: NasaTlx }) {
  const { t } = useTranslation(['videos', 'upload']);
  const raw = nasaTlxRawScore(tlx);
  return (
    <Box sx={{ display: 'grid', gap: 2.5, maxWidth: 720 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h3" component="h3">
          {t('upload:tlx.rawScore')}
        </Typography>
        <Typography data-testid="nasa-tlx-raw" sx={{ fontSize: 28, fontWeight: 700, lineHeight: 1 }}>
          {t('videos:nasaTlx.outOf100', { value: raw })}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1.5 }}>
        {t('videos:nasaTlx.explanation')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
        {NASA_TLX_DIMENSIONS.map((dimension) => {
          const label = t(`upload:tlx.dimensions.${dimension}.label`);
          const value = tlx[dimension];
          return (
            <Box component="li" key={dimension}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mb: 0.5 }}>
                <Typography id={`tlx-${dimension}`} sx={{ fontWeight: 700 }}>
                  {label}
                </Typography>
                <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>{value}</Typography>
              </Box>
              <LinearProgress
                variant="determinate"
                value={value}
                aria-labelledby={`tlx-${dimension}`}
                aria-valuetext={t('videos:nasaTlx.outOf100', { value })}
                sx={{ height: 12, borderRadius: 6 }}
              />
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
