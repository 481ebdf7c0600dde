import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatTimecode } from '@/features/preparation/model/timecode';
import { keptSeconds, type Trim } from '@/features/preparation/model/trims';

interface TrimListProps {
  trims: readonly Trim[];
  fps: number;
  selected: string | null;
  onSelect(key: string): void;
}

/** The kept ranges in order, with the length of the video they make. */
export function TrimList({ trims, fps, selected, onSelect }: TrimListProps) {
  const { t } = useTranslation('editor');
  const time = (s: number) => formatTimecode(s, fps);
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
      <Typography variant="h3" component="h2">
        {t('trims.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }} data-testid="kept-length">
        {t('trims.kept', { count: trims.length, length: time(keptSeconds(trims)) })}
      </Typography>
      {trims.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('trims.empty')}
        </Typography>
      ) : (
        <List dense disablePadding data-testid="trim-list">
          {trims.map((trim, index) => (
            <ListItemButton
              key={trim.key}
              selected={trim.key === selected}
              onClick={() => onSelect(trim.key)}
              data-testid="trim-item"
              sx={{ borderRadius: 1, gap: 1.5 }}
            >
              <Box
                component="span"
                sx={{ minWidth: 24, textAlign: 'center', fontWeight: 700, bgcolor: 'primary.main', color: '#04251E', borderRadius: 0.5 }}
              >
                {index + 1}
              </Box>
              <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums', flex: 1 }}>
                {t('trims.range', { start: time(trim.start), end: time(trim.end) })}
              </Box>
              <Box component="span" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
                {time(trim.end - trim.start)}
              </Box>
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}
