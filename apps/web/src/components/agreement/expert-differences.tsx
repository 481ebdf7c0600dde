import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import Remove from '@mui/icons-material/Remove';
import type { AgreementItem, AgreementReport, RaterTendency } from '@sutura/domain/agreement';
import { currentLanguage } from '@/lib/i18n';
import { useChartPalette } from '@/lib/theme';
import { AgreementSection } from './agreement-section';
import { expertRows, formatNumber } from './agreement-view';
import { useItemLabel } from './use-item-label';

const ICONS: Record<RaterTendency, typeof ArrowUpward> = {
  higher: ArrowUpward,
  lower: ArrowDownward,
  similar: Remove,
  unknown: HelpOutline,
};

/**
 * For one rating, each expert's mean difference against the other reviews of the same cases
 * (highest first), in words and numbers, with a small forest plot of the 95 % interval around 0.
 * The plot repeats the text for the eye and is hidden from screen readers.
 */
export function ExpertDifferences({ report, item }: { report: AgreementReport; item: AgreementItem }) {
  const { t } = useTranslation('calibration');
  const lang = currentLanguage();
  const palette = useChartPalette();
  const label = useItemLabel();
  const experts = report.items.find((i) => i.item === item)?.experts ?? [];
  const { range, rows } = expertRows(experts, lang);
  // Higher and lower in two of the palette's colour-blind-safe hues, and an arrow: never colour alone.
  const colour: Record<RaterTendency, string> = {
    higher: palette.series[1]!,
    lower: palette.series[2]!,
    similar: palette.mutedText,
    unknown: palette.mutedText,
  };
  return (
    <AgreementSection title={`${t('experts.title')} · ${label(item)}`} testId="agreement-experts">
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('experts.explain')}
      </Typography>
      {rows.length === 0 ? (
        <Alert severity="info">{t('experts.empty')}</Alert>
      ) : (
        <>
          <Box aria-hidden sx={{ display: 'grid', gridTemplateColumns: '1fr auto 1fr', fontSize: 12, color: 'text.secondary', gap: 1 }}>
            <span>
              {formatNumber(-range, lang, true)} · {t('experts.lower')}
            </span>
            <span>0</span>
            <Box component="span" sx={{ textAlign: 'end' }}>
              {t('experts.higher')} · {formatNumber(range, lang, true)}
            </Box>
          </Box>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
            {rows.map((row) => {
              const Icon = ICONS[row.tendency];
              return (
                <Box
                  component="li"
                  key={row.expert.expertId}
                  data-testid="agreement-expert"
                  data-tendency={row.tendency}
                  sx={{ display: 'grid', gap: 0.5, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}
                >
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
                    <Typography component="span" sx={{ fontWeight: 600 }}>
                      {row.expert.name}
                    </Typography>
                    <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('experts.cases', { count: row.expert.cases })}
                    </Typography>
                  </Box>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
                    <Icon aria-hidden fontSize="small" sx={{ color: colour[row.tendency] }} />
                    <Typography component="span" variant="body2">
                      {t(`experts.tendency.${row.tendency}`)}
                    </Typography>
                  </Box>
                  {row.mean !== null && (
                    <Typography variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
                      {t('experts.difference', { value: row.mean })}
                      {row.interval && ` · ${t('summary.ci')} ${t('interval', row.interval)}`}
                    </Typography>
                  )}
                  {row.at && (
                    <Box component="svg" aria-hidden width="100%" height={18} sx={{ display: 'block', overflow: 'visible' }}>
                      <line x1="0%" x2="100%" y1={9} y2={9} stroke={palette.mutedText} strokeOpacity={0.35} />
                      <line x1="50%" x2="50%" y1={1} y2={17} stroke={palette.mutedText} />
                      <line
                        x1={`${row.at.lower}%`}
                        x2={`${row.at.upper}%`}
                        y1={9}
                        y2={9}
                        stroke={colour[row.tendency]}
                        strokeWidth={3}
                        strokeLinecap="round"
                      />
                      <circle cx={`${row.at.mean}%`} cy={9} r={5} fill={colour[row.tendency]} />
                    </Box>
                  )}
                </Box>
              );
            })}
          </Box>
        </>
      )}
    </AgreementSection>
  );
}
