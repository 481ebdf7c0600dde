import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { discussedBody } from '@sutura/domain/review';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { useMarkDiscussed } from '@/features/admin/api/review-api';

const NOTE_MAX = 2000;

/** Marks a flagged case discussed: the note of what was concluded is required. */
export function DiscussedDialog({ videoId, caseName, onClose }: { videoId: string; caseName: string; onClose(): void }) {
  const { t } = useTranslation(['review', 'errors']);
  const toast = useToast();
  const mark = useMarkDiscussed();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const flight = useSingleFlight(async () => {
    const parsed = discussedBody.safeParse({ note });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'INVALID_VALUE');
      return;
    }
    try {
      await mark.mutateAsync({ videoId, note: parsed.data.note });
      toast('success', t('disagreements.discussedDone'));
      onClose();
    } catch (e) {
      const field = e instanceof ApiRequestError ? e.details.find((d) => d.path === 'note') : undefined;
      if (field) setError(field.code);
      else toast('error', errorText(e));
    }
  });
  return (
    <Dialog
      open
      onClose={() => !flight.pending && onClose()}
      maxWidth="sm"
      fullWidth
      aria-labelledby="discussed-title"
      aria-describedby="discussed-text"
      data-testid="discussed-dialog"
    >
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void flight.run();
        }}
      >
        <DialogTitle id="discussed-title">{t('disagreements.discussedTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <DialogContentText id="discussed-text" sx={{ overflowWrap: 'anywhere' }}>
            {t('disagreements.discussedText', { name: caseName })}
          </DialogContentText>
          <TextField
            label={t('disagreements.note')}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setError(undefined);
            }}
            required
            multiline
            minRows={3}
            maxRows={10}
            autoFocus
            disabled={flight.pending}
            error={Boolean(error)}
            helperText={error ? t(`errors:${error}`) : t('disagreements.noteHelp', { count: note.length, max: NOTE_MAX.toLocaleString() })}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX, 'data-testid': 'discussed-note' } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={flight.pending}>
            {t('cancel')}
          </Button>
          <PendingButton type="submit" variant="contained" pending={flight.pending} data-testid="discussed-confirm">
            {t('disagreements.discussedConfirm')}
          </PendingButton>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
