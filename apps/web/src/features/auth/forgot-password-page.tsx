import { CODE_LENGTH } from '@sutura/domain/limits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { resetSendBody } from '@sutura/domain/auth';
import { codeField, passwordField, passwordsMatch } from '@sutura/domain/rules';
import { applyApiFieldErrors, PasswordFieldControl, TextFieldControl } from '@/components/form-field';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useResetCheck, useResetCheckAndSet, useResetSend } from '@/features/auth/api/auth';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';

const codeForm = z.object({ code: codeField() });
const passwordForm = z
  .object({ password: passwordField(), confirmPassword: z.string({ error: 'FIELD_REQUIRED' }).min(1, { error: 'FIELD_REQUIRED' }) })
  .superRefine(passwordsMatch);

type Step = 'email' | 'code' | 'password' | 'done';

function EmailStep({ onSent }: { onSent(email: string): void }) {
  const { t } = useTranslation('auth');
  const send = useResetSend();
  const { control, handleSubmit, setError } = useForm({ resolver: zodResolver(resetSendBody), defaultValues: { email: '' } });
  const onSubmit = handleSubmit(({ email }) =>
    send.mutate(email, {
      onSuccess: () => onSent(email),
      onError: (error) => {
        if (error instanceof ApiRequestError) applyApiFieldErrors(error, setError);
      },
    }),
  );
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      {send.isError && <Alert severity="error">{errorText(send.error)}</Alert>}
      <TextFieldControl control={control} name="email" label={t('fields.email')} type="email" autoComplete="email" required />
      <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} loading={send.isPending}>
        {t('forgot.sendCode')}
      </Button>
    </Box>
  );
}

function CodeStep({ email, onChecked }: { email: string; onChecked(code: string): void }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const check = useResetCheck();
  const resend = useResetSend();
  const { control, handleSubmit, setError } = useForm({ resolver: zodResolver(codeForm), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(({ code }) =>
    check.mutate(
      { email, code },
      {
        onSuccess: () => onChecked(code),
        onError: (error) => {
          if (error instanceof ApiRequestError) applyApiFieldErrors(error, setError);
        },
      },
    ),
  );
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      {check.isError && <Alert severity="error">{errorText(check.error)}</Alert>}
      <TextFieldControl
        control={control}
        name="code"
        label={t('fields.code')}
        autoComplete="one-time-code"
        required
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: CODE_LENGTH, pattern: '[0-9]*' } }}
      />
      <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} loading={check.isPending}>
        {t('forgot.checkCode')}
      </Button>
      <Button
        fullWidth
        sx={{ mt: 1 }}
        loading={resend.isPending}
        onClick={() =>
          resend.mutate(email, {
            onSuccess: () => toast('info', t('codeResent')),
            onError: (error) => toast('error', errorText(error)),
          })
        }
      >
        {t('resendCode')}
      </Button>
    </Box>
  );
}

function PasswordStep({ email, code, onDone }: { email: string; code: string; onDone(): void }) {
  const { t } = useTranslation('auth');
  const save = useResetCheckAndSet();
  const { control, handleSubmit, setError } = useForm({
    resolver: zodResolver(passwordForm),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const onSubmit = handleSubmit((values) =>
    save.mutate(
      { email, code, ...values },
      {
        onSuccess: onDone,
        onError: (error) => {
          if (error instanceof ApiRequestError) applyApiFieldErrors(error, setError);
        },
      },
    ),
  );
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      {save.isError && <Alert severity="error">{errorText(save.error)}</Alert>}
      <PasswordFieldControl
        control={control}
        name="password"
        label={t('fields.newPassword')}
        helperText={t('fields.passwordHint')}
        autoComplete="new-password"
        required
      />
      <PasswordFieldControl
        control={control}
        name="confirmPassword"
        label={t('fields.confirmPassword')}
        autoComplete="new-password"
        required
      />
      <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 2 }} loading={save.isPending}>
        {t('forgot.savePassword')}
      </Button>
    </Box>
  );
}

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  if (step === 'done') {
    return (
      <AuthCard title={t('forgot.title')}>
        <Box role="status" sx={{ display: 'grid', justifyItems: 'center', gap: 2, textAlign: 'center', py: 2 }}>
          <CheckCircleOutlined sx={{ fontSize: 64, color: 'primary.main' }} aria-hidden />
          <Typography variant="h2">{t('forgot.renewed')}</Typography>
          <Typography>{t('forgot.renewedText')}</Typography>
          <Button component={RouterLink} to="/auth/login" variant="contained" size="large" fullWidth>
            {t('backToLogin')}
          </Button>
        </Box>
      </AuthCard>
    );
  }

  const intro = {
    email: t('forgot.introEmail'),
    code: t('forgot.introCode', { email }),
    password: t('forgot.introPassword'),
  }[step];

  return (
    <AuthCard title={t('forgot.title')} intro={intro}>
      {step === 'email' && (
        <EmailStep
          onSent={(sent) => {
            setEmail(sent);
            setStep('code');
          }}
        />
      )}
      {step === 'code' && (
        <CodeStep
          email={email}
          onChecked={(checked) => {
            setCode(checked);
            setStep('password');
          }}
        />
      )}
      {step === 'password' && <PasswordStep email={email} code={code} onDone={() => setStep('done')} />}
      <Typography sx={{ mt: 4, textAlign: 'center' }}>
        <Link component={RouterLink} to="/auth/login">
          {t('backToLogin')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
