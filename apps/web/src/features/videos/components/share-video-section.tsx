import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import type { VideoDetail } from '@sutura/domain/videos';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { useRevokeShare } from '@/features/videos/api/video-actions';
import { formatDate } from '@/components/video/format';

/** The people the author shared the case with, each with a button that takes the access back. */
export function SharesList({ video }: { video: VideoDetail }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const revoke = useRevokeShare();
  const [pending, setPending] = useState<string | null>(null);
  const lang = currentLanguage();

  if (video.shares.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('share.none')}
      </Typography>
    );
  }

  return (
    <List dense disablePadding data-testid="share-list">
      {video.shares.map((s) => {
        const name = `${s.firstName} ${s.lastName}`.trim() || s.email;
        const label = t('share.revoke', { name });
        return (
          <ListItem
            key={s.userId}
            disableGutters
            data-testid="share-item"
            secondaryAction={
              <Tooltip title={label}>
                <span>
                  <IconButton
                    edge="end"
                    aria-label={label}
                    data-testid="revoke-share"
                    disabled={pending === s.userId}
                    onClick={() => {
                      setPending(s.userId);
                      revoke.mutate(
                        { id: video.id, userId: s.userId },
                        {
                          onSuccess: () => toast('success', t('share.revoked', { name })),
                          onError: (error) => toast('error', errorText(error)),
                          onSettled: () => setPending(null),
                        },
                      );
                    }}
                  >
                    {pending === s.userId ? <CircularProgress size={20} aria-hidden /> : <PersonRemoveOutlined />}
                  </IconButton>
                </span>
              </Tooltip>
            }
          >
            <ListItemText
              primary={name}
              secondary={`${s.email} · ${t('share.since', { date: formatDate(s.createdAt, lang) })}`}
              slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              sx={{ pr: 4 }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
