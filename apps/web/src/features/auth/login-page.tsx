import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { isErrorCode } from '@/lib/error-codes';
import type { LoginBody } from '@sutura/domain/auth';
import { PasswordInput, TextInput } from '@/components/text-input';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useLogin } from '@/features/auth/api/auth';
import { ssoStartUrl, useSsoOptions } from '@/lib/sso';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';

const FIELDS = ['email', 'password'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
type FieldErrors = Partial<Record<Field, string>>;

// The sign-in page is the first screen of most visits: it draws before zod and any form library
// have arrived. The shared schema comes at the first validation, or when a field gets the focus.
let schema: Promise<typeof import('@sutura/domain/auth')> | undefined;
const loadSchema = () => (schema ??= import('@sutura/domain/auth'));
const preloadSchema = () => void loadSchema().catch((error: unknown) => console.error(error));

/** The body, or the first error code of each field, by the shared schema. */
async function validate(values: Values): Promise<{ body: LoginBody } | { errors: FieldErrors }> {
  const { loginBody } = await loadSchema();
  const result = loginBody.safeParse(values);
  if (result.success) return { body: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = FIELDS.find((f) => f === issue.path[0]);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}

export function LoginPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const [params] = useSearchParams();
  // A refusal of a sign-in with a provider comes back here with its catalogue code.
  const ssoError = params.get('sso_error');
  const sso = useSsoOptions();
  const providers = sso.data?.providers ?? [];
  const passwordSignIn = sso.data?.passwordSignIn ?? true;
  // SSO-only: the password form stays reachable for the break-glass administrator, folded.
  const [showPassword, setShowPassword] = useState(false);
  const passwordShown = passwordSignIn || showPassword;
  const navigate = useNavigate();
  const { signIn } = useSession();
  const login = useLogin();
  const [values, setValues] = useState<Values>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  // As before with react-hook-form: validated at the submit, then at each change.
  const submitted = useRef(false);
  const validating = useRef(false);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  const change = (field: Field) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (!submitted.current) return;
    void validate(next).then(
      (checked) => setErrors((current) => ({ ...current, [field]: 'errors' in checked ? checked.errors[field] : undefined })),
      (error: unknown) => console.error(error),
    );
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Once whatever the clicks: a second submit while this one validates or is sent does nothing.
    if (login.isPending || validating.current) return;
    submitted.current = true;
    validating.current = true;
    const checked = await validate(values).finally(() => (validating.current = false));
    if ('errors' in checked) {
      setErrors(checked.errors);
      (checked.errors.email ? emailInput : passwordInput).current?.focus();
      return;
    }
    setErrors({});
    login.mutate(checked.body, {
      onSuccess: (session) => {
        signIn(session);
        void navigate('/dashboard', { replace: true });
      },
      onError: (error) => {
        if (!(error instanceof ApiRequestError)) return;
        const placed: FieldErrors = {};
        for (const detail of error.details ?? []) {
          const field = FIELDS.find((f) => f === detail.path);
          if (field) placed[field] = isErrorCode(detail.code) ? detail.code : detail.message;
        }
        setErrors(placed);
      },
    });
  };

  const notValidated = login.error instanceof ApiRequestError && login.error.code === 'EMAIL_NOT_VALIDATED';

  const lang = currentLanguage();
  return (
    <AuthCard title={t('login.title')} intro={t('login.intro')}>
      {ssoError && (
        <Alert severity="error" sx={{ mt: 1 }} data-testid="sso-error">
          {isErrorCode(ssoError) ? t(`errors:${ssoError}`) : t('errors:GENERIC')}
        </Alert>
      )}
      {providers.length > 0 && (
        <Box component="nav" aria-label={t('login.ssoTitle')} sx={{ display: 'grid', gap: 1.5, mt: 2 }}>
          {providers.map((provider) => (
            <Button
              key={provider.id}
              component="a"
              href={ssoStartUrl(provider.id)}
              variant={provider.kind === 'psc' ? 'contained' : 'outlined'}
              size="large"
              fullWidth
              data-testid={`sso-${provider.id}`}
            >
              {t('login.ssoWith', { name: provider.name[lang] })}
            </Button>
          ))}
        </Box>
      )}
      {providers.length > 0 && passwordShown && <Divider sx={{ my: 3 }}>{t('login.or')}</Divider>}
      {!passwordShown && (
        <Box sx={{ textAlign: 'center', mt: 3 }}>
          <Button variant="text" size="small" onClick={() => setShowPassword(true)} data-testid="break-glass">
            {t('login.breakGlass')}
          </Button>
        </Box>
      )}
      {passwordShown && (
        <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} onFocus={preloadSchema}>
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
                    to={`/auth/validate-email?email=${encodeURIComponent(values.email)}`}
                  >
                    {t('login.validateEmail')}
                  </Button>
                ) : undefined
              }
            >
              {errorText(login.error)}
            </Alert>
          )}
          <TextInput
            name="email"
            value={values.email}
            onChange={change('email')}
            inputRef={emailInput}
            error={errors.email}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <PasswordInput
            name="password"
            value={values.password}
            onChange={change('password')}
            inputRef={passwordInput}
            error={errors.password}
            label={t('fields.password')}
            autoComplete="current-password"
            required
          />
          <Box sx={{ textAlign: 'right', mt: 0.5 }}>
            <Link component={RouterLink} to="/auth/forgot-password">
              {t('login.forgotPassword')}
            </Link>
          </Box>
          <Button type="submit" variant="contained" fullWidth size="large" sx={{ mt: 3 }} loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Box>
      )}
      {passwordSignIn && (
        <Typography sx={{ mt: 4, textAlign: 'center' }}>
          {t('login.noAccount')}{' '}
          <Link component={RouterLink} to="/auth/sign-up">
            {t('login.signUp')}
          </Link>
        </Typography>
      )}
    </AuthCard>
  );
}
