import { useId, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { SxProps, Theme } from '@mui/material/styles';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { isErrorCode } from '@/lib/error-codes';

// The text fields of the first screens (sign-in), drawn as MUI's outlined TextField draws them but
// from its parts: TextField imports Select, and with it Menu, Popover and Modal, statically.
// No form library here: the sign-in page keeps its few fields itself, and the forms that use
// react-hook-form bind these through input-field.tsx.

/** Zod messages of the shared schemas are error codes; anything else is shown as it is. */
export function useFieldErrorText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation('errors');
  return (message) => (message ? (isErrorCode(message) ? t(`errors:${message}`) : message) : undefined);
}

export type TextInputProps = {
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  label: ReactNode;
  /** The field's error: an error code of the catalogue, or a text shown as it is. */
  error?: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  autoFocus?: boolean;
  helperText?: ReactNode;
  endAdornment?: ReactNode;
  sx?: SxProps<Theme>;
};

/** A single-line outlined text field: the markup, ids and classes of TextField's. */
export function TextInput({
  name,
  value,
  onChange,
  onBlur,
  inputRef,
  label,
  error,
  type,
  autoComplete,
  required = false,
  autoFocus = false,
  helperText,
  endAdornment,
  sx,
}: TextInputProps) {
  const id = useId();
  const errorText = useFieldErrorText();
  const message = errorText(error);
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
        name={name}
        inputRef={inputRef}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        endAdornment={endAdornment}
      />
      {help && <FormHelperText id={helperTextId}>{help}</FormHelperText>}
    </FormControl>
  );
}

/** A password field with the button that shows or hides what is typed. */
export function PasswordInput(props: Omit<TextInputProps, 'type' | 'endAdornment' | 'sx'>) {
  const { t } = useTranslation('common');
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
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
