import { lazy, Suspense, useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Session } from '@sutura/domain/auth';
import { isErrorCode } from '@/lib/error-codes';
import type { SsoPending } from '@sutura/domain/sso';
import { AuthCard } from '@/features/auth/components/auth-card';
import { useSsoCancel, useSsoComplete, useSsoLink, useSsoLinkCode, useSsoPending } from '@/lib/sso';
import { PageLoader } from '@/components/page-loader';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useSpecialties } from '@/lib/vocabularies';

const GeneralConditionsText = lazy(async () => ({ default: (await import('@/components/legal/legal-texts')).GeneralConditionsText }));
const PrivacyPolicyText = lazy(async () => ({ default: (await import('@/components/legal/legal-texts')).PrivacyPolicyText }));

type FieldErrors = Partial<Record<'email' | 'specialtyId' | 'acceptTerms' | 'acceptPrivacy' | 'password' | 'code', string>>;

/** The field errors of a refused body, by field; the rest as the form's message. */
function placeErrors(error: unknown, fields: readonly string[]): FieldErrors {
  const placed: FieldErrors = {};
  if (!(error instanceof ApiRequestError)) return placed;
  for (const detail of error.details ?? []) {
    if (fields.includes(detail.path)) placed[detail.path as keyof FieldErrors] = isErrorCode(detail.code) ? detail.code : detail.message;
  }
  return placed;
}

/** A first sign-in with a provider: only what the provider did not give. */
function CompleteSignUp({ pending, onSession }: { pending: SsoPending; onSession: (session: Session) => void }) {
  const { t } = useTranslation(['auth', 'errors']);
  const specialties = useSpecialties('pick');
  const complete = useSsoComplete();
  const [email, setEmail] = useState('');
  const [specialtyId, setSpecialtyId] = useState('');
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [acceptPrivacy, setAcceptPrivacy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [dialog, setDialog] = useState<'terms' | 'privacy' | null>(null);

  const openDialog = (which: 'terms' | 'privacy') => (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDialog(which);
  };

  const submit = useSingleFlight(async (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!pending.email && !email.trim()) local.email = 'FIELD_REQUIRED';
    if (!specialtyId) local.specialtyId = 'FIELD_REQUIRED';
    if (!acceptTerms) local.acceptTerms = 'TERMS_REQUIRED';
    if (!acceptPrivacy) local.acceptPrivacy = 'TERMS_REQUIRED';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const session = await complete.mutateAsync({
        ...(pending.email ? {} : { email: email.trim() }),
        specialtyId,
        acceptTerms: true,
        acceptPrivacy: true,
      });
      onSession(session);
    } catch (error) {
      setErrors(placeErrors(error, ['email', 'specialtyId', 'acceptTerms', 'acceptPrivacy']));
    }
  });
  const message = (code: string | undefined) => (code ? t(`errors:${code}`, { defaultValue: code }) : undefined);

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit.run(event)} data-testid="sso-complete">
      <Typography sx={{ mb: 2 }}>{t('sso.completeIntro')}</Typography>
      {complete.isError && !Object.keys(errors).length && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(complete.error)}
        </Alert>
      )}
      {pending.email ? (
        <Typography sx={{ mb: 2 }}>{t('sso.emailFromProvider', { email: pending.email })}</Typography>
      ) : (
        <TextField
          name="email"
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
          fullWidth
          margin="normal"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(errors.email)}
          helperText={message(errors.email) ?? t('sso.emailHint')}
        />
      )}
      <TextField
        name="specialtyId"
        label={t('fields.specialty')}
        select
        required
        fullWidth
        margin="normal"
        value={specialtyId}
        onChange={(e) => setSpecialtyId(e.target.value)}
        disabled={!specialties.data}
        error={Boolean(errors.specialtyId)}
        helperText={message(errors.specialtyId)}
        data-testid="sso-specialty"
      >
        {(specialties.data ?? []).map((specialty) => (
          <MenuItem key={specialty.id} value={specialty.id}>
            {specialty.name}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        sx={{ mt: 1 }}
        control={<Checkbox checked={acceptTerms} onChange={(e) => setAcceptTerms(e.target.checked)} name="acceptTerms" />}
        label={
          <>
            {t('signUp.acceptTerms')}{' '}
            <Link component="button" type="button" onClick={openDialog('terms')} sx={{ verticalAlign: 'baseline' }}>
              {t('signUp.termsLink')}
            </Link>
          </>
        }
      />
      {errors.acceptTerms && <FormHelperText error>{message(errors.acceptTerms)}</FormHelperText>}
      <FormControlLabel
        control={<Checkbox checked={acceptPrivacy} onChange={(e) => setAcceptPrivacy(e.target.checked)} name="acceptPrivacy" />}
        label={
          <>
            {t('signUp.acceptPrivacy')}{' '}
            <Link component="button" type="button" onClick={openDialog('privacy')} sx={{ verticalAlign: 'baseline' }}>
              {t('signUp.privacyLink')}
            </Link>
          </>
        }
      />
      {errors.acceptPrivacy && <FormHelperText error>{message(errors.acceptPrivacy)}</FormHelperText>}
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 3 }} loading={submit.pending}>
        {t('sso.create')}
      </Button>
      <Dialog
        open={dialog !== null}
        onClose={() => setDialog(null)}
        scroll="paper"
        maxWidth="md"
        fullWidth
        aria-labelledby="sso-legal-title"
      >
        <DialogTitle id="sso-legal-title">{dialog === 'privacy' ? t('signUp.privacyTitle') : t('signUp.termsTitle')}</DialogTitle>
        <DialogContent dividers>
          <Suspense fallback={<PageLoader />}>
            {dialog === 'privacy' ? <PrivacyPolicyText hideTitle /> : <GeneralConditionsText hideTitle />}
          </Suspense>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)}>{t('signUp.close')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              if (dialog === 'privacy') setAcceptPrivacy(true);
              else setAcceptTerms(true);
              setDialog(null);
            }}
          >
            {t('signUp.accept')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/** An account exists already: its holder proves it (password or emailed code), then it is linked. */
function LinkAccount({ pending, onSession }: { pending: SsoPending; onSession: (session: Session) => void }) {
  const { t } = useTranslation(['auth', 'errors']);
  const link = useSsoLink();
  const sendCode = useSsoLinkCode();
  const hasPassword = pending.account?.hasPassword ?? false;
  const [mode, setMode] = useState<'password' | 'code'>(hasPassword ? 'password' : 'code');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const submit = useSingleFlight(async (event: FormEvent) => {
    event.preventDefault();
    try {
      onSession(await link.mutateAsync(mode === 'password' ? { password } : { code: code.trim() }));
    } catch {
      // Shown below.
    }
  });
  const askCode = useSingleFlight(async () => {
    await sendCode.mutateAsync().catch(() => undefined);
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit.run(event)} data-testid="sso-link">
      <Typography sx={{ mb: 2 }}>{t('sso.linkIntro', { email: pending.account?.maskedEmail ?? '' })}</Typography>
      {(link.isError || sendCode.isError) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorText(link.error ?? sendCode.error)}
        </Alert>
      )}
      {mode === 'password' ? (
        <TextField
          name="password"
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          required
          fullWidth
          margin="normal"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      ) : (
        <>
          {sendCode.isSuccess ? (
            <Alert severity="success" sx={{ mb: 1 }} role="status">
              {t('sso.codeSent', { email: pending.account?.maskedEmail ?? '' })}
            </Alert>
          ) : (
            <Button variant="outlined" fullWidth onClick={() => void askCode.run()} loading={askCode.pending} data-testid="sso-send-code">
              {t('sso.sendCode')}
            </Button>
          )}
          <TextField
            name="code"
            label={t('sso.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            fullWidth
            margin="normal"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </>
      )}
      <Button type="submit" variant="contained" size="large" fullWidth sx={{ mt: 2 }} loading={submit.pending}>
        {t('sso.link')}
      </Button>
      {hasPassword && (
        <Box sx={{ textAlign: 'center', mt: 1 }}>
          <Button variant="text" size="small" onClick={() => setMode(mode === 'password' ? 'code' : 'password')}>
            {mode === 'password' ? t('sso.useCode') : t('sso.usePassword')}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/** `/auth/sso`: the identity a provider proved, waiting for a first sign-up or for a link to an account. */
export function SsoPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const navigate = useNavigate();
  const { signIn } = useSession();
  const pending = useSsoPending();
  const cancel = useSsoCancel();
  const lang = currentLanguage();
  const onSession = (session: Session) => {
    signIn(session);
    void navigate('/dashboard', { replace: true });
  };
  const leave = useSingleFlight(async () => {
    await cancel.mutateAsync().catch(() => undefined);
    await navigate('/auth/login', { replace: true });
  });

  const data = pending.data;
  const title = data ? t('sso.welcome', { name: `${data.firstName} ${data.lastName}` }) : t('sso.title');
  return (
    <AuthCard title={title} intro={data ? t('sso.provenBy', { provider: data.provider.name[lang] }) : ''}>
      {pending.isPending && (
        <Box role="status" aria-label={t('sso.title')}>
          <Skeleton variant="rounded" height={200} />
        </Box>
      )}
      {pending.isError && (
        <>
          <Alert severity="error" sx={{ mt: 1 }}>
            {errorText(pending.error)}
          </Alert>
          <Button component={RouterLink} to="/auth/login" variant="contained" fullWidth sx={{ mt: 3 }}>
            {t('sso.backToLogin')}
          </Button>
        </>
      )}
      {data && (data.rpps || data.profession) && (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="sso-rpps">
          {data.rpps ? t('sso.rpps', { rpps: data.rpps }) : null}
        </Typography>
      )}
      {data?.kind === 'signUp' && <CompleteSignUp pending={data} onSession={onSession} />}
      {data?.kind === 'link' && <LinkAccount pending={data} onSession={onSession} />}
      {data && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button variant="text" onClick={() => void leave.run()} loading={leave.pending}>
            {t('sso.cancel')}
          </Button>
        </Box>
      )}
    </AuthCard>
  );
}
