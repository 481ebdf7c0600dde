import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CARE_CENTRE_TYPES, ROBOTS } from '@sutura/domain/auth';
import { updateProfileBody, type Profile } from '@sutura/domain/users';
import { useSingleFlight } from '@/lib/single-flight';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { useUpdateProfile, type ProfileChanges } from '@/features/account/api/profile';
import { useSpecialties } from '@/lib/vocabularies';

/** What the inputs hold: text, as typed. The shared schema turns it into the request body. */
interface ProfileFormValues {
  information: {
    firstName: string;
    lastName: string;
    phone: string;
    country: string;
    city: string;
    careCentreType: string;
  };
  career: {
    specialtyId: string;
    yearsOfExperience: string;
    yearsOfRoboticExperience: string;
    robot: string;
    recorderBrand: string;
  };
}

function toFormValues(profile: Profile): ProfileFormValues {
  const { information: i, career: c } = profile;
  const text = (v: string | number | null) => (v === null ? '' : String(v));
  return {
    information: {
      firstName: i.firstName,
      lastName: i.lastName,
      phone: text(i.phone),
      country: text(i.country),
      city: text(i.city),
      careCentreType: text(i.careCentreType),
    },
    career: {
      specialtyId: text(c.specialtyId),
      yearsOfExperience: text(c.yearsOfExperience),
      yearsOfRoboticExperience: text(c.yearsOfRoboticExperience),
      robot: text(c.robot),
      recorderBrand: text(c.recorderBrand),
    },
  };
}

/**
 * Accounts an administrator created may lack career details; a field that was empty and is
 * still empty is left out, so saving a name does not demand a whole career first.
 */
function withoutUntouchedBlanks(values: ProfileFormValues, profile: Profile) {
  const keep = (group: Record<string, string>, original: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(group).filter(([key, value]) => value.trim() !== '' || original[key] != null));
  return {
    information: keep(values.information, profile.information),
    career: keep(values.career, profile.career),
  };
}

/**
 * The shared schema decides what is valid. The form keeps its text values; the submit handler
 * parses them again to get the typed body.
 */
function profileResolver(profile: Profile): Resolver<ProfileFormValues> {
  const validate = zodResolver(updateProfileBody);
  return async (values, context, options) => {
    const result = await validate(withoutUntouchedBlanks(values, profile), context, options as never);
    return Object.keys(result.errors).length > 0
      ? { values: {}, errors: result.errors as FieldErrors<ProfileFormValues> }
      : { values, errors: {} };
  };
}

function toChanges(values: ProfileFormValues, profile: Profile): ProfileChanges {
  const body = updateProfileBody.parse(withoutUntouchedBlanks(values, profile));
  // An emptied recorder brand is removed on the server by sending null.
  return {
    information: body.information,
    career: { ...body.career, recorderBrand: body.career?.recorderBrand ?? null },
  };
}

const ROBOT_KEYS: Partial<Record<(typeof ROBOTS)[number], string>> = { other: 'robots.other', none: 'robots.none' };

export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account');
  const toast = useToast();
  const { refresh } = useSession();
  const update = useUpdateProfile();
  // Their own specialty stays offered even if an administrator retired it since; no other retired one.
  const specialties = useSpecialties({ keep: [profile.career.specialty?.id] });
  const resolver = useMemo(() => profileResolver(profile), [profile]);
  const defaultValues = useMemo(() => toFormValues(profile), [profile]);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { isDirty },
  } = useForm<ProfileFormValues>({ resolver, defaultValues });

  const specialtyOptions = useMemo(() => {
    const list = specialties.data ?? [];
    const current = profile.career.specialty;
    // Until the list arrives (or if it fails), the current specialty keeps the select readable.
    return current && !list.some((s) => s.id === current.id)
      ? [...list, { id: current.id, code: '', name: current.name, retired: false }]
      : list;
  }, [specialties.data, profile.career.specialty]);

  const submit = useSingleFlight(
    handleSubmit(async (values) => {
      const changes = toChanges(values, profile);
      try {
        const saved = await update.mutateAsync(changes);
        reset(toFormValues(saved));
        toast('success', t('profile.updated'));
        // The header shows the name and avatar from the session.
        await refresh().catch((error: unknown) => console.error(error));
      } catch (error) {
        if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
        toast('error', errorText(error));
      }
    }),
  );

  const section = { p: { xs: 2, sm: 3 } } as const;
  const columns = { display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 } as const;

  return (
    <Box component="form" noValidate onSubmit={(e) => void submit.run(e)} aria-label={t('profile.formLabel')}>
      <Paper variant="outlined" component="section" aria-labelledby="profile-information-title" sx={section}>
        <Typography id="profile-information-title" variant="h3" component="h3">
          {t('profile.information')}
        </Typography>
        <Box sx={columns}>
          <TextField
            fullWidth
            margin="normal"
            label={t('profile.email')}
            value={profile.email}
            helperText={t('profile.readOnly')}
            slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'profile-email' } as object }}
          />
          {profile.career.rpps && (
            <TextField
              fullWidth
              margin="normal"
              label={t('profile.rpps')}
              value={profile.career.rpps}
              helperText={t('profile.readOnly')}
              slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'profile-rpps' } as object }}
            />
          )}
          <TextFieldControl
            control={control}
            name="information.firstName"
            label={t('profile.firstName')}
            required
            autoComplete="given-name"
          />
          <TextFieldControl
            control={control}
            name="information.lastName"
            label={t('profile.lastName')}
            required
            autoComplete="family-name"
          />
          <TextFieldControl
            control={control}
            name="information.phone"
            label={t('profile.phone')}
            type="tel"
            autoComplete="tel"
            helperText={t('profile.phoneHelp')}
          />
          <TextFieldControl control={control} name="information.country" label={t('profile.country')} autoComplete="country-name" />
          <TextFieldControl control={control} name="information.city" label={t('profile.city')} autoComplete="address-level2" />
          <TextFieldControl control={control} name="information.careCentreType" label={t('profile.careCentreType')} select>
            {CARE_CENTRE_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`careCentreTypes.${type}`)}
              </MenuItem>
            ))}
          </TextFieldControl>
        </Box>
      </Paper>

      <Paper variant="outlined" component="section" aria-labelledby="profile-career-title" sx={{ ...section, mt: 2 }}>
        <Typography id="profile-career-title" variant="h3" component="h3">
          {t('profile.career')}
        </Typography>
        <Box sx={columns}>
          <TextFieldControl
            control={control}
            name="career.specialtyId"
            label={t('profile.specialty')}
            select
            helperText={specialties.isError ? errorText(specialties.error) : undefined}
          >
            {specialtyOptions.map((specialty) => (
              <MenuItem key={specialty.id} value={specialty.id}>
                {specialty.name}
              </MenuItem>
            ))}
          </TextFieldControl>
          <TextFieldControl control={control} name="career.robot" label={t('profile.robot')} select>
            {ROBOTS.map((robot) => (
              <MenuItem key={robot} value={robot}>
                {ROBOT_KEYS[robot] ? t(ROBOT_KEYS[robot]) : robot}
              </MenuItem>
            ))}
          </TextFieldControl>
          <TextFieldControl
            control={control}
            name="career.yearsOfExperience"
            label={t('profile.yearsOfExperience')}
            type="number"
            slotProps={{ htmlInput: { min: 0, max: 70, step: 1, inputMode: 'numeric' } }}
          />
          <TextFieldControl
            control={control}
            name="career.yearsOfRoboticExperience"
            label={t('profile.yearsOfRoboticExperience')}
            type="number"
            slotProps={{ htmlInput: { min: 0, max: 70, step: 1, inputMode: 'numeric' } }}
          />
          <TextFieldControl
            control={control}
            name="career.recorderBrand"
            label={t('profile.recorderBrand')}
            helperText={t('profile.optional')}
          />
        </Box>
      </Paper>

      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 2 }}>
        {isDirty && (
          <Button type="button" onClick={() => reset(defaultValues)} disabled={submit.pending}>
            {t('profile.cancel')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={!isDirty || submit.pending}
          startIcon={submit.pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          data-testid="profile-submit"
        >
          {t('profile.save')}
        </Button>
      </Box>
    </Box>
  );
}
