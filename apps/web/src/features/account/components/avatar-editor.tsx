import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import PhotoCameraOutlined from '@mui/icons-material/PhotoCameraOutlined';
import type { Profile } from '@sutura/domain/users';
import { fileTooBigMessage, formatBytes } from '@sutura/domain/errors';
import { AVATAR_MAX_BYTES } from '@sutura/domain/limits';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { useRemoveAvatar, useUploadAvatar } from '@/features/account/api/avatar';
import { dangerTextSx } from '@/features/account/components/danger-text';

const SIZE = 112;

/** The avatar: the picture when there is one, otherwise the first letter of the full name. */
export function AvatarEditor({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const toast = useToast();
  const { refresh } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const busy = upload.isPending || remove.isPending;
  const fullName = `${profile.information.firstName} ${profile.information.lastName}`.trim();
  const lang = currentLanguage();

  // The header shows the avatar from the session, so it is fetched again after a change.
  const refreshHeader = () => refresh().catch((error: unknown) => console.error(error));

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared at once so choosing the same file again still fires a change.
    event.target.value = '';
    if (!file) return;
    if (file.size > AVATAR_MAX_BYTES) {
      toast('error', fileTooBigMessage(file.name, AVATAR_MAX_BYTES, lang));
      return;
    }
    try {
      await upload.mutateAsync(file);
      toast('success', t('avatar.updated'));
      await refreshHeader();
    } catch (error) {
      toast('error', errorText(error));
    }
  };

  const onRemove = async () => {
    try {
      await remove.mutateAsync();
      toast('success', t('avatar.removed'));
      await refreshHeader();
    } catch (error) {
      toast('error', errorText(error));
    }
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2.5, flexWrap: 'wrap' }}>
      {/* The edit button sits on the avatar's corner, as a sibling of it: nothing hides it from assistive technologies. */}
      <Box sx={{ position: 'relative' }}>
        <Avatar
          src={profile.avatarUrl ?? undefined}
          alt={t('avatar.alt', { name: fullName })}
          data-testid="account-avatar"
          sx={{ width: SIZE, height: SIZE, fontSize: 44, bgcolor: 'secondary.main', color: 'secondary.contrastText' }}
        >
          {fullName.charAt(0).toUpperCase()}
        </Avatar>
        {busy && <CircularProgress size={SIZE + 8} aria-label={t('avatar.saving')} sx={{ position: 'absolute', top: -4, left: -4 }} />}
        <Box sx={{ position: 'absolute', right: 0, bottom: 0 }}>
          <Tooltip title={t('avatar.edit')}>
            <span>
              <IconButton
                aria-label={t('avatar.edit')}
                onClick={() => input.current?.click()}
                disabled={busy}
                size="small"
                data-testid="avatar-edit"
                sx={{
                  bgcolor: 'primary.main',
                  color: 'primary.contrastText',
                  border: 2,
                  borderColor: 'background.paper',
                  '&:hover': { bgcolor: 'primary.dark' },
                }}
              >
                <PhotoCameraOutlined fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h2" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {fullName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('avatar.hint', { size: formatBytes(AVATAR_MAX_BYTES, lang) })}
        </Typography>
        {profile.avatarUrl && (
          <Box sx={{ mt: 1 }}>
            <Button
              size="small"
              color="error"
              sx={dangerTextSx}
              startIcon={<DeleteOutline aria-hidden />}
              onClick={() => void onRemove()}
              disabled={busy}
              data-testid="avatar-remove"
            >
              {t('avatar.remove')}
            </Button>
          </Box>
        )}
      </Box>
      <input
        ref={input}
        type="file"
        accept="image/*"
        hidden
        aria-label={t('avatar.edit')}
        data-testid="avatar-input"
        onChange={(event) => void onFile(event)}
      />
    </Box>
  );
}
