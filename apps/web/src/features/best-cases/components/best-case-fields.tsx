import { useTranslation } from 'react-i18next';
import { useController, useWatch, type Control, type FieldErrors, type Resolver, type UseFormSetValue } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BEST_CASE_TEXT_MAX, updateBestCaseBody } from '@sutura/domain/best-cases';
import { TextFieldControl, useFieldErrorText } from '@/components/form-field';
import { useOrgans, useSurgeries } from '@/lib/vocabularies';

/** What the administrator writes of a best case: both languages, the surgery and organ. */
export interface BestCaseFormValues {
  titleFr: string;
  titleEn: string;
  descriptionFr: string;
  descriptionEn: string;
  surgeryId: string;
  organId: string;
}

export const emptyBestCaseValues = (): BestCaseFormValues => ({
  titleFr: '',
  titleEn: '',
  descriptionFr: '',
  descriptionEn: '',
  surgeryId: '',
  organId: '',
});

/** The values as the API reads them (an unset organ is null). */
export const bestCaseBodyOf = (values: BestCaseFormValues) => ({
  titleFr: values.titleFr,
  titleEn: values.titleEn,
  descriptionFr: values.descriptionFr,
  descriptionEn: values.descriptionEn,
  surgeryId: values.surgeryId,
  organId: values.organId || null,
});

const validate = zodResolver(
  updateBestCaseBody.required({ titleFr: true, titleEn: true, descriptionFr: true, descriptionEn: true, surgeryId: true }),
);

/** The shared schema decides; every text is required, in both languages. */
export const bestCaseResolver =
  <T extends BestCaseFormValues>(): Resolver<T> =>
  async (values, context, options) => {
    const result = await validate(bestCaseBodyOf(values) as never, context, options as never);
    const errors = result.errors as FieldErrors<T>;
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };

function VocabularySelect({
  control,
  name,
  label,
  options,
  required,
  emptyLabel,
  onPicked,
}: {
  control: Control<BestCaseFormValues>;
  name: 'surgeryId' | 'organId';
  label: string;
  options: { id: string; name: string }[];
  required?: boolean;
  emptyLabel?: string;
  onPicked?(value: string): void;
}) {
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  const message = errorText(fieldState.error?.message);
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      required={required}
      label={label}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ''}
      onChange={(event) => {
        field.onChange(event.target.value);
        onPicked?.(event.target.value);
      }}
      onBlur={field.onBlur}
      error={Boolean(message)}
      helperText={message}
      slotProps={{ htmlInput: { 'data-testid': `best-case-${name}` } }}
    >
      {emptyLabel !== undefined && <MenuItem value="">{emptyLabel}</MenuItem>}
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Titles and descriptions side by side per language, then the surgery (its organ follows it). */
export function BestCaseFields({
  control,
  setValue,
}: {
  control: Control<BestCaseFormValues>;
  setValue: UseFormSetValue<BestCaseFormValues>;
}) {
  const { t } = useTranslation('best-cases');
  const organId = useWatch({ control, name: 'organId' });
  const surgeryId = useWatch({ control, name: 'surgeryId' });
  // A best case being edited keeps its own terms even if they were retired since.
  const surgeries = useSurgeries({ keep: [surgeryId] });
  const organs = useOrgans({ keep: [organId] });
  const offered = (surgeries.data ?? []).filter((s) => !organId || s.organId === organId);
  const language = (lang: 'Fr' | 'En') => (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h3" sx={{ fontSize: 16, mb: 0.5 }}>
        {t(`form.language${lang}`)}
      </Typography>
      <TextFieldControl
        control={control}
        name={`title${lang}`}
        label={t(`form.title${lang}`)}
        required
        maxChars={BEST_CASE_TEXT_MAX.title}
        slotProps={{ htmlInput: { 'data-testid': `best-case-title${lang}` } }}
      />
      <TextFieldControl
        control={control}
        name={`description${lang}`}
        label={t(`form.description${lang}`)}
        required
        multiline
        minRows={3}
        maxChars={BEST_CASE_TEXT_MAX.description}
        slotProps={{ htmlInput: { 'data-testid': `best-case-description${lang}` } }}
      />
    </Box>
  );
  return (
    <Box>
      <Box sx={{ display: 'grid', gap: { xs: 1, md: 3 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {language('Fr')}
        {language('En')}
      </Box>
      <Box sx={{ display: 'grid', gap: { xs: 0, md: 3 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        <VocabularySelect
          control={control}
          name="organId"
          label={t('form.organ')}
          options={organs.data ?? []}
          emptyLabel={t('form.noOrgan')}
        />
        <VocabularySelect
          control={control}
          name="surgeryId"
          label={t('form.surgery')}
          options={offered}
          required
          onPicked={(id) => {
            // The organ follows the surgery chosen.
            const surgery = surgeries.data?.find((s) => s.id === id);
            if (surgery) setValue('organId', surgery.organId ?? '');
          }}
        />
      </Box>
    </Box>
  );
}
