import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { formatTimecode } from '@sutura/domain/analysis';
import type { BestCaseDrawing } from '@sutura/domain/drawing';
import { PauseOnDrawingsSwitch } from '@/components/drawing/pause-switch';

export type TeachingDrawing = Pick<BestCaseDrawing, 'id' | 'note' | 'drawing'>;

/** A best case's teaching drawings as its player plays them (see useDrawingPlayback): the note is the text alternative. */
export const asPlayedDrawings = (drawings: readonly TeachingDrawing[] | undefined) =>
  (drawings ?? []).map((d) => ({ time: d.drawing.time, shapes: d.drawing.shapes, text: d.note }));

/**
 * The list under a best case's player: each drawing's time and note, a click (or Enter) seeks to
 * its frame, where the player shows it; the "pause on drawings" setting beside it.
 */
export function TeachingDrawingList({
  drawings,
  onSeek,
  onDelete,
  deleting = false,
  headingComponent = 'h3',
}: {
  drawings: readonly TeachingDrawing[];
  onSeek(time: number): void;
  onDelete?(id: string): void;
  deleting?: boolean;
  /** Under a heading of its own (a side of the comparison), one level lower. */
  headingComponent?: 'h3' | 'h4';
}) {
  const { t } = useTranslation('drawing');
  const titleId = useId();
  if (!drawings.length) return null;
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ display: 'grid', gap: 1 }} data-testid="best-case-drawings">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography id={titleId} variant="h3" component={headingComponent} sx={{ flex: 1 }}>
          {t('drawings', { count: drawings.length })}
        </Typography>
        <PauseOnDrawingsSwitch />
      </Box>
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {drawings.map((d) => (
          <Box
            component="li"
            key={d.id}
            sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', borderLeft: '4px solid #18FFFF', pl: 1.5 }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Button
                size="small"
                onClick={() => onSeek(d.drawing.time + 0.001)}
                aria-label={t('showDrawing', { time: formatTimecode(d.drawing.time) })}
                sx={{ px: 0.5, minWidth: 0, fontVariantNumeric: 'tabular-nums' }}
                data-testid="best-case-drawing-seek"
              >
                {formatTimecode(d.drawing.time)}
              </Button>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{d.note}</Typography>
            </Box>
            {onDelete && (
              <IconButton
                aria-label={t('deleteDrawing', { time: formatTimecode(d.drawing.time) })}
                onClick={() => onDelete(d.id)}
                disabled={deleting}
                data-testid="best-case-drawing-delete"
              >
                <DeleteOutlined />
              </IconButton>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
