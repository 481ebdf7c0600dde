import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { PreparationPhase } from '@sutura/domain/preparation';
import { Kbd } from '@/components/kbd';

const NAMED_KEYS = new Set(['space', 'home', 'end', 'tab', 'delete', 'shift', 'ctrl']);

/** The keys of the preparation page, by phase; the page's handler answers exactly these. */
export function shortcutList(phase: PreparationPhase): { keys: string[]; action: string }[] {
  return [
    { keys: ['space', 'K'], action: 'playPause' },
    { keys: ['←', '→'], action: 'frame' },
    { keys: ['shift+←', 'shift+→'], action: 'second' },
    { keys: ['home', 'end'], action: 'ends' },
    { keys: [',', '.'], action: 'suggestion' },
    { keys: ['N'], action: phase === 'trim' ? 'newTrim' : 'newStep' },
    { keys: ['I', 'O'], action: 'edgesAtPlayhead' },
    { keys: ['tab'], action: 'focusRange' },
    { keys: ['delete'], action: 'delete' },
    { keys: ['ctrl+Z'], action: 'undo' },
    { keys: ['ctrl+S'], action: 'save' },
    { keys: ['+', '−', '0'], action: 'zoom' },
    { keys: ['?'], action: 'help' },
  ];
}

export function ShortcutsDialog({ open, phase, onClose }: { open: boolean; phase: PreparationPhase; onClose(): void }) {
  const { t } = useTranslation('editor');
  // Named keys are translated (espace, origine…); symbols and letters are shown as they are.
  const keyLabel = (key: string) =>
    (key.length === 1 ? [key] : key.split('+')).map((part) => (NAMED_KEYS.has(part) ? t(`shortcuts.keys.${part}`) : part)).join(' + ');
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="shortcuts-title" maxWidth="sm" fullWidth data-testid="shortcuts-dialog">
      <DialogTitle id="shortcuts-title">{t('shortcuts.title')}</DialogTitle>
      <DialogContent>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1, alignItems: 'center' }}>
          {shortcutList(phase).map((s) => (
            <Box key={s.action} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {s.keys.map((key) => (
                  <Kbd key={key}>{keyLabel(key)}</Kbd>
                ))}
              </Box>
              <Box component="dd" sx={{ m: 0 }}>
                {t(`shortcuts.actions.${s.action}`)}
              </Box>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
