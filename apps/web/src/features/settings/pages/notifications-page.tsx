import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { EMAIL_EVENTS, type EmailEvent } from '@sutura/domain/preferences';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { PushToggle } from '@/features/settings/components/push-toggle';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { useNotificationSettings, useUpdateNotificationSettings } from '@/features/settings/api/notification-settings';
import { RetryAlert } from '@/components/retry-alert';

/**
 * `/settings/notifications`: which events also reach the person by e-mail, one switch per
 * group. In-app notifications always arrive.
 */
export function NotificationSettingsPage() {
  const { t } = useTranslation('settings');
  const toast = useToast();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();

  const change = (group: EmailEvent, enabled: boolean) => {
    update.mutate({ [group]: enabled }, { onError: (error) => toast('error', errorText(error)) });
  };

  return (
    <SettingsPage path="/settings/notifications" intro={t('notifications.intro')}>
      <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
        {t('notifications.inAppAlways')}
      </Alert>
      {settings.isError ? (
        <RetryAlert error={settings.error} retry={t('retry')} onRetry={() => void settings.refetch()} />
      ) : (
        <Paper variant="outlined">
          <List disablePadding aria-label={t('notifications.listLabel')}>
            {EMAIL_EVENTS.map((group, index) => (
              <ListItem key={group} divider={index < EMAIL_EVENTS.length - 1} sx={{ py: 1.5, display: 'block' }}>
                {settings.data ? (
                  <FormControlLabel
                    control={
                      <Switch
                        checked={settings.data[group]}
                        onChange={(_, checked) => change(group, checked)}
                        slotProps={{
                          input: { 'aria-describedby': `email-${group}-help`, 'data-testid': `email-event-${group}` } as object,
                        }}
                      />
                    }
                    label={<Typography sx={{ fontWeight: 700 }}>{t(`notifications.groups.${group}.label`)}</Typography>}
                  />
                ) : (
                  <Skeleton width={220} height={38} />
                )}
                <Box id={`email-${group}-help`} sx={{ pl: { sm: 6.5 } }}>
                  <Typography variant="body2" color="text.secondary">
                    {t(`notifications.groups.${group}.description`)}
                  </Typography>
                </Box>
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
      <Box sx={{ mt: 3 }}>
        <PushToggle />
      </Box>
    </SettingsPage>
  );
}
