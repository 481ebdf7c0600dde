import type { Theme } from '@mui/material/styles';

/** The brand red is too light for text on white (WCAG AA), so light mode uses its dark shade. */
export const dangerTextSx = (theme: Theme) => {
  const color = theme.palette.mode === 'light' ? theme.palette.error.dark : theme.palette.error.main;
  return { color, borderColor: color };
};
