import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/**
 * A table that may scroll sideways on a phone: the scrolling box is a named region that the
 * keyboard can reach, so that its hidden columns can be scrolled into view without a mouse.
 */
export function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      sx={{ overflowX: 'auto', '&:focus-visible': { outline: (t) => `2px solid ${t.palette.primary.main}`, outlineOffset: 2 } }}
    >
      {children}
    </Box>
  );
}
