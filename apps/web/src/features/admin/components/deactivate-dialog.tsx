import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { AdminUser } from '@sutura/domain/admin';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSetActive } from '@/features/admin/api/admin';

/** Deactivation signs the person out everywhere: it is confirmed first. */
export function DeactivateDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation(['admin', 'errors']);
  const toast = useToast();
  const setActive = useSetActive();
  const name = `${user.firstName} ${user.lastName}`;
  const confirm = () => {
    if (setActive.isPending) return;
    setActive.mutate(
      { id: user.id, active: false },
      {
        onSuccess: () => {
          toast('success', t('admin:users.deactivated'));
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open onClose={setActive.isPending ? undefined : onClose} aria-labelledby="deactivate-title" maxWidth="xs">
      <DialogTitle id="deactivate-title">{t('admin:users.deactivateTitle', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('admin:users.deactivateText')}</DialogContentText>
        {setActive.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(setActive.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={setActive.isPending}>
          {t('admin:users.cancel')}
        </Button>
        <PendingButton color="error" variant="contained" pending={setActive.isPending} onClick={confirm} data-testid="deactivate-confirm">
          {t('admin:users.deactivate')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
