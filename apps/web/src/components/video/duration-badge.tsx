import Box from '@mui/material/Box';
import { formatDuration } from '@/components/video/format';
import { visuallyHidden } from '@/components/video/visually-hidden';

/** A video's length over the bottom right corner of its poster (the poster's box is `position: relative`). */
export function DurationBadge({ seconds, label }: { seconds: number; label: string }) {
  return (
    <Box
      component="span"
      sx={{
        position: 'absolute',
        right: 8,
        bottom: 8,
        px: 0.75,
        borderRadius: 1,
        bgcolor: 'rgba(0,0,0,0.8)',
        color: '#fff',
        fontSize: 13,
        fontWeight: 700,
        lineHeight: '22px',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      <Box component="span" sx={visuallyHidden}>
        {label}{' '}
      </Box>
      {formatDuration(seconds)}
    </Box>
  );
}
