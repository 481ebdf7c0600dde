import type { ReactNode } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';

/** A mutating button: disabled with a spinner in place of its icon while its action runs. */
export function PendingButton({ pending, icon, disabled, children, ...rest }: ButtonProps & { pending: boolean; icon?: ReactNode }) {
  return (
    <Button
      {...rest}
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      startIcon={pending ? <CircularProgress size={18} color="inherit" aria-hidden /> : icon}
    >
      {children}
    </Button>
  );
}
