import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { useNotifications } from '@/features/notifications/api/notifications';
import { LazyTooltip } from '@/components/lazy-tooltip';
import { LiveAnnouncement } from '@/components/live-announcement';
import { usePainted } from '@/lib/first-paint';

export function NotificationBell({ onOpen }: { onOpen(): void }) {
  const { t } = useTranslation('notifications');
  // Asked once the screen has drawn: the bell's number is not what a first screen waits for.
  const { data } = useNotifications(usePainted());
  const unread = data ? Math.max(data.unread, data.data.filter((n) => n.status === 'unread').length) : 0;
  const label = unread > 0 ? t('openUnread', { count: unread }) : t('open');
  // A screen reader hears of new notifications once, when their number grows (not on the first load).
  const seen = useRef<number | null>(null);
  const [news, setNews] = useState('');
  useEffect(() => {
    if (!data) return;
    if (seen.current !== null && unread > seen.current) setNews(t('newArrived', { count: unread }));
    seen.current = unread;
  }, [data, unread, t]);
  return (
    <>
      <LiveAnnouncement testId="notification-announcement" text={news} />
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
    </>
  );
}
