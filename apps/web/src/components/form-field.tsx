import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useFieldErrorText } from '@/components/input-field';

// The fields of the first screens, and what every form uses, live in the lighter module.
export { applyApiFieldErrors, useFieldErrorText } from '@/components/input-field';

type ControlProps<T extends FieldValues> = {
  // Any output type: forms whose resolver transforms values (zod) pass their control as it is.
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  label: ReactNode;
};

export type TextFieldControlProps<T extends FieldValues> = ControlProps<T> &
  Omit<TextFieldProps, 'name' | 'label' | 'value' | 'onChange' | 'onBlur' | 'error'> & {
    /**
     * The schema's longest text: a counter shows the length as the person types, and a longer
     * text is refused (said at once), never cut.
     */
    maxChars?: number;
  };

export function TextFieldControl<T extends FieldValues>({ control, name, label, helperText, maxChars, ...rest }: TextFieldControlProps<T>) {
  const { t } = useTranslation('common');
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  const length = typeof field.value === 'string' ? field.value.length : 0;
  const over = maxChars !== undefined && length > maxChars;
  const message = errorText(fieldState.error?.message) ?? (over ? errorText('TEXT_TOO_LONG') : undefined);
  const help = message ?? helperText;
  return (
    <TextField
      fullWidth
      margin="normal"
      {...rest}
      name={field.name}
      inputRef={field.ref}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label}
      error={Boolean(message)}
      helperText={
        maxChars === undefined ? (
          help
        ) : (
          <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
            <span>{help}</span>
            <Box
              component="span"
              data-testid={`${name}-counter`}
              sx={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums', fontWeight: over ? 700 : undefined }}
            >
              {t('charCount', { length, max: maxChars })}
            </Box>
          </Box>
        )
      }
    />
  );
}

export function PasswordFieldControl<T extends FieldValues>(props: TextFieldControlProps<T>) {
  const { t } = useTranslation('common');
  const [visible, setVisible] = useState(false);
  return (
    <TextFieldControl
      {...props}
      type={visible ? 'text' : 'password'}
      // A long label ("Confirm the new password") stops before the eye button instead of running under it.
      sx={{ '& .MuiInputLabel-root:not(.MuiInputLabel-shrink)': { maxWidth: 'calc(100% - 72px)' }, ...props.sx }}
      slotProps={{
        ...props.slotProps,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={t(visible ? 'hidePassword' : 'showPassword')} onClick={() => setVisible((v) => !v)} edge="end">
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

export function CheckboxControl<T extends FieldValues>({ control, name, label }: ControlProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  const message = errorText(fieldState.error?.message);
  return (
    <FormControl error={Boolean(message)} sx={{ display: 'block', mt: 1 }}>
      <FormControlLabel
        control={
          <Checkbox
            name={field.name}
            slotProps={{ input: { ref: field.ref } }}
            checked={field.value === true}
            onChange={(e) => field.onChange(e.target.checked)}
            onBlur={field.onBlur}
          />
        }
        label={label}
      />
      {message && <FormHelperText>{message}</FormHelperText>}
    </FormControl>
  );
}

export function RadioGroupControl<T extends FieldValues>({
  control,
  name,
  label,
  options,
  required,
}: ControlProps<T> & { options: readonly { value: string; label: ReactNode }[]; required?: boolean }) {
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  const message = errorText(fieldState.error?.message);
  const labelId = `${name}-label`;
  return (
    <FormControl error={Boolean(message)} required={required} margin="normal" sx={{ display: 'flex' }}>
      <FormLabel id={labelId}>{label}</FormLabel>
      <RadioGroup
        row
        aria-labelledby={labelId}
        name={field.name}
        value={field.value ?? ''}
        onChange={(e) => field.onChange(e.target.value)}
        onBlur={field.onBlur}
      >
        {options.map((option, index) => (
          <FormControlLabel
            key={option.value}
            value={option.value}
            label={option.label}
            control={<Radio slotProps={index === 0 ? { input: { ref: field.ref } } : undefined} />}
          />
        ))}
      </RadioGroup>
      {message && <FormHelperText>{message}</FormHelperText>}
    </FormControl>
  );
}
