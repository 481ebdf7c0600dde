import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { setNewPasswordBody } from '@sutura/domain/auth';
import { LAYOUT } from '@sutura/domain/limits';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { applyApiFieldErrors, PasswordFieldControl } from '@/components/form-field';
import { PendingButton } from '@/components/pending-button';
import { useSingleFlight } from '@/lib/single-flight';
import { useChangePassword } from '@/features/account/api/account';

type PasswordInput = z.input<typeof setNewPasswordBody>;
type PasswordOutput = z.output<typeof setNewPasswordBody>;

/** `/my-account/edit-password`: the answer is a new session, since older tokens are revoked. */
export function EditPasswordPage() {
  const { t } = useTranslation('account');
  const toast = useToast();
  const navigate = useNavigate();
  const { signIn } = useSession();
  const change = useChangePassword();
  const { control, handleSubmit, setError } = useForm<PasswordInput, unknown, PasswordOutput>({
    resolver: zodResolver(setNewPasswordBody),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });

  const submit = useSingleFlight(
    handleSubmit(async (body) => {
      try {
        const session = await change.mutateAsync(body);
        signIn(session);
        toast('success', t('password.changed'));
        await navigate('/my-account');
      } catch (error) {
        if (error instanceof ApiRequestError) {
          if (error.code === 'CURRENT_PASSWORD_INCORRECT') {
            setError('currentPassword', { type: 'server', message: 'CURRENT_PASSWORD_INCORRECT' }, { shouldFocus: true });
            return;
          }
          if (applyApiFieldErrors(error, setError)) return;
        }
        toast('error', errorText(error));
      }
    }),
  );

  return (
    <Box sx={{ maxWidth: LAYOUT.formMaxWidth + 2 * LAYOUT.formPadding, width: '100%', mx: 'auto', pb: 3 }}>
      <Paper
        variant="outlined"
        component="form"
        noValidate
        onSubmit={(e) => void submit.run(e)}
        aria-labelledby="edit-password-title"
        sx={{ p: `${LAYOUT.formPadding}px` }}
      >
        <Typography id="edit-password-title" variant="h2" component="h2" sx={{ mb: 1 }}>
          {t('password.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('password.rule')}
        </Typography>
        <PasswordFieldControl
          control={control}
          name="currentPassword"
          label={t('password.current')}
          autoComplete="current-password"
          required
          slotProps={{ htmlInput: { 'data-testid': 'current-password' } as object }}
        />
        <PasswordFieldControl
          control={control}
          name="password"
          label={t('password.new')}
          autoComplete="new-password"
          required
          slotProps={{ htmlInput: { 'data-testid': 'new-password' } as object }}
        />
        <PasswordFieldControl
          control={control}
          name="confirmPassword"
          label={t('password.confirm')}
          autoComplete="new-password"
          required
          slotProps={{ htmlInput: { 'data-testid': 'confirm-password' } as object }}
        />
        <PendingButton
          type="submit"
          variant="contained"
          fullWidth
          pending={submit.pending}
          data-testid="edit-password-submit"
          sx={{ mt: 2 }}
        >
          {t('password.submit')}
        </PendingButton>
      </Paper>
    </Box>
  );
}
