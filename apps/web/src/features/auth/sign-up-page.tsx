import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm, type Resolver } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { CARE_CENTRE_TYPES, ROBOTS, SIGN_UP_STEPS, signUpBody, signUpFieldsSchema } from '@sutura/domain/auth';
import { normalizeName } from '@sutura/domain/rpps';
import { LANG_PREFERENCES, THEME_PREFERENCES, type LangPreference, type ThemePreference } from '@sutura/domain/preferences';
import { applyApiFieldErrors, CheckboxControl, PasswordFieldControl, RadioGroupControl, TextFieldControl } from '@/components/form-field';
import { AuthCard } from '@/features/auth/components/auth-card';
import { checkRpps, useSignUp, type RppsCheck } from '@/features/auth/api/auth';
import { useSpecialties } from '@/lib/vocabularies';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { PageLoader } from '@/components/page-loader';

// The legal texts (and their translations) load when the dialog first opens.
const GeneralConditionsText = lazy(async () => ({ default: (await import('@/components/legal/legal-texts')).GeneralConditionsText }));
const PrivacyPolicyText = lazy(async () => ({ default: (await import('@/components/legal/legal-texts')).PrivacyPolicyText }));

type SignUpField = (typeof SIGN_UP_STEPS)[number][number];

interface SignUpForm {
  rpps: string;
  lastName: string;
  firstName: string;
  country: string;
  city: string;
  careCentreType: string;
  phone: string;
  specialtyId: string;
  yearsOfExperience: string;
  yearsOfRoboticExperience: string;
  robot: string;
  recorderBrand: string;
  email: string;
  password: string;
  confirmPassword: string;
  preferences: { theme: ThemePreference; langCode: LangPreference };
  acceptTerms: boolean;
  acceptPrivacy: boolean;
}

const DEFAULTS: SignUpForm = {
  rpps: '',
  lastName: '',
  firstName: '',
  country: '',
  city: '',
  careCentreType: '',
  phone: '',
  specialtyId: '',
  yearsOfExperience: '',
  yearsOfRoboticExperience: '',
  robot: '',
  recorderBrand: '',
  email: '',
  password: '',
  confirmPassword: '',
  preferences: { theme: 'auto', langCode: 'auto' },
  acceptTerms: false,
  acceptPrivacy: false,
};

const STEP_KEYS = ['identity', 'practice', 'experience', 'account'] as const;
const LAST_STEP = SIGN_UP_STEPS.length - 1;

/** Each step is checked with the shared schema restricted to its own fields. */
function stepResolver(step: number): Resolver<SignUpForm> {
  const fields = SIGN_UP_STEPS[step] ?? [];
  const mask = Object.fromEntries(fields.map((f) => [f, true])) as Partial<Record<SignUpField, true>>;
  const resolve = zodResolver(signUpFieldsSchema.pick(mask)) as unknown as Resolver<SignUpForm>;
  // The shared cross-field rules (passwordsMatch, roboticYearsWithinPractice) are object
  // refinements, which zod skips while another field fails: the same comparisons are made here
  // so the person sees every problem of the step at once.
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    const errors = { ...result.errors };
    const has = (field: SignUpField) => (fields as readonly string[]).includes(field);
    if (has('confirmPassword') && values.confirmPassword && values.password !== values.confirmPassword && !errors.confirmPassword) {
      errors.confirmPassword = { type: 'custom', message: 'PASSWORD_MISMATCH' };
    }
    const practice = Number(values.yearsOfExperience);
    const robotic = Number(values.yearsOfRoboticExperience);
    if (has('yearsOfRoboticExperience') && !errors.yearsOfExperience && !errors.yearsOfRoboticExperience && robotic > practice) {
      errors.yearsOfRoboticExperience = { type: 'custom', message: 'ROBOTIC_YEARS_OVER_PRACTICE' };
    }
    return Object.keys(errors).length === Object.keys(result.errors).length ? result : { values: {}, errors };
  };
}

function stepOfField(path: string): number {
  const root = path.split('.')[0];
  const index = SIGN_UP_STEPS.findIndex((fields) => (fields as readonly string[]).includes(root ?? ''));
  return index < 0 ? LAST_STEP : index;
}

type LegalDialog = 'terms' | 'privacy';

export function SignUpPage() {
  const { t } = useTranslation(['auth', 'rpps']);
  // The directory says the profession in French: shown in the reader's language when it is a known one.
  const professionText = (profession: string | null) =>
    profession ? t(`rpps:professions.${normalizeName(profession)}`, { defaultValue: profession }) : null;
  const navigate = useNavigate();
  const toast = useToast();
  const compact = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [step, setStep] = useState(0);
  const [rpps, setRpps] = useState<{ checking: boolean; result?: RppsCheck; error?: string }>({ checking: false });
  const [dialog, setDialog] = useState<LegalDialog>('terms');
  const [dialogOpen, setDialogOpen] = useState(false);
  const specialties = useSpecialties('pick');
  const signUp = useSignUp();

  const { control, handleSubmit, setError, setValue, clearErrors, getValues } = useForm<SignUpForm>({
    defaultValues: DEFAULTS,
    // useForm takes its options again at every render, so the resolver follows the step.
    resolver: stepResolver(step),
  });

  const goTo = (next: number) => {
    setStep(next);
    window.scrollTo({ top: 0 });
  };

  const submitAll = (values: SignUpForm) => {
    const parsed = signUpBody.safeParse(values);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      if (first) goTo(stepOfField(first.path.join('.')));
      return;
    }
    signUp.mutate(parsed.data, {
      onSuccess: ({ email }) => {
        toast('success', t('signUp.created'));
        void navigate(`/auth/validate-email?email=${encodeURIComponent(email)}`);
      },
      onError: (error) => {
        if (!(error instanceof ApiRequestError)) return;
        const firstPath = error.details[0]?.path;
        if (firstPath) {
          goTo(stepOfField(firstPath));
          applyApiFieldErrors(error, setError);
        } else if (error.code.startsWith('RPPS_')) {
          goTo(0);
          setError('rpps', { type: 'server', message: error.code });
        } else if (error.code === 'EMAIL_TAKEN') {
          setError('email', { type: 'server', message: error.code });
        }
      },
    });
  };

  // The resolver hands over only the current step's fields; the whole form is read with getValues.
  const onNext = handleSubmit(async () => {
    const values = getValues();
    if (step === 0) {
      setRpps({ checking: true });
      try {
        const result = await checkRpps(values.rpps, values.lastName, values.firstName);
        setRpps({ checking: false, result });
        goTo(1);
      } catch (error) {
        setRpps({ checking: false, error: errorText(error) });
      }
      return;
    }
    if (step < LAST_STEP) {
      goTo(step + 1);
      return;
    }
    submitAll(values);
  });

  const openDialog = (which: LegalDialog) => (event: MouseEvent) => {
    // The link sits inside the checkbox label: opening the text must not tick the box.
    event.preventDefault();
    event.stopPropagation();
    setDialog(which);
    setDialogOpen(true);
  };

  const acceptFromDialog = () => {
    const field = dialog === 'terms' ? 'acceptTerms' : 'acceptPrivacy';
    setValue(field, true, { shouldDirty: true });
    clearErrors(field);
    setDialogOpen(false);
  };

  const robotLabel = (robot: (typeof ROBOTS)[number]) =>
    robot === 'other' ? t('signUp.robotOther') : robot === 'none' ? t('signUp.robotNone') : robot;

  return (
    <AuthCard title={t('signUp.title')} intro={t('signUp.intro')}>
      <Stepper activeStep={step} alternativeLabel sx={{ my: 3 }} aria-label={t('signUp.progress')}>
        {STEP_KEYS.map((key, index) => (
          <Step key={key} completed={index < step}>
            <StepLabel>{compact && index !== step ? '' : t(`signUp.steps.${key}`)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography variant="h2" sx={{ mb: 1 }}>
        {t('signUp.stepOf', { current: step + 1, total: SIGN_UP_STEPS.length, name: t(`signUp.steps.${STEP_KEYS[step] ?? 'identity'}`) })}
      </Typography>

      <Box component="form" noValidate onSubmit={onNext}>
        {step === 0 && (
          <>
            {rpps.error && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {rpps.error}
              </Alert>
            )}
            <TextFieldControl
              control={control}
              name="rpps"
              label={t('fields.rpps')}
              helperText={t('fields.rppsHint')}
              required
              slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 11 } }}
            />
            <TextFieldControl control={control} name="lastName" label={t('fields.lastName')} autoComplete="family-name" required />
            <TextFieldControl control={control} name="firstName" label={t('fields.firstName')} autoComplete="given-name" required />
          </>
        )}

        {step === 1 && (
          <>
            {rpps.result && (
              <Alert severity="success" sx={{ mt: 1 }}>
                {t('signUp.rppsChecked', {
                  name: [`${rpps.result.firstName} ${rpps.result.lastName}`, professionText(rpps.result.profession)]
                    .filter(Boolean)
                    .join(', '),
                })}
              </Alert>
            )}
            <TextFieldControl control={control} name="country" label={t('fields.country')} autoComplete="country-name" required />
            <TextFieldControl control={control} name="city" label={t('fields.city')} autoComplete="address-level2" required />
            <RadioGroupControl
              control={control}
              name="careCentreType"
              label={t('fields.careCentreType')}
              required
              options={CARE_CENTRE_TYPES.map((type) => ({ value: type, label: t(`careCentreTypes.${type}`) }))}
            />
            <TextFieldControl
              control={control}
              name="phone"
              label={t('fields.phone')}
              helperText={t('fields.phoneHint')}
              placeholder="+33 612345678"
              type="tel"
              autoComplete="tel"
              required
            />
            <TextFieldControl
              control={control}
              name="specialtyId"
              label={t('fields.specialty')}
              select
              required
              disabled={!specialties.data}
              helperText={specialties.isError ? t('errors:GENERIC') : undefined}
            >
              {(specialties.data ?? []).map((specialty) => (
                <MenuItem key={specialty.id} value={specialty.id}>
                  {specialty.name}
                </MenuItem>
              ))}
            </TextFieldControl>
          </>
        )}

        {step === 2 && (
          <>
            <TextFieldControl
              control={control}
              name="yearsOfExperience"
              label={t('fields.yearsOfExperience')}
              type="number"
              required
              slotProps={{ htmlInput: { min: 0, max: 70, inputMode: 'numeric' } }}
            />
            <TextFieldControl
              control={control}
              name="yearsOfRoboticExperience"
              label={t('fields.yearsOfRoboticExperience')}
              type="number"
              required
              slotProps={{ htmlInput: { min: 0, max: 70, inputMode: 'numeric' } }}
            />
            <TextFieldControl control={control} name="robot" label={t('fields.robot')} select required>
              {ROBOTS.map((robot) => (
                <MenuItem key={robot} value={robot}>
                  {robotLabel(robot)}
                </MenuItem>
              ))}
            </TextFieldControl>
            <TextFieldControl control={control} name="recorderBrand" label={t('fields.recorderBrand')} helperText={t('fields.optional')} />
          </>
        )}

        {step === 3 && (
          <>
            <TextFieldControl control={control} name="email" label={t('fields.email')} type="email" autoComplete="email" required />
            <PasswordFieldControl
              control={control}
              name="password"
              label={t('fields.password')}
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
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
              <TextFieldControl control={control} name="preferences.theme" label={t('fields.themePreference')} select>
                {THEME_PREFERENCES.map((theme) => (
                  <MenuItem key={theme} value={theme}>
                    {t(`themes.${theme}`)}
                  </MenuItem>
                ))}
              </TextFieldControl>
              <TextFieldControl control={control} name="preferences.langCode" label={t('fields.languagePreference')} select>
                {LANG_PREFERENCES.map((lang) => (
                  <MenuItem key={lang} value={lang}>
                    {t(`languages.${lang}`)}
                  </MenuItem>
                ))}
              </TextFieldControl>
            </Box>
            <CheckboxControl
              control={control}
              name="acceptTerms"
              label={
                <>
                  {t('signUp.acceptTerms')}{' '}
                  <Link component="button" type="button" onClick={openDialog('terms')} sx={{ verticalAlign: 'baseline' }}>
                    {t('signUp.termsLink')}
                  </Link>
                </>
              }
            />
            <CheckboxControl
              control={control}
              name="acceptPrivacy"
              label={
                <>
                  {t('signUp.acceptPrivacy')}{' '}
                  <Link component="button" type="button" onClick={openDialog('privacy')} sx={{ verticalAlign: 'baseline' }}>
                    {t('signUp.privacyLink')}
                  </Link>
                </>
              }
            />
            {signUp.isError && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {errorText(signUp.error)}
              </Alert>
            )}
          </>
        )}

        <Box sx={{ display: 'flex', gap: 2, mt: 3 }}>
          {step > 0 && (
            <Button variant="outlined" size="large" onClick={() => goTo(step - 1)} sx={{ flex: 1 }}>
              {t('signUp.previous')}
            </Button>
          )}
          <Button type="submit" variant="contained" size="large" sx={{ flex: 2 }} loading={rpps.checking || signUp.isPending}>
            {step === LAST_STEP ? t('signUp.submit') : t('signUp.next')}
          </Button>
        </Box>
      </Box>

      <Typography sx={{ mt: 4, textAlign: 'center' }}>
        {t('signUp.haveAccount')}{' '}
        <Link component={RouterLink} to="/auth/login">
          {t('signUp.login')}
        </Link>
      </Typography>

      <Dialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        scroll="paper"
        maxWidth="md"
        fullWidth
        aria-labelledby="legal-dialog-title"
      >
        <DialogTitle id="legal-dialog-title">{dialog === 'privacy' ? t('signUp.privacyTitle') : t('signUp.termsTitle')}</DialogTitle>
        <DialogContent dividers>
          <Suspense fallback={<PageLoader />}>
            {dialog === 'privacy' ? <PrivacyPolicyText hideTitle /> : <GeneralConditionsText hideTitle />}
          </Suspense>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialogOpen(false)}>{t('signUp.close')}</Button>
          <Button variant="contained" onClick={acceptFromDialog}>
            {t('signUp.accept')}
          </Button>
        </DialogActions>
      </Dialog>
    </AuthCard>
  );
}
