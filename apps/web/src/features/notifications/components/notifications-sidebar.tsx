import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Close from '@mui/icons-material/Close';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import { LAYOUT } from '@sutura/domain/limits';
import type { Notification } from '@sutura/domain/notifications';
import { formatRelativeTime } from '@sutura/domain/relative-time';
import { useQueryClient } from '@tanstack/react-query';
import { useDeleteNotification, useEmptyNotifications, useMarkAllRead } from '@/features/notifications/api/notification-actions';
import { notificationKeys, useNotifications, type NotificationList } from '@/features/notifications/api/notifications';
import { currentLanguage } from '@/lib/i18n';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';

// SPEC §9: success → primary, error → tertiary, other → secondary.
const TYPE_STYLE = {
  success: { color: 'primary.main', Icon: CheckCircleOutlined },
  error: { color: 'tertiary.main', Icon: ErrorOutlined },
  other: { color: 'secondary.main', Icon: InfoOutlined },
} as const;

function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

function NotificationItem({ notification, now, onOpenLink }: { notification: Notification; now: Date; onOpenLink(link: string): void }) {
  const { t } = useTranslation('notifications');
  const toast = useToast();
  const remove = useDeleteNotification();
  const { color, Icon } = TYPE_STYLE[notification.type];
  const read = notification.status === 'read';
  const link = notification.link;
  return (
    <Box
      component="li"
      data-testid="notification-item"
      data-status={notification.status}
      sx={{
        listStyle: 'none',
        display: 'flex',
        gap: 1.5,
        alignItems: 'flex-start',
        px: 2,
        py: 1.5,
        borderLeft: 4,
        borderColor: color,
        // A read notice is told by its normal weight and faded icon; its text keeps its contrast (WCAG 1.4.3).
        '& + &': { borderTop: 1, borderTopColor: 'divider' },
      }}
    >
      <Icon sx={{ color, mt: 0.5, opacity: read ? 0.5 : 1 }} aria-hidden />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography
          variant="body2"
          component={link ? 'button' : 'p'}
          onClick={link ? () => onOpenLink(link) : undefined}
          sx={{
            fontWeight: read ? 400 : 700,
            wordBreak: 'break-word',
            ...(link && { all: 'unset', cursor: 'pointer', fontSize: 14, lineHeight: '22px', '&:hover': { textDecoration: 'underline' } }),
          }}
        >
          {notification.content}
        </Typography>
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.25 }}>
          <time dateTime={notification.createdAt}>{formatRelativeTime(new Date(notification.createdAt), now, currentLanguage())}</time>
        </Typography>
      </Box>
      <IconButton
        size="small"
        aria-label={t('delete')}
        disabled={remove.isPending}
        onClick={() => remove.mutate(notification.id, { onError: (error) => toast('error', errorText(error)) })}
      >
        <DeleteOutlined fontSize="small" />
      </IconButton>
    </Box>
  );
}

export function NotificationsSidebar({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('notifications');
  const toast = useToast();
  const navigate = useNavigate();
  const { data, isPending, isError } = useNotifications(true);
  const empty = useEmptyNotifications();
  const now = useNow(30_000);
  const notifications = data?.data ?? [];

  // Each opening marks as read the notifications the bell counted at the press (the list it keeps
  // fresh): once per opening, not again while the panel stays open.
  const queryClient = useQueryClient();
  const markAllRead = useMarkAllRead();
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) {
      const shown = queryClient.getQueryData<NotificationList>(notificationKeys.list);
      if (shown?.data.some((n) => n.status === 'unread')) markAllRead.mutate(shown.data);
    }
    wasOpen.current = open;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opening, with the list of that moment
  }, [open]);

  const openLink = (link: string) => {
    onClose();
    void navigate(link);
  };

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      // Above the bottom tab bar, which stays over the left menu so its Menu tab can close it.
      sx={{ zIndex: (theme) => theme.zIndex.drawer + 3 }}
      slotProps={{
        paper: {
          'aria-labelledby': 'notifications-title',
          sx: { width: { xs: '100%', sm: LAYOUT.rightSidebarWidth }, maxWidth: '100%', bgcolor: 'background.paper' },
        },
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, minHeight: 64 }}>
        <Typography id="notifications-title" variant="h2" sx={{ flex: 1 }}>
          {t('title')}
        </Typography>
        <IconButton aria-label={t('close')} onClick={onClose}>
          <Close />
        </IconButton>
      </Box>
      <Divider />
      {isPending && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {isError && (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('errors:GENERIC')}
        </Alert>
      )}
      {data && notifications.length === 0 && (
        <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, px: 3, py: 8, textAlign: 'center', color: 'text.secondary' }}>
          <NotificationsNoneOutlined sx={{ fontSize: 48 }} aria-hidden />
          <Typography sx={{ fontWeight: 700, color: 'text.primary' }}>{t('emptyTitle')}</Typography>
          <Typography variant="body2">{t('emptyText')}</Typography>
        </Box>
      )}
      {notifications.length > 0 && (
        <>
          <Box component="ul" aria-label={t('listLabel')} sx={{ m: 0, p: 0, flex: 1, overflowY: 'auto' }}>
            {notifications.map((n) => (
              <NotificationItem key={n.id} notification={n} now={now} onOpenLink={openLink} />
            ))}
          </Box>
          <Divider />
          <Box sx={{ p: 2 }}>
            <Button
              fullWidth
              variant="outlined"
              color="inherit"
              startIcon={<DeleteOutlined />}
              disabled={empty.isPending}
              onClick={() => empty.mutate(notifications, { onError: (error) => toast('error', errorText(error)) })}
            >
              {t('empty')}
            </Button>
          </Box>
        </>
      )}
    </Drawer>
  );
}
