import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * One number of the dashboard. The label comes first in the page (a screen reader says
 * "Cases uploaded, 8"); the number is drawn above it, large.
 */
export function KeyNumber({ label, value, detail, testId }: { label: string; value: ReactNode; detail?: ReactNode; testId: string }) {
  return (
    <Box
      component="li"
      data-testid={testId}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 3,
        bgcolor: 'background.paper',
        p: 2,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
        minWidth: 0,
      }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column-reverse' }}>
        <Typography variant="body2" component="span" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
          {label}
        </Typography>
        <Typography component="span" data-testid={`${testId}-value`} sx={{ fontSize: 32, fontWeight: 700, lineHeight: 1.2 }}>
          {value}
        </Typography>
      </Box>
      {detail && (
        <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
          {detail}
        </Typography>
      )}
    </Box>
  );
}

/** A row of key numbers: one column at 390 px, more as the screen widens. */
export function KeyNumbers({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' },
      }}
    >
      {children}
    </Box>
  );
}
