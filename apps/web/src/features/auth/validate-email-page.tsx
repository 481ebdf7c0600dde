import { CODE_LENGTH } from '@sutura/domain/limits';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { verifyBody } from '@sutura/domain/auth';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useResendCode, useVerifyEmail } from '@/features/auth/api/auth';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';

const REDIRECT_DELAY_MS = 2500;

export function ValidateEmailPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const toast = useToast();
  const [params] = useSearchParams();
  const { signIn } = useSession();
  const verify = useVerifyEmail();
  const resend = useResendCode();
  const [validated, setValidated] = useState(false);
  const initialEmail = params.get('email') ?? '';
  const { control, handleSubmit, setError, getValues, trigger } = useForm({
    resolver: zodResolver(verifyBody),
    defaultValues: { email: initialEmail, code: '' },
  });

  useEffect(() => {
    if (!validated) return;
    const id = window.setTimeout(() => void navigate('/dashboard', { replace: true }), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(id);
  }, [validated, navigate]);

  const onSubmit = handleSubmit((body) =>
    verify.mutate(body, {
      onSuccess: (session) => {
        signIn(session);
        setValidated(true);
      },
      onError: (error) => {
        if (error instanceof ApiRequestError) applyApiFieldErrors(error, setError);
      },
    }),
  );

  const onResend = async () => {
    if (!(await trigger('email'))) return;
    resend.mutate(getValues('email'), {
      onSuccess: () => toast('info', t('codeResent')),
      onError: (error) => toast('error', errorText(error)),
    });
  };

  if (validated) {
    return (
      <AuthCard title={t('validate.title')}>
        <Box role="status" sx={{ display: 'grid', justifyItems: 'center', gap: 2, textAlign: 'center', py: 2 }}>
          <CheckCircleOutlined sx={{ fontSize: 64, color: 'primary.main' }} aria-hidden />
          <Typography variant="h2">{t('validate.success')}</Typography>
          <Typography>{t('validate.successText')}</Typography>
          <Button component={RouterLink} to="/dashboard" replace variant="contained" size="large" fullWidth>
            {t('validate.goToDashboard')}
          </Button>
        </Box>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('validate.title')} intro={initialEmail ? t('validate.intro', { email: initialEmail }) : t('validate.introNoEmail')}>
      <Box component="form" noValidate onSubmit={onSubmit}>
        {verify.isError && (
          <Alert severity="error" sx={{ mt: 1 }}>
            <AlertTitle>{t('errors:EMAIL_VALIDATION_FAILED')}</AlertTitle>
            {errorText(verify.error)}
          </Alert>
        )}
        <TextFieldControl
          control={control}
          name="email"
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
          sx={initialEmail ? { display: 'none' } : undefined}
        />
        <TextFieldControl
          control={control}
          name="code"
          label={t('fields.code')}
          autoComplete="one-time-code"
          required
          autoFocus
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: CODE_LENGTH, pattern: '[0-9]*' } }}
        />
        <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} loading={verify.isPending}>
          {t('validate.submit')}
        </Button>
        <Button fullWidth sx={{ mt: 1 }} onClick={() => void onResend()} loading={resend.isPending}>
          {t('resendCode')}
        </Button>
      </Box>
      <Typography sx={{ mt: 4, textAlign: 'center' }}>
        <Link component={RouterLink} to="/auth/login">
          {t('backToLogin')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
