import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import type { ErasureReceipt } from '@sutura/domain/data-export';
import { DELETE_CONFIRMATION_WORDS, deleteAccountBody } from '@sutura/domain/users';
import { useSingleFlight } from '@/lib/single-flight';
import { PendingButton } from '@/components/pending-button';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { applyApiFieldErrors, PasswordFieldControl, TextFieldControl } from '@/components/form-field';
import { useDeleteAccount } from '@/features/account/api/account';
import { dangerTextSx } from '@/features/account/components/danger-text';
import { keepReceipt } from '@/features/account/erasure-receipt';

type DeleteInput = z.input<typeof deleteAccountBody>;
type DeleteOutput = z.output<typeof deleteAccountBody>;

/** The shared body, plus the word of the current language typed exactly. */
function deleteFormSchema(word: string) {
  return deleteAccountBody.superRefine((value, ctx) => {
    if (value.confirmation !== word) ctx.addIssue({ code: 'custom', path: ['confirmation'], message: 'DELETE_CONFIRMATION' });
  });
}

function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('account');
  const toast = useToast();
  const remove = useDeleteAccount();
  const word = DELETE_CONFIRMATION_WORDS[currentLanguage()];
  const resolver = useMemo(() => zodResolver(deleteFormSchema(word)), [word]);
  const { control, handleSubmit, reset, setError } = useForm<DeleteInput, unknown, DeleteOutput>({
    resolver,
    defaultValues: { password: '', confirmation: '' },
  });

  const submit = useSingleFlight(
    handleSubmit(async (body) => {
      let receipt: ErasureReceipt;
      try {
        receipt = await remove.mutateAsync(body);
      } catch (error) {
        if (error instanceof ApiRequestError) {
          if (applyApiFieldErrors(error, setError)) return;
          if (error.code === 'CURRENT_PASSWORD_INCORRECT' || error.code === 'INVALID_CREDENTIALS') {
            setError('password', { type: 'server', message: 'CURRENT_PASSWORD_INCORRECT' }, { shouldFocus: true });
            return;
          }
          if (error.code === 'DELETE_CONFIRMATION') {
            setError('confirmation', { type: 'server', message: 'DELETE_CONFIRMATION' }, { shouldFocus: true });
            return;
          }
        }
        toast('error', errorText(error));
        return;
      }
      toast('success', t('delete.done'));
      keepReceipt(receipt);
      // The server ended the session with the account: a fresh page load shows the receipt signed out,
      // with nothing of the signed-in app left to react to the session's end on its own.
      window.location.replace('/account-deleted');
    }),
  );
  const close = () => {
    if (submit.pending) return;
    reset();
    onClose();
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby="delete-account-title"
      aria-describedby="delete-account-warning"
      maxWidth="xs"
      fullWidth
    >
      <Box component="form" noValidate onSubmit={(e) => void submit.run(e)}>
        <DialogTitle id="delete-account-title">{t('delete.dialogTitle')}</DialogTitle>
        <DialogContent>
          <Alert severity="error" id="delete-account-warning" sx={{ mb: 2 }}>
            {t('delete.irreversible')}
          </Alert>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('delete.whatIsDeleted')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t('delete.whatIsKept')}
          </Typography>
          <PasswordFieldControl
            control={control}
            name="password"
            label={t('delete.password')}
            autoComplete="current-password"
            required
            slotProps={{ htmlInput: { 'data-testid': 'delete-account-password' } as object }}
          />
          <TextFieldControl
            control={control}
            name="confirmation"
            label={t('delete.confirmationLabel', { word })}
            helperText={t('delete.confirmationHelp', { word })}
            autoComplete="off"
            required
            slotProps={{
              htmlInput: { 'data-testid': 'delete-account-confirmation', spellCheck: false, autoCapitalize: 'characters' } as object,
            }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={submit.pending}>
            {t('delete.cancel')}
          </Button>
          <PendingButton
            type="submit"
            variant="contained"
            color="error"
            pending={submit.pending}
            icon={<DeleteForeverOutlined aria-hidden />}
            data-testid="delete-account-confirm"
          >
            {t('delete.confirm')}
          </PendingButton>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The "delete my account" section of the account page and its confirmation dialog. */
export function DeleteAccountSection() {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="delete-account-section-title"
      sx={{ p: { xs: 2, sm: 3 }, mt: 2, borderColor: 'error.main' }}
    >
      <Typography id="delete-account-section-title" variant="h3" component="h3" sx={{ mb: 1 }}>
        {t('delete.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('delete.summary')}
      </Typography>
      <Button
        variant="outlined"
        color="error"
        sx={dangerTextSx}
        startIcon={<DeleteForeverOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        data-testid="delete-account"
      >
        {t('delete.open')}
      </Button>
      <DeleteAccountDialog open={open} onClose={() => setOpen(false)} />
    </Paper>
  );
}
