import Box from '@mui/material/Box';
import { visuallyHidden } from '@/components/video/visually-hidden';

/** The progress steps a screen reader hears: at the start, every quarter, and at the end. */
export const PROGRESS_MILESTONE = 25;

/** A percentage brought down to its last milestone (0, 25, 50, 75, 100). */
export function progressMilestone(percent: number, step = PROGRESS_MILESTONE): number {
  const value = Math.min(100, Math.max(0, percent));
  return value >= 100 ? 100 : Math.floor(value / step) * step;
}

/**
 * A polite live region, not drawn: a screen reader says its text each time the text changes, and
 * only then. Callers give it a text that changes at milestones (a quarter of an upload, a save that
 * succeeded after a failure, a new notification), never at every tick of a progress bar.
 */
export function LiveAnnouncement({ text, testId }: { text: string; testId?: string }) {
  return (
    <Box role="status" aria-live="polite" aria-atomic="true" data-testid={testId} sx={visuallyHidden}>
      {text}
    </Box>
  );
}
