import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import LinearProgress from '@mui/material/LinearProgress';

/**
 * At the very first start of a demo installation its cases are made in the minute after the
 * server answers (docs/dashboard.md): said here, with how far it is, instead of empty numbers.
 * The dashboard shows it while the demo is being made (useDemoState), loading it only then.
 */
export default function DemoPreparingNotice({ progress }: { progress: number }) {
  const { t } = useTranslation('dashboard');
  return (
    <Alert severity="info" data-testid="demo-preparing" sx={{ mb: 3 }}>
      <AlertTitle>{t('demoPreparing.title')}</AlertTitle>
      {t('demoPreparing.text')}
      <LinearProgress
        variant="determinate"
        value={progress}
        aria-label={t('demoPreparing.progress', { progress })}
        aria-valuetext={t('demoPreparing.progress', { progress })}
        sx={{ mt: 1.5, borderRadius: 1 }}
        data-testid="demo-preparing-progress"
      />
    </Alert>
  );
}
