import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { LoginBody, loginBody } from '@sutura/domain/auth';
import type { z } from 'zod';
import { applyApiFieldErrors, InputFieldControl, PasswordInputControl } from '@/components/input-field';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useLogin } from '@/features/auth/api/auth';
import { ApiRequestError, errorText } from '@/lib/http';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useSession } from '@/lib/session';

// The sign-in page is the first screen of most visits: it draws before zod has arrived.
const loginResolver = lazyResolver<z.input<typeof loginBody>, LoginBody>(async () => {
  const [{ zodResolver }, { loginBody }] = await Promise.all([import('@hookform/resolvers/zod'), import('@sutura/domain/auth')]);
  return zodResolver(loginBody);
});

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const { signIn } = useSession();
  const login = useLogin();
  const { control, handleSubmit, setError, getValues } = useForm({
    resolver: loginResolver,
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit((body) => {
    login.mutate(body, {
      onSuccess: (session) => {
        signIn(session);
        void navigate('/dashboard', { replace: true });
      },
      onError: (error) => {
        if (error instanceof ApiRequestError) applyApiFieldErrors(error, setError);
      },
    });
  });

  const notValidated = login.error instanceof ApiRequestError && login.error.code === 'EMAIL_NOT_VALIDATED';

  return (
    <AuthCard title={t('login.title')} intro={t('login.intro')}>
      <Box component="form" noValidate onSubmit={onSubmit} onFocus={loginResolver.preload}>
        {login.isError && (
          <Alert
            severity="error"
            sx={{ mt: 1 }}
            action={
              notValidated ? (
                <Button
                  color="inherit"
                  size="small"
                  component={RouterLink}
                  to={`/auth/validate-email?email=${encodeURIComponent(getValues('email'))}`}
                >
                  {t('login.validateEmail')}
                </Button>
              ) : undefined
            }
          >
            {errorText(login.error)}
          </Alert>
        )}
        <InputFieldControl control={control} name="email" label={t('fields.email')} type="email" autoComplete="email" required />
        <PasswordInputControl control={control} name="password" label={t('fields.password')} autoComplete="current-password" required />
        <Box sx={{ textAlign: 'right', mt: 0.5 }}>
          <Link component={RouterLink} to="/auth/forgot-password">
            {t('login.forgotPassword')}
          </Link>
        </Box>
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 3 }} loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Box>
      <Typography sx={{ mt: 4, textAlign: 'center' }}>
        {t('login.noAccount')}{' '}
        <Link component={RouterLink} to="/auth/sign-up">
          {t('login.signUp')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
