import Box from '@mui/material/Box';
import { RATING_LABELS, ratingColor, type RatingLevel } from '@sutura/domain/analysis';
import { currentLanguage } from '@/lib/i18n';

/** A level as its colour and name, for read-only views. */
export function RatingBadge({ level }: { level: RatingLevel | null }) {
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  if (level === null) return null;
  return (
    <Box
      component="span"
      data-testid="rating-badge"
      data-level={level}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1,
        py: 0.25,
        borderRadius: 1,
        fontWeight: 700,
        fontSize: 14,
        bgcolor: ratingColor(level),
        color: level >= 5 ? '#fff' : '#1B1B1B',
        whiteSpace: 'nowrap',
      }}
    >
      {`${level}/5 · ${RATING_LABELS[level][lang]}`}
    </Box>
  );
}
