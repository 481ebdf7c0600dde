import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { AgreementSummary } from '@/components/agreement/agreement-summary';
import { errorText } from '@/lib/http';
import { useMyCalibration } from '@/features/calibration/api/calibration';
import { CalibrationFilters, useCalibrationParams } from '@/features/calibration/components/calibration-filters';
import { CalibrationReport } from '@/features/calibration/components/calibration-report';

/**
 * `/my-calibration`: an expert's view of themselves — their reviews against their colleagues' on
 * the same cases (their mean difference, κ, ICC, Bland–Altman), then the programme's agreement,
 * without any other expert's name (docs/agreement.md, "An expert's own view").
 */
export function MyCalibrationPage() {
  const { t } = useTranslation('calibration');
  const { params, update } = useCalibrationParams();
  const query = useMyCalibration(params);
  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%', display: 'grid', gap: 3, minWidth: 0 }} data-testid="my-calibration-page">
      <Typography color="text.secondary">{t('mine.intro')}</Typography>
      <CalibrationFilters params={params} update={update} />
      {query.data ? (
        <Box aria-busy={query.isFetching} sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
          <Box data-testid="calibration-own" sx={{ minWidth: 0 }}>
            <CalibrationReport report={query.data.own} />
          </Box>
          <Box
            component="section"
            aria-labelledby="calibration-programme"
            sx={{ display: 'grid', gap: 2, minWidth: 0 }}
            data-testid="calibration-programme"
          >
            <Typography id="calibration-programme" variant="h3" component="h2">
              {t('mine.programme')}
            </Typography>
            <Typography color="text.secondary">{t('mine.programmeExplain')}</Typography>
            <AgreementSummary report={query.data.programme} />
          </Box>
        </Box>
      ) : query.isError ? (
        <Alert severity="error">{errorText(query.error)}</Alert>
      ) : (
        <Skeleton variant="rectangular" height={360} />
      )}
    </Box>
  );
}
