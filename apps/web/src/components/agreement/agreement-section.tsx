import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** The frame of each agreement block: a titled card, as the statistics pages draw theirs. */
export function AgreementSection({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper
      component="section"
      variant="outlined"
      data-testid={testId}
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2, display: 'grid', gap: 2, minWidth: 0 }}
    >
      <Typography variant="h3" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
