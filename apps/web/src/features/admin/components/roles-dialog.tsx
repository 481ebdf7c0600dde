import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import type { AdminUser } from '@sutura/domain/admin';
import { ROLES, type Role } from '@sutura/domain/roles';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSetRoles } from '@/features/admin/api/admin';

/** Several roles per person; one's own administrator role cannot be unticked. */
export function RolesDialog({ user, self, onClose }: { user: AdminUser; self: boolean; onClose: () => void }) {
  const { t } = useTranslation(['admin', 'errors']);
  const toast = useToast();
  const [roles, setRoles] = useState<Role[]>(user.roles);
  const save = useSetRoles();
  const name = `${user.firstName} ${user.lastName}`;
  const toggle = (role: Role, on: boolean) =>
    setRoles((r) => (on ? ROLES.filter((x) => x === role || r.includes(x)) : r.filter((x) => x !== role)));
  const submit = () => {
    if (save.isPending) return;
    save.mutate(
      { id: user.id, roles },
      {
        onSuccess: () => {
          toast('success', t('admin:users.rolesSaved'));
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby="roles-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="roles-dialog-title">{t('admin:users.editRolesOf', { name })}</DialogTitle>
      <DialogContent>
        <FormGroup aria-describedby="roles-dialog-help">
          {ROLES.map((role) => {
            const locked = self && role === 'administrator';
            return (
              <FormControlLabel
                key={role}
                control={
                  <Checkbox
                    checked={roles.includes(role)}
                    disabled={locked || save.isPending}
                    onChange={(e) => toggle(role, e.target.checked)}
                    data-testid={`role-${role}`}
                  />
                }
                label={t(`admin:roles.${role}`)}
              />
            );
          })}
        </FormGroup>
        <FormHelperText id="roles-dialog-help">{self ? t('admin:users.selfHint') : t('admin:users.rolesHelp')}</FormHelperText>
        {save.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(save.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('admin:users.cancel')}
        </Button>
        <PendingButton variant="contained" pending={save.isPending} disabled={roles.length === 0} onClick={submit} data-testid="roles-save">
          {t('admin:users.save')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
