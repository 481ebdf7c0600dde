import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { LAYOUT } from '@sutura/domain/limits';

/** The column every sign-in screen uses: a title, an optional intro and the form. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: LAYOUT.formMaxWidth + 2 * LAYOUT.formPadding, mx: 'auto', px: { xs: 0, sm: `${LAYOUT.formPadding}px` } }}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {intro && (
        <Typography component="div" sx={{ color: 'text.secondary', mb: 2 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Box>
  );
}
