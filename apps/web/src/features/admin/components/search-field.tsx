import { useEffect, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import SearchOutlined from '@mui/icons-material/SearchOutlined';

/** A text filter that applies itself once the typing pauses (300 ms), or at once on Enter. */
export function SearchField({
  value,
  onSearch,
  ...rest
}: Omit<TextFieldProps, 'value' | 'onChange'> & { value: string; onSearch: (value: string) => void }) {
  const [text, setText] = useState(value);
  // The URL changed from elsewhere (cleared filters, back button): the field shows it.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <TextField
      {...rest}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onSearch(text.trim());
      }}
      slotProps={{
        htmlInput: { maxLength: 100 },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchOutlined aria-hidden fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
