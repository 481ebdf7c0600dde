import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { pushSupport, usePushSubscribed, useSetPush } from '@/features/settings/api/push';

/** Settings → notifications: Web Push on this browser, one subscription per device. */
export function PushToggle() {
  const { t } = useTranslation('push');
  const toast = useToast();
  const support = pushSupport();
  const subscribed = usePushSubscribed();
  const setPush = useSetPush();

  const change = (enabled: boolean) => {
    setPush.mutate(enabled, {
      onSuccess: (on) => {
        if (enabled && !on) toast('warning', t('notGranted'));
        else toast('success', t(on ? 'enabled' : 'disabled'));
      },
      onError: (error) => toast('error', errorText(error)),
    });
  };

  return (
    <Box component="section" aria-labelledby="push-title" sx={{ mb: 3 }}>
      <Typography id="push-title" variant="h3" component="h2" sx={{ mb: 1 }}>
        {t('title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <FormControlLabel
          control={
            <Switch
              checked={Boolean(subscribed.data)}
              disabled={support !== 'available' || subscribed.isPending || setPush.isPending}
              onChange={(_, checked) => change(checked)}
              slotProps={{ input: { 'aria-describedby': 'push-help', 'data-testid': 'push-toggle' } as object }}
            />
          }
          label={<Typography sx={{ fontWeight: 700 }}>{t('label')}</Typography>}
        />
        <Typography id="push-help" variant="body2" color="text.secondary" sx={{ pl: { sm: 6.5 } }}>
          {t('description')}
        </Typography>
        {support !== 'available' && (
          <Alert severity="info" variant="outlined" sx={{ mt: 1.5 }}>
            {t(support)}
          </Alert>
        )}
      </Paper>
    </Box>
  );
}
