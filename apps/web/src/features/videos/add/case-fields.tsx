import { useTranslation } from 'react-i18next';
import { useController, type Control, type UseFormSetValue } from 'react-hook-form';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { AGE_RANGES, BMI_CLASSES, CASE_TEXT_MAX, MAIN_HANDS, MEDICAL_BACKGROUNDS, PATIENT_SEXES } from '@sutura/domain/videos';
import { errorText as apiErrorText } from '@/lib/http';
import { RadioGroupControl, TextFieldControl, useFieldErrorText } from '@/components/form-field';
import type { AddVideoFormValues } from '@/features/videos/add/add-video-values';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { DateLocalization } from '@/lib/date-localization';
import { OrganIcon } from '@/components/video/organ-icons';
import { useOrgans, useSurgeries, type Surgery, type VocabularyUse } from '@/lib/vocabularies';

type FormControlProps = { control: Control<AddVideoFormValues> };
/** `'pick'` on a new case; `{ keep }` with a saved case's own terms, which may since have been retired. */
type VocabularyProps = { vocabulary: VocabularyUse };

const columns = { display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 } as const;

/** The surgery; choosing one sets its organ (none outside urology) and clears the previous one's key steps. */
function SurgerySelect({
  control,
  setValue,
  vocabulary,
}: FormControlProps & VocabularyProps & { setValue: UseFormSetValue<AddVideoFormValues> }) {
  const { t } = useTranslation('upload');
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name: 'surgeryId' });
  const list = useSurgeries(vocabulary);
  const surgeries = list.data ?? [];
  const organs = useOrgans(vocabulary).data ?? [];
  const message = errorText(fieldState.error?.message);
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      required
      label={t('fields.surgery')}
      name={field.name}
      inputRef={field.ref}
      value={list.data ? field.value : ''}
      onChange={(event) => {
        const surgery = surgeries.find((s) => s.id === event.target.value);
        field.onChange(event.target.value);
        setValue('keyStepIds', []);
        // Its organ, unless that one is no longer offered (retired).
        setValue('organId', organs.find((o) => o.id === surgery?.organId)?.id ?? '');
      }}
      onBlur={field.onBlur}
      error={Boolean(message) || list.isError}
      helperText={message ?? (list.isError ? apiErrorText(list.error) : undefined)}
      slotProps={{ htmlInput: { 'data-testid': 'surgery-select' } as object }}
    >
      {surgeries.map((surgery) => (
        <MenuItem key={surgery.id} value={surgery.id}>
          {surgery.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function OrganSelect({ control, vocabulary }: FormControlProps & VocabularyProps) {
  const { t } = useTranslation('upload');
  const organs = useOrgans(vocabulary);
  const list = organs.data ?? [];
  return (
    <TextFieldControl
      control={control}
      name="organId"
      label={t('fields.organ')}
      select
      helperText={organs.isError ? apiErrorText(organs.error) : t('fields.organHelp')}
      slotProps={{
        htmlInput: { 'data-testid': 'organ-select' } as object,
        select: {
          renderValue: (value: unknown) => {
            const organ = list.find((o) => o.id === value);
            return organ ? (
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                <OrganIcon icon={organ.icon} fontSize="small" color="primary" />
                {organ.name}
              </Box>
            ) : (
              ''
            );
          },
        },
      }}
    >
      <MenuItem value="">
        <ListItemText primary={t('fields.noOrgan')} />
      </MenuItem>
      {list.map((organ) => (
        <MenuItem key={organ.id} value={organ.id}>
          <ListItemIcon>
            <OrganIcon icon={organ.icon} color="primary" />
          </ListItemIcon>
          <ListItemText primary={organ.name} />
        </MenuItem>
      ))}
    </TextFieldControl>
  );
}

/** The steps of the chosen surgery that the proctor should look at, kept in the surgery's order. */
function KeyStepsSelect({ control, surgery }: FormControlProps & { surgery: Surgery | undefined }) {
  const { t } = useTranslation('upload');
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name: 'keyStepIds' });
  const steps = [...(surgery?.steps ?? [])].sort((a, b) => a.position - b.position);
  const order = new Map(steps.map((step, index) => [step.id, index]));
  const message = errorText(fieldState.error?.message);
  const selected = (field.value ?? []).filter((id) => order.has(id));
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      label={t('fields.keySteps')}
      name={field.name}
      inputRef={field.ref}
      value={selected}
      disabled={!surgery || steps.length === 0}
      // The hint says why the field waits: it stays readable while the field is disabled.
      sx={{ '& .MuiFormHelperText-root.Mui-disabled': { color: 'text.secondary' } }}
      onChange={(event) => {
        const raw = event.target.value as unknown;
        const ids = typeof raw === 'string' ? raw.split(',') : (raw as string[]);
        field.onChange([...ids].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)));
      }}
      onBlur={field.onBlur}
      error={Boolean(message)}
      helperText={message ?? t(!surgery ? 'fields.keyStepsNoSurgery' : steps.length === 0 ? 'fields.keyStepsNone' : 'fields.keyStepsHelp')}
      slotProps={{
        htmlInput: { 'data-testid': 'key-steps-select' } as object,
        select: {
          multiple: true,
          renderValue: (value: unknown) => (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {(value as string[]).map((id) => {
                const index = order.get(id);
                const step = index === undefined ? undefined : steps[index];
                return step ? (
                  <Chip
                    key={id}
                    size="small"
                    label={`${index! + 1}. ${step.name}`}
                    // Step names are long: they wrap rather than lose their end on a phone.
                    sx={{ height: 'auto', maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
                  />
                ) : null;
              })}
            </Box>
          ),
        },
      }}
    >
      {steps.map((step, index) => (
        <MenuItem key={step.id} value={step.id}>
          <Checkbox checked={selected.includes(step.id)} size="small" sx={{ p: 0, mr: 1.5 }} tabIndex={-1} />
          <ListItemText primary={`${index + 1}. ${step.name}`} />
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The surgery, its organ, the steps to analyse and how it was done. */
export function SurgeryFields({
  control,
  setValue,
  surgeryId,
  vocabulary,
}: FormControlProps & VocabularyProps & { setValue: UseFormSetValue<AddVideoFormValues>; surgeryId: string }) {
  const { t } = useTranslation('upload');
  const surgery = useSurgeries(vocabulary).data?.find((s) => s.id === surgeryId);
  return (
    <>
      <Box sx={columns}>
        <SurgerySelect control={control} setValue={setValue} vocabulary={vocabulary} />
        <OrganSelect control={control} vocabulary={vocabulary} />
      </Box>
      <KeyStepsSelect control={control} surgery={surgery} />
      <Box sx={columns}>
        <TextFieldControl
          control={control}
          name="equipmentBrand"
          label={t('fields.equipmentBrand')}
          required
          helperText={t('fields.equipmentBrandHelp')}
          maxChars={CASE_TEXT_MAX.equipmentBrand}
          slotProps={{ htmlInput: { 'data-testid': 'equipment-brand' } as object }}
        />
        <TextFieldControl
          control={control}
          name="surgeryDuration"
          label={t('fields.surgeryDuration')}
          required
          type="number"
          helperText={t('fields.surgeryDurationHelp')}
          slotProps={{
            htmlInput: { min: 1, max: 24 * 60, step: 1, inputMode: 'numeric', 'data-testid': 'surgery-duration' } as object,
            input: { endAdornment: <InputAdornment position="end">{t('fields.minutes')}</InputAdornment> },
          }}
        />
      </Box>
      <Box sx={columns}>
        <OperationDayField control={control} />
      </Box>
      <TextFieldControl
        control={control}
        name="equipmentUsed"
        label={t('fields.equipmentUsed')}
        required
        multiline
        minRows={2}
        helperText={t('fields.equipmentUsedHelp')}
        maxChars={CASE_TEXT_MAX.equipmentUsed}
        slotProps={{ htmlInput: { 'data-testid': 'equipment-used' } as object }}
      />
      <RadioGroupControl
        control={control}
        name="mainHand"
        label={t('fields.mainHand')}
        required
        options={MAIN_HANDS.map((hand) => ({ value: hand, label: t(`mainHands.${hand}`) }))}
      />
    </>
  );
}

function MedicalBackgroundField({ control }: FormControlProps) {
  const { t } = useTranslation('upload');
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name: 'medicalBackground' });
  const message = errorText(fieldState.error?.message);
  const values = field.value ?? [];
  const toggle = (option: string, checked: boolean) =>
    field.onChange(MEDICAL_BACKGROUNDS.filter((o) => (o === option ? checked : values.includes(o))));
  return (
    <FormControl component="fieldset" margin="normal" error={Boolean(message)} sx={{ display: 'flex' }}>
      <FormLabel component="legend">{t('fields.medicalBackground')}</FormLabel>
      <FormGroup row>
        {MEDICAL_BACKGROUNDS.map((option, index) => (
          <FormControlLabel
            key={option}
            label={t(`medicalBackgrounds.${option}`)}
            control={
              <Checkbox
                name={field.name}
                value={option}
                checked={values.includes(option)}
                onChange={(event) => toggle(option, event.target.checked)}
                onBlur={field.onBlur}
                slotProps={index === 0 ? { input: { ref: field.ref } } : undefined}
              />
            }
          />
        ))}
      </FormGroup>
      <FormHelperText>{message ?? t('fields.medicalBackgroundHelp')}</FormHelperText>
    </FormControl>
  );
}

/** The patient, described without anything that could identify them. */
export function PatientFields({ control }: FormControlProps) {
  const { t } = useTranslation('upload');
  const yesNo = [
    { value: 'yes', label: t('yes') },
    { value: 'no', label: t('no') },
  ] as const;
  return (
    <>
      <Box sx={columns}>
        <TextFieldControl control={control} name="ageRange" label={t('fields.ageRange')} select required>
          {AGE_RANGES.map((range) => (
            <MenuItem key={range} value={range}>
              {t(`ageRanges.${range}`)}
            </MenuItem>
          ))}
        </TextFieldControl>
        <RadioGroupControl
          control={control}
          name="patientSex"
          label={t('fields.patientSex')}
          required
          options={PATIENT_SEXES.map((sex) => ({ value: sex, label: t(`patientSexes.${sex}`) }))}
        />
      </Box>
      <RadioGroupControl
        control={control}
        name="bmi"
        label={t('fields.bmi')}
        required
        options={BMI_CLASSES.map((bmi) => ({ value: bmi, label: t(`bmiClasses.${bmi}`) }))}
      />
      <Box sx={columns}>
        <RadioGroupControl control={control} name="complication" label={t('fields.complication')} options={yesNo} required />
        <RadioGroupControl control={control} name="radiationHistory" label={t('fields.radiationHistory')} options={yesNo} required />
      </Box>
      <MedicalBackgroundField control={control} />
      <TextFieldControl
        control={control}
        name="surgicalHistory"
        label={t('fields.surgicalHistory')}
        multiline
        minRows={2}
        helperText={t('fields.surgicalHistoryHelp')}
        maxChars={CASE_TEXT_MAX.surgicalHistory}
        slotProps={{ htmlInput: { 'data-testid': 'surgical-history' } as object }}
      />
    </>
  );
}

const DAY = 'YYYY-MM-DD';

/** The day of the operation: optional, never after today, entered in the app's language. */
function OperationDayField({ control }: { control: Control<AddVideoFormValues> }) {
  const { t } = useTranslation('upload');
  const errorText = useFieldErrorText();
  const { field, fieldState } = useController({ control, name: 'operatedOn' });
  const value = field.value ? dayjs(field.value, DAY) : null;
  return (
    <DateLocalization>
      <DatePicker
        label={t('fields.operatedOn')}
        value={value}
        disableFuture
        onChange={(next) => field.onChange(next?.isValid() ? next.format(DAY) : '')}
        slotProps={{
          textField: {
            name: field.name,
            onBlur: field.onBlur,
            error: Boolean(fieldState.error),
            helperText: fieldState.error ? errorText(fieldState.error.message) : t('fields.operatedOnHelp'),
            'data-testid': 'operated-on',
          } as object,
          field: { clearable: true },
        }}
      />
    </DateLocalization>
  );
}
