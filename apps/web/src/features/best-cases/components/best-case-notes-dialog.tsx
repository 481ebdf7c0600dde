import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import type { AdminBestCaseDetail } from '@sutura/domain/best-cases';
import { BEST_CASE_STEP_NOTE_MAX } from '@sutura/domain/comparison';
import { PendingButton } from '@/components/pending-button';
import { formatClock } from '@/components/video/format';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useAdminBestCase, useBestCaseStepNotes } from '@/features/best-cases/api/best-cases';

type Notes = Record<string, { noteFr: string; noteEn: string }>;

function NotesForm({ detail, onClose }: { detail: AdminBestCaseDetail; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const toast = useToast();
  const save = useBestCaseStepNotes();
  const [notes, setNotes] = useState<Notes>(() =>
    Object.fromEntries(detail.steps.map((s) => [s.id, detail.stepNotes.find((n) => n.stepId === s.id) ?? { noteFr: '', noteEn: '' }])),
  );
  const [error, setError] = useState<string | null>(null);
  const withHours = (detail.duration ?? 0) >= 3600;
  const change = (stepId: string, key: 'noteFr' | 'noteEn', value: string) =>
    setNotes((current) => ({ ...current, [stepId]: { ...current[stepId]!, [key]: value } }));

  const submit = async () => {
    if (save.isPending) return;
    setError(null);
    try {
      await save.mutateAsync({
        id: detail.id,
        body: { notes: detail.steps.map((s) => ({ stepId: s.id, noteFr: notes[s.id]!.noteFr, noteEn: notes[s.id]!.noteEn })) },
      });
    } catch (caught) {
      setError(errorText(caught));
      return;
    }
    toast('success', t('notes.saved'));
    onClose();
  };

  return (
    <>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {t('notes.help')}
        </Typography>
        {detail.steps.length === 0 ? (
          <Alert severity="info">{t('notes.noSteps')}</Alert>
        ) : (
          <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 2.5 }} data-testid="best-case-notes">
            {detail.steps.map((step, index) => (
              <Box component="li" key={step.id} sx={{ display: 'grid', gap: 1 }}>
                <Typography component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                  {t('notes.step', { number: index + 1, name: step.name, time: formatClock(step.start, withHours) })}
                </Typography>
                <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}>
                  <TextField
                    multiline
                    minRows={2}
                    size="small"
                    label={t('notes.noteFr')}
                    value={notes[step.id]!.noteFr}
                    onChange={(e) => change(step.id, 'noteFr', e.target.value)}
                    slotProps={{ htmlInput: { maxLength: BEST_CASE_STEP_NOTE_MAX, lang: 'fr', 'data-testid': 'best-case-note-fr' } }}
                  />
                  <TextField
                    multiline
                    minRows={2}
                    size="small"
                    label={t('notes.noteEn')}
                    value={notes[step.id]!.noteEn}
                    onChange={(e) => change(step.id, 'noteEn', e.target.value)}
                    slotProps={{ htmlInput: { maxLength: BEST_CASE_STEP_NOTE_MAX, lang: 'en', 'data-testid': 'best-case-note-en' } }}
                  />
                </Box>
              </Box>
            ))}
          </Box>
        )}
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('admin.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          onClick={() => void submit()}
          pending={save.isPending}
          disabled={detail.steps.length === 0}
          icon={<SaveOutlined aria-hidden />}
          data-testid="best-case-save-notes"
        >
          {t('admin.save')}
        </PendingButton>
      </DialogActions>
    </>
  );
}

/** The administrator's note on each step, in French and English, shown beside the step when a case is compared with the best case. */
export function BestCaseNotesDialog({ id, onClose }: { id: string | null; onClose(): void }) {
  const { t } = useTranslation('best-cases');
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const detail = useAdminBestCase(id);
  return (
    <Dialog open={!!id} onClose={onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="best-case-notes-title">
      <DialogTitle id="best-case-notes-title">{t('notes.title')}</DialogTitle>
      {detail.data && detail.data.id === id ? (
        <NotesForm key={detail.data.id} detail={detail.data} onClose={onClose} />
      ) : detail.isError ? (
        <DialogContent>
          <Alert severity="error">{errorText(detail.error)}</Alert>
        </DialogContent>
      ) : (
        <DialogContent>
          <Skeleton variant="rounded" height={240} />
        </DialogContent>
      )}
    </Dialog>
  );
}
