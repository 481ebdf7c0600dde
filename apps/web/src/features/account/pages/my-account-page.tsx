import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { AvatarEditor } from '@/features/account/components/avatar-editor';
import { DataExportSection } from '@/features/account/components/data-export-section';
import { DeleteAccountSection } from '@/features/account/components/delete-account-section';
import { IdentitiesSection } from '@/features/account/components/identities-section';
import { MyProgrammesSection } from '@/components/programmes/my-programmes-section';
import { ProfileForm } from '@/features/account/components/profile-form';
import { useProfile } from '@/features/account/api/profile';
import { RetryAlert } from '@/components/retry-alert';

/** `/my-account`: avatar, profile, password, linked identities, a copy of one's data and account deletion. */
export function MyAccountPage() {
  const { t } = useTranslation('account');
  const profile = useProfile();

  return (
    <Box sx={{ maxWidth: 880, width: '100%', mx: 'auto', pb: 3 }}>
      {profile.isError ? (
        <RetryAlert error={profile.error} retry={t('retry')} onRetry={() => void profile.refetch()} />
      ) : !profile.data ? (
        <Box role="status" aria-label={t('loading')}>
          <Skeleton variant="circular" width={112} height={112} />
          <Skeleton variant="rounded" height={320} sx={{ mt: 3 }} />
        </Box>
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
            <AvatarEditor profile={profile.data} />
          </Paper>
          <ProfileForm profile={profile.data} />
          <Paper variant="outlined" component="section" aria-labelledby="password-section-title" sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}>
            <Typography id="password-section-title" variant="h3" component="h3" sx={{ mb: 1 }}>
              {t('password.title')}
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('password.summary')}
            </Typography>
            <Button
              component={RouterLink}
              to="/my-account/edit-password"
              variant="outlined"
              startIcon={<LockOutlined aria-hidden />}
              data-testid="edit-password-link"
            >
              {t('password.change')}
            </Button>
          </Paper>
          <MyProgrammesSection />
          <IdentitiesSection />
          <DataExportSection />
          <DeleteAccountSection />
        </>
      )}
    </Box>
  );
}
