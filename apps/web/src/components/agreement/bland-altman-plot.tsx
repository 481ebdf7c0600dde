import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import type { AgreementItem, AgreementReport, Interval } from '@sutura/domain/agreement';
import { currentLanguage } from '@/lib/i18n';
import { AgreementSection } from './agreement-section';
import { TableRegion } from './table-region';
import { blandAltmanChart, formatBounds, formatNumber } from './agreement-view';
import { useItemLabel } from './use-item-label';

const BlandAltmanChart = lazy(() => import('./bland-altman-chart'));

const tableSx = {
  borderCollapse: 'collapse',
  width: '100%',
  fontSize: 14,
  fontVariantNumeric: 'tabular-nums',
  '& td, & th': { py: 0.75, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left' },
} as const;

/**
 * The Bland–Altman analysis of one rating: the plot (hidden from screen readers), then the bias
 * and limits of agreement with their intervals, and the plotted points as a table.
 */
export function BlandAltmanPlot({ report, item }: { report: AgreementReport; item: AgreementItem }) {
  const { t } = useTranslation('calibration');
  const lang = currentLanguage();
  const label = useItemLabel();
  const ba = report.items.find((i) => i.item === item)?.blandAltman;
  const difference = report.expertId === null ? t('blandAltman.difference') : t('blandAltman.differenceMine');
  const chart = ba ? blandAltmanChart(ba, report.scale) : null;
  const ci = (interval: Interval | null) => (interval ? t('interval', formatBounds(interval, lang, true)) : t('gap.tooFewPairs'));
  const stats =
    ba && ba.bias !== null
      ? [
          { key: 'bias', name: t('blandAltman.bias'), value: ba.bias, ci: ci(ba.biasCi) },
          { key: 'sd', name: t('blandAltman.sd'), value: ba.sd!, ci: '' },
          { key: 'lower', name: t('blandAltman.lower'), value: ba.lower!, ci: ci(ba.lowerCi) },
          { key: 'upper', name: t('blandAltman.upper'), value: ba.upper!, ci: ci(ba.upperCi) },
        ]
      : [];
  return (
    <AgreementSection title={t('blandAltman.title', { item: label(item) })} testId="agreement-bland-altman">
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('blandAltman.explain')}
      </Typography>
      {(!ba || ba.bias === null) && <Alert severity="info">{t('blandAltman.empty')}</Alert>}
      {chart && chart.points.length > 0 && (
        <Box aria-hidden data-testid="agreement-bland-altman-chart" sx={{ minHeight: 340 }}>
          <Typography variant="caption" component="div" sx={{ color: 'text.primary' }}>
            ↑ {difference}
          </Typography>
          <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
            <BlandAltmanChart
              chart={chart}
              labels={{
                mean: t('blandAltman.mean'),
                difference,
                cases: t('blandAltman.cases'),
                bias: t('blandAltman.bias'),
                lower: t('blandAltman.lower'),
                upper: t('blandAltman.upper'),
              }}
            />
          </Suspense>
        </Box>
      )}
      {stats.length > 0 && (
        <TableRegion label={t('blandAltman.limitsCaption')}>
          <Box component="table" data-testid="agreement-bland-altman-limits" sx={tableSx}>
            <Box component="caption" sx={visuallyHidden}>
              {t('blandAltman.limitsCaption')}
            </Box>
            <thead>
              <tr>
                <th scope="col">{t('blandAltman.statistic')}</th>
                <th scope="col">{t('blandAltman.value')}</th>
                <th scope="col">{t('summary.ci')}</th>
              </tr>
            </thead>
            <tbody>
              {stats.map((s) => (
                <tr key={s.key}>
                  <th scope="row">{s.name}</th>
                  <td>{formatNumber(s.value, lang, s.key !== 'sd')}</td>
                  <td>{s.ci}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </TableRegion>
      )}
      {chart && chart.points.length > 0 && (
        <TableRegion label={t('blandAltman.caption')}>
          <Box component="table" data-testid="agreement-bland-altman-points" sx={tableSx}>
            <Box component="caption" sx={visuallyHidden}>
              {t('blandAltman.caption')}
            </Box>
            <thead>
              <tr>
                <th scope="col">{t('blandAltman.mean')}</th>
                <th scope="col">{difference}</th>
                <th scope="col">{t('blandAltman.cases')}</th>
              </tr>
            </thead>
            <tbody>
              {chart.points.map((p) => (
                <tr key={`${p.mean}:${p.difference}`}>
                  <td>{new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(p.mean)}</td>
                  <td>{new Intl.NumberFormat(lang, { signDisplay: 'exceptZero' }).format(p.difference)}</td>
                  <td>{p.cases}</td>
                </tr>
              ))}
            </tbody>
          </Box>
        </TableRegion>
      )}
    </AgreementSection>
  );
}
