import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { SxProps, Theme } from '@mui/material/styles';
import { errorText } from '@/lib/http';

/** A load that failed: what the server said, and a button to try again. */
export function RetryAlert({ error, retry, onRetry, sx }: { error: unknown; retry: string; onRetry(): void; sx?: SxProps<Theme> }) {
  return (
    <Alert
      severity="error"
      sx={sx}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {retry}
        </Button>
      }
    >
      {errorText(error)}
    </Alert>
  );
}
