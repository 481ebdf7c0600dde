import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { useDataExport, useRequestDataExport } from '@/features/account/api/data-export';

const megabytes = (bytes: number) => Math.max(1, Math.round(bytes / 1e6));

/**
 * "My data": the person asks for a copy of everything Sutura holds about them, sees it being made,
 * and downloads it for seven days (docs/personal-data.md). The mail's link opens this section.
 */
export function DataExportSection() {
  const { t } = useTranslation('account');
  const toast = useToast();
  const current = useDataExport();
  const request = useRequestDataExport();
  const [params] = useSearchParams();
  const section = useRef<HTMLElement>(null);
  const lang = currentLanguage();
  const item = current.data;
  const inProgress = item?.status === 'queued' || item?.status === 'running';
  const percent = item && item.bytesTotal > 0 ? Math.min(100, Math.round((item.bytesDone / item.bytesTotal) * 100)) : 0;

  useEffect(() => {
    if (params.get('tab') === 'data') section.current?.scrollIntoView({ block: 'start' });
  }, [params]);

  const ask = useSingleFlight(async () => {
    try {
      await request.mutateAsync();
    } catch (error) {
      toast('error', errorText(error));
    }
  });
  const date = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));

  return (
    <Paper
      ref={section}
      variant="outlined"
      component="section"
      aria-labelledby="data-export-title"
      sx={{ p: { xs: 2, sm: 3 }, mt: 2, scrollMarginTop: 96 }}
      data-testid="data-export"
    >
      <Typography id="data-export-title" variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('dataExport.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('dataExport.summary')}
      </Typography>
      {current.isError && <Alert severity="error">{errorText(current.error)}</Alert>}
      {inProgress && (
        <Box role="status" sx={{ mb: 2 }} data-testid="data-export-progress">
          <Typography sx={{ mb: 1 }}>
            {item.status === 'queued'
              ? t('dataExport.queued')
              : t('dataExport.running', { done: item.filesDone, total: item.filesTotal, percent })}
          </Typography>
          <LinearProgress
            variant={item.status === 'queued' ? 'indeterminate' : 'determinate'}
            value={percent}
            aria-label={t('dataExport.progressLabel')}
          />
        </Box>
      )}
      {item?.status === 'ready' && item.downloadUrl && (
        <Box sx={{ mb: 2 }}>
          <Typography sx={{ mb: 1 }}>{t('dataExport.ready', { size: megabytes(item.size ?? 0), until: date(item.expiresAt!) })}</Typography>
          <Button
            variant="contained"
            href={item.downloadUrl}
            download
            startIcon={<DownloadOutlined aria-hidden />}
            data-testid="data-export-download"
          >
            {t('dataExport.download')}
          </Button>
        </Box>
      )}
      {item?.status === 'expired' && <Typography sx={{ mb: 2 }}>{t('dataExport.expired')}</Typography>}
      {item?.status === 'failed' && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('dataExport.failed')}
        </Alert>
      )}
      {!inProgress && (
        <PendingButton
          variant="outlined"
          pending={ask.pending}
          icon={<FolderZipOutlined aria-hidden />}
          onClick={() => void ask.run()}
          data-testid="data-export-request"
        >
          {item ? t('dataExport.requestAgain') : t('dataExport.request')}
        </PendingButton>
      )}
    </Paper>
  );
}
