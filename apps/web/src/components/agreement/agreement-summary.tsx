import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import { AGREEMENT_FEW_PAIRS, type AgreementReport } from '@sutura/domain/agreement';
import { currentLanguage } from '@/lib/i18n';
import { AgreementSection } from './agreement-section';
import { TableRegion } from './table-region';
import { fewPairItems, summaryRows, type EstimateView } from './agreement-view';
import { useItemLabel } from './use-item-label';

/** A coefficient, its interval and the word of its band, one under the other; the gap when missing. */
function Estimate({ estimate, band }: { estimate: EstimateView; band: string | null }) {
  const { t } = useTranslation('calibration');
  if (estimate.value === null) return <Box sx={{ color: 'text.secondary' }}>{t(`gap.${estimate.gap ?? 'tooFewPairs'}`)}</Box>;
  return (
    <>
      <Box component="span" sx={{ display: 'block', fontWeight: 600 }}>
        {estimate.value}
        {band && (
          <Box component="span" sx={{ fontWeight: 400 }}>
            {' · '}
            {band}
          </Box>
        )}
      </Box>
      <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: 13 }}>
        {estimate.interval ? `${t('summary.ci')} ${t('interval', estimate.interval)}` : t(`gap.${estimate.gap ?? 'perfectAgreement'}`)}
      </Box>
    </>
  );
}

/**
 * The agreement of the experts per KPI, for the global rating and the step ratings: number of
 * pairs, weighted kappa and ICC with their 95 % intervals and the words of their bands
 * (docs/agreement.md).
 */
export function AgreementSummary({ report }: { report: AgreementReport }) {
  const { t } = useTranslation('calibration');
  const lang = currentLanguage();
  const label = useItemLabel();
  const rows = summaryRows(report, lang);
  const few = fewPairItems(report);
  return (
    <AgreementSection title={t('summary.title')} testId="agreement-summary">
      <Typography variant="body2" data-testid="agreement-cases">
        {t('summary.cases', { count: report.cases, triple: report.tripleReviewed })}
        {report.expertId !== null && ` ${t('summary.expertView')}`}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t(report.expertId === null ? 'summary.explain' : 'summary.explainMine')}
      </Typography>
      {report.cases === 0 ? (
        <Alert severity="info">{t('summary.empty')}</Alert>
      ) : (
        few.length > 0 && (
          <Alert severity="warning" data-testid="agreement-few-pairs">
            {t('summary.fewPairs', { min: AGREEMENT_FEW_PAIRS, items: few.map(label).join(', ') })}
          </Alert>
        )
      )}
      <TableRegion label={t('summary.caption')}>
        <Box
          component="table"
          data-testid="agreement-summary-table"
          sx={{
            borderCollapse: 'collapse',
            width: '100%',
            fontSize: { xs: 13, sm: 14 },
            '& td, & th': {
              py: 0.75,
              px: { xs: 0.5, sm: 1 },
              borderBottom: 1,
              borderColor: 'divider',
              textAlign: 'left',
              verticalAlign: 'top',
            },
            '& td.pairs': { minWidth: 0, fontVariantNumeric: 'tabular-nums' },
          }}
        >
          <Box component="caption" sx={visuallyHidden}>
            {t('summary.caption')}
          </Box>
          <thead>
            <tr>
              <th scope="col">{t('summary.rating')}</th>
              <th scope="col">{t('summary.pairs')}</th>
              <th scope="col">{t('summary.kappa')}</th>
              <th scope="col">{t('summary.icc')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.item} data-testid={`agreement-row-${row.item}`}>
                <th scope="row">{label(row.item)}</th>
                <td className="pairs">{row.pairs}</td>
                <td>
                  <Estimate estimate={row.kappa} band={row.kappa.band && t(`kappaBand.${row.kappa.band}`)} />
                </td>
                <td>
                  <Estimate estimate={row.icc} band={row.icc.band && t(`iccBand.${row.icc.band}`)} />
                </td>
              </tr>
            ))}
          </tbody>
        </Box>
      </TableRegion>
    </AgreementSection>
  );
}
