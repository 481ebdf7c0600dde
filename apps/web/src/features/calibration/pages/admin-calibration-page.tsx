import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { errorText } from '@/lib/http';
import { useProgrammeCalibration } from '@/features/calibration/api/calibration';
import { CalibrationFilters, useCalibrationParams } from '@/features/calibration/components/calibration-filters';
import { CalibrationReport } from '@/features/calibration/components/calibration-report';

/**
 * `/admin/calibration`: how well the experts who reviewed the same cases agree, over a period and
 * optionally one surgery (docs/agreement.md); administrators and copil read it.
 */
export function AdminCalibrationPage() {
  const { t } = useTranslation('calibration');
  const { params, update } = useCalibrationParams();
  const report = useProgrammeCalibration(params);
  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%', display: 'grid', gap: 3, minWidth: 0 }} data-testid="admin-page">
      <Typography color="text.secondary">{t('page.intro')}</Typography>
      <CalibrationFilters params={params} update={update} />
      {report.data ? (
        <Box aria-busy={report.isFetching} sx={{ minWidth: 0 }} data-testid="calibration-report">
          <CalibrationReport report={report.data} />
        </Box>
      ) : report.isError ? (
        <Alert severity="error">{errorText(report.error)}</Alert>
      ) : (
        <Skeleton variant="rectangular" height={360} />
      )}
    </Box>
  );
}
