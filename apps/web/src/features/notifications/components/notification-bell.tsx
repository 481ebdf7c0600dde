import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { useNotifications } from '@/features/notifications/api/notifications';
import { LazyTooltip } from '@/components/lazy-tooltip';

export function NotificationBell({ onOpen }: { onOpen(): void }) {
  const { t } = useTranslation('notifications');
  const { data } = useNotifications(true);
  const unread = data ? Math.max(data.unread, data.data.filter((n) => n.status === 'unread').length) : 0;
  const label = unread > 0 ? t('openUnread', { count: unread }) : t('open');
  return (
    <LazyTooltip title={t('title')}>
      <IconButton data-testid="notification-bell" aria-label={label} onClick={onOpen} color="inherit" sx={{ position: 'relative' }}>
        <NotificationsOutlined />
        {unread > 0 && (
          <Box
            data-testid="notification-dot"
            aria-hidden
            sx={{
              position: 'absolute',
              top: 8,
              right: 8,
              width: 10,
              height: 10,
              borderRadius: '50%',
              bgcolor: 'error.main',
              border: 2,
              borderColor: 'background.paper',
              boxSizing: 'content-box',
            }}
          />
        )}
      </IconButton>
    </LazyTooltip>
  );
}
