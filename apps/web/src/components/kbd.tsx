import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/** A key of the keyboard, as the shortcut lists draw it. */
export function Kbd({ children }: { children: ReactNode }) {
  return (
    <Box
      component="kbd"
      sx={{ px: 0.75, border: 1, borderColor: 'divider', borderRadius: 1, fontFamily: 'inherit', fontSize: 13, fontWeight: 700 }}
    >
      {children}
    </Box>
  );
}
