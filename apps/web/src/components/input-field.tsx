import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldPath, type FieldValues, type UseFormSetError } from 'react-hook-form';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { isErrorCode } from '@sutura/domain/errors';
import type { ApiRequestError } from '@/lib/http';

// The text fields of the first screens (sign-in), drawn as MUI's outlined TextField draws them but
// from its parts: TextField imports Select, and with it Menu, Popover and Modal, statically.

/** Zod messages of the shared schemas are error codes; anything else is shown as it is. */
export function useFieldErrorText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation('errors');
  return (message) => (message ? (isErrorCode(message) ? t(`errors:${message}`) : message) : undefined);
}

export type InputFieldControlProps<T extends FieldValues> = {
  // Any output type: forms whose resolver transforms values (zod) pass their control as it is.
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  label: ReactNode;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  autoFocus?: boolean;
  helperText?: ReactNode;
  endAdornment?: ReactNode;
  sx?: SxProps<Theme>;
};

/** A single-line outlined text field bound to a form field: the markup, ids and classes of TextField's. */
export function InputFieldControl<T extends FieldValues>({
  control,
  name,
  label,
  type,
  autoComplete,
  required = false,
  autoFocus = false,
  helperText,
  endAdornment,
  sx,
}: InputFieldControlProps<T>) {
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const errorText = useFieldErrorText();
  const message = errorText(fieldState.error?.message);
  const help = message ?? helperText;
  const helperTextId = help ? `${id}-helper-text` : undefined;
  return (
    <FormControl className="MuiTextField-root" fullWidth margin="normal" required={required} error={Boolean(message)} sx={sx}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-describedby={helperTextId}
        name={field.name}
        inputRef={field.ref}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        endAdornment={endAdornment}
      />
      {help && <FormHelperText id={helperTextId}>{help}</FormHelperText>}
    </FormControl>
  );
}

export function PasswordInputControl<T extends FieldValues>(props: Omit<InputFieldControlProps<T>, 'type' | 'endAdornment' | 'sx'>) {
  const { t } = useTranslation('common');
  const [visible, setVisible] = useState(false);
  return (
    <InputFieldControl
      {...props}
      type={visible ? 'text' : 'password'}
      // A long label ("Confirm the new password") stops before the eye button instead of running under it.
      sx={{ '& .MuiInputLabel-root:not(.MuiInputLabel-shrink)': { maxWidth: 'calc(100% - 72px)' } }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton aria-label={t(visible ? 'hidePassword' : 'showPassword')} onClick={() => setVisible((v) => !v)} edge="end">
            {visible ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}

/**
 * Puts the field errors of a refused body on the form's fields. Returns whether any was placed,
 * so the caller shows the general message only when none was.
 */
export function applyApiFieldErrors<T extends FieldValues>(error: ApiRequestError, setError: UseFormSetError<T>): boolean {
  let placed = false;
  for (const detail of error.details ?? []) {
    if (!detail.path) continue;
    setError(detail.path as FieldPath<T>, { type: 'server', message: isErrorCode(detail.code) ? detail.code : detail.message });
    placed = true;
  }
  return placed;
}
