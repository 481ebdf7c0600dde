import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import GavelOutlined from '@mui/icons-material/GavelOutlined';
import { LEGAL_HOLD_REASON_MAX, legalHoldBody } from '@sutura/domain/retention';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { useHoldCase } from '@/features/admin/api/retention-api';

/**
 * Places a legal hold on a case from the list of cases: the reason is asked (required, checked by
 * the shared schema, recorded in the audit log); no retention rule deletes the case until released.
 */
export function LegalHoldDialog({ videoId, caseName, onClose }: { videoId: string; caseName: string; onClose(): void }) {
  const { t } = useTranslation(['surgery-videos', 'errors']);
  const toast = useToast();
  const hold = useHoldCase();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const place = useSingleFlight(async () => {
    const checked = legalHoldBody.safeParse({ reason });
    if (!checked.success) {
      setError(t(`errors:${checked.error.issues[0]!.message}`));
      return;
    }
    setError(null);
    try {
      await hold.mutateAsync({ videoId, reason: checked.data.reason });
      toast('success', t('legalHold.placed'));
      onClose();
    } catch {
      // Shown in the dialog (hold.error), which stays open.
    }
  });
  return (
    <Dialog open onClose={place.pending ? undefined : onClose} aria-labelledby="legal-hold-title" maxWidth="sm" fullWidth>
      <DialogTitle id="legal-hold-title">{t('legalHold.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }} data-testid="legal-hold-case">
          {t('legalHold.text', { name: caseName })}
        </DialogContentText>
        <form
          id="legal-hold-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void place.run();
          }}
        >
          <TextField
            label={t('legalHold.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={!!error}
            helperText={error ?? t('legalHold.reasonHelp')}
            required
            fullWidth
            multiline
            minRows={2}
            autoFocus
            slotProps={{ htmlInput: { maxLength: LEGAL_HOLD_REASON_MAX, 'data-testid': 'legal-hold-reason' } }}
          />
        </form>
        {hold.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(hold.error)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={place.pending}>
          {t('legalHold.cancel')}
        </Button>
        <PendingButton
          type="submit"
          form="legal-hold-form"
          variant="contained"
          pending={place.pending}
          icon={<GavelOutlined aria-hidden />}
          data-testid="legal-hold-confirm"
        >
          {t('legalHold.confirm')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
