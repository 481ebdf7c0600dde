import { useController, useForm, type Control } from 'react-hook-form';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { DEFAULT_LEARNING_CURVE_SETTINGS, FAILURE_RULES, type FailureRule } from '@sutura/domain/learning-curves';
import { programmeBody, type ProgrammeBody, type ProgrammeDetail } from '@sutura/domain/programmes';
import { TextFieldControl } from '@/components/form-field';
import { PendingButton } from '@/components/pending-button';
import { applyApiFieldErrors, useFieldErrorText } from '@/components/form-field';
import { DateLocalization } from '@/lib/date-localization';
import { ApiRequestError, errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSpecialties } from '@/lib/vocabularies';

interface Values {
  name: string;
  specialtyId: string;
  startsOn: string;
  endsOn: string;
  p0: string;
  p1: string;
  alpha: string;
  beta: string;
  failureRule: FailureRule;
}

const percent = (v: number) => String(Math.round(v * 1000) / 10);
const rate = (v: string) => (v.trim() === '' ? Number.NaN : Number(v.replace(',', '.')) / 100);

function toBody(v: Values) {
  return {
    name: v.name,
    specialtyId: v.specialtyId || null,
    startsOn: v.startsOn || null,
    endsOn: v.endsOn || null,
    settings: { p0: rate(v.p0), p1: rate(v.p1), alpha: rate(v.alpha), beta: rate(v.beta), failureRule: v.failureRule },
  };
}

/** The path of a body field as the form names it (settings.p0 → p0). */
const fieldOf = (path: string) => path.replace(/^settings\./, '');

/** A programme's name, specialty, dates and CUSUM settings (percentages), checked by the shared schema. */
export function ProgrammeForm({
  programme,
  readOnly,
  pending,
  onSubmit,
}: {
  programme?: ProgrammeDetail;
  readOnly: boolean;
  pending: boolean;
  onSubmit(body: ProgrammeBody): Promise<unknown>;
}) {
  const { t } = useTranslation(['programmes', 'errors']);
  const toast = useToast();
  const specialties = useSpecialties({ keep: [programme?.specialty?.id] });
  const s = programme?.settings ?? DEFAULT_LEARNING_CURVE_SETTINGS;
  const { control, handleSubmit, setError } = useForm<Values>({
    defaultValues: {
      name: programme?.name ?? '',
      specialtyId: programme?.specialty?.id ?? '',
      startsOn: programme?.startsOn ?? '',
      endsOn: programme?.endsOn ?? '',
      p0: percent(s.p0),
      p1: percent(s.p1),
      alpha: percent(s.alpha),
      beta: percent(s.beta),
      failureRule: s.failureRule,
    },
    resolver: async (values, context, options) => {
      const result = await zodResolver(programmeBody)(toBody(values) as never, context, options as never);
      // The schema's errors under the form's own field names.
      const errors = Object.fromEntries(
        Object.entries(result.errors as Record<string, unknown>).flatMap(([k, v]) =>
          k === 'settings' && v && typeof v === 'object' ? Object.entries(v) : [[k, v]],
        ),
      );
      return { values: Object.keys(errors).length ? {} : values, errors } as never;
    },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(programmeBody.parse(toBody(values)));
    } catch (error) {
      if (error instanceof ApiRequestError) {
        const mapped = new ApiRequestError(
          error.status,
          error.code,
          error.message,
          error.details?.map((d) => ({ ...d, path: fieldOf(d.path) })),
        );
        if (applyApiFieldErrors(mapped, setError)) return;
      }
      toast('error', errorText(error));
    }
  });
  const disabled = readOnly || pending;
  const columns = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }} data-testid="programme-form">
      <TextFieldControl
        control={control}
        name="name"
        label={t('form.name')}
        required
        disabled={disabled}
        slotProps={{ htmlInput: { 'data-testid': 'programme-name' } as object }}
      />
      <Box sx={columns}>
        <TextFieldControl control={control} name="specialtyId" label={t('form.specialty')} select disabled={disabled}>
          <MenuItem value="">{t('form.noSpecialty')}</MenuItem>
          {(specialties.data ?? []).map((sp) => (
            <MenuItem key={sp.id} value={sp.id}>
              {sp.name}
            </MenuItem>
          ))}
        </TextFieldControl>
        <Box />
        <DayField control={control} name="startsOn" label={t('form.startsOn')} disabled={disabled} />
        <DayField control={control} name="endsOn" label={t('form.endsOn')} disabled={disabled} />
      </Box>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {t('form.cusum')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('form.cusumHelp')}
      </Typography>
      <Box sx={columns}>
        {(['p0', 'p1', 'alpha', 'beta'] as const).map((k) => (
          <TextFieldControl
            key={k}
            control={control}
            name={k}
            label={t(`form.${k}`)}
            helperText={t(`form.${k}Help`)}
            disabled={disabled}
            slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `programme-${k}` } as object, input: { endAdornment: '%' } }}
          />
        ))}
        <TextFieldControl control={control} name="failureRule" label={t('form.failureRule')} select disabled={disabled}>
          {FAILURE_RULES.map((r) => (
            <MenuItem key={r} value={r}>
              {t(`rules.${r}`)}
            </MenuItem>
          ))}
        </TextFieldControl>
      </Box>
      {!readOnly && (
        <Box>
          <PendingButton type="submit" variant="contained" pending={pending} data-testid="programme-save">
            {programme ? t('form.save') : t('form.create')}
          </PendingButton>
        </Box>
      )}
    </Box>
  );
}

/** A day of the programme, entered and shown in the app's language (empty: none). */
function DayField({
  control,
  name,
  label,
  disabled,
}: {
  control: Control<Values>;
  name: 'startsOn' | 'endsOn';
  label: string;
  disabled: boolean;
}) {
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name });
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={field.value ? dayjs(field.value, 'YYYY-MM-DD') : null}
        disabled={disabled}
        onChange={(next) => field.onChange(next?.isValid() ? next.format('YYYY-MM-DD') : '')}
        slotProps={{
          textField: {
            name: field.name,
            onBlur: field.onBlur,
            error: Boolean(fieldState.error),
            helperText: fieldState.error ? errorText(fieldState.error.message) : undefined,
            'data-testid': `programme-${name}`,
          } as object,
          field: { clearable: true },
        }}
      />
    </DateLocalization>
  );
}
