import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { StorageReport } from '@sutura/domain/retention';
import { RetryAlert } from '@/components/retry-alert';
import { useStorageReport } from '@/features/admin/api/retention-api';
import { formatBytes } from '@/features/admin/model/bytes';

const section = { p: { xs: 2, sm: 3 }, borderRadius: 2, minWidth: 0 } as const;

/**
 * `/admin/storage`: what the media store holds — by kind, by surgery, the growth of the last 12
 * months and the next 12 at that rate (docs/data-lifecycle.md). Read from the accounting table
 * kept as objects are written and deleted, never from a listing of the store.
 */
export function StoragePage() {
  const { t } = useTranslation('retention');
  const report = useStorageReport();
  return (
    <Box sx={{ maxWidth: 1000, mx: 'auto', width: '100%', display: 'grid', gap: 3, minWidth: 0 }} data-testid="admin-page">
      <Typography sx={{ color: 'text.secondary' }}>{t('storage.intro')}</Typography>
      {report.data ? (
        <StorageSections report={report.data} />
      ) : report.isError ? (
        <RetryAlert error={report.error} retry={t('retry')} onRetry={() => void report.refetch()} />
      ) : (
        <Box role="status" aria-label={t('loading')}>
          <Skeleton variant="rectangular" height={320} />
        </Box>
      )}
    </Box>
  );
}

function StorageSections({ report }: { report: StorageReport }) {
  const { t, i18n } = useTranslation('retention');
  const bytes = (n: number) => formatBytes(n, i18n.language);
  const month = (m: string) =>
    new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${m}-01T00:00:00Z`));
  const last = report.projection[report.projection.length - 1];
  return (
    <>
      <Paper variant="outlined" component="section" aria-labelledby="storage-total-title" sx={section}>
        <Typography id="storage-total-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
          {t('storage.totalTitle')}
        </Typography>
        <Typography sx={{ fontSize: 28, fontWeight: 700 }} data-testid="storage-total">
          {bytes(report.totalBytes)}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>
          {t('storage.objects', { count: report.objects })}
          {last ? ` · ${t('storage.projected', { month: month(last.month), bytes: bytes(last.total) })}` : ''}
        </Typography>
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="storage-kinds-title" sx={section}>
        <Typography id="storage-kinds-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
          {t('storage.byKind')}
        </Typography>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="storage-kinds">
            <TableHead>
              <TableRow>
                <TableCell>{t('storage.kind')}</TableCell>
                <TableCell align="right">{t('storage.bytes')}</TableCell>
                <TableCell align="right">{t('storage.count')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.byKind.map((k) => (
                <TableRow key={k.kind} data-kind={k.kind}>
                  <TableCell>{t(`kind.${k.kind}`)}</TableCell>
                  <TableCell align="right">{bytes(k.bytes)}</TableCell>
                  <TableCell align="right">{k.objects}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="storage-growth-title" sx={section}>
        <Typography id="storage-growth-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
          {t('storage.growth')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('storage.growthHelp')}
        </Typography>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="storage-months">
            <TableHead>
              <TableRow>
                <TableCell>{t('storage.month')}</TableCell>
                <TableCell align="right">{t('storage.added')}</TableCell>
                <TableCell align="right">{t('storage.total')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.months.map((m) => (
                <TableRow key={m.month}>
                  <TableCell>{month(m.month)}</TableCell>
                  <TableCell align="right">{bytes(m.added)}</TableCell>
                  <TableCell align="right">{bytes(m.total)}</TableCell>
                </TableRow>
              ))}
              {report.projection.map((m) => (
                <TableRow key={m.month} sx={{ '& td': { color: 'text.secondary', fontStyle: 'italic' } }}>
                  <TableCell>{t('storage.projectedMonth', { month: month(m.month) })}</TableCell>
                  <TableCell align="right">—</TableCell>
                  <TableCell align="right">{bytes(m.total)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="storage-surgeries-title" sx={section}>
        <Typography id="storage-surgeries-title" variant="h2" component="h2" sx={{ fontSize: 20, mb: 1 }}>
          {t('storage.bySurgery')}
        </Typography>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="storage-surgeries">
            <TableHead>
              <TableRow>
                <TableCell>{t('storage.surgery')}</TableCell>
                <TableCell align="right">{t('storage.bytes')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.bySurgery.map((s) => (
                <TableRow key={s.surgeryId ?? 'none'}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{s.surgery ?? t('storage.noSurgery')}</TableCell>
                  <TableCell align="right">{bytes(s.bytes)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Paper>
    </>
  );
}
