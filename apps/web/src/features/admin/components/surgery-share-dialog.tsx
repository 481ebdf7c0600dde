import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { ReviewSettingsView } from '@sutura/domain/review';
import { errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { useSetSurgeryShare } from '@/features/admin/api/review-api';
import { ShareChoice, useShareText } from '@/features/admin/components/share-choice';
import { draftOf, shareOf } from '@/features/admin/model/share-draft';

/** A surgery's own share of cases reviewed twice, instead of the installation's default. */
export function SurgeryShareDialog({
  surgery,
  defaultShare,
  onClose,
}: {
  surgery: ReviewSettingsView['surgeries'][number];
  defaultShare: number;
  onClose(): void;
}) {
  const { t } = useTranslation(['review', 'errors']);
  const toast = useToast();
  const shareText = useShareText();
  const save = useSetSurgeryShare();
  const [draft, setDraft] = useState(() => draftOf(surgery.secondReviewShare ?? defaultShare));
  const [error, setError] = useState<string | undefined>();
  const flight = useSingleFlight(async () => {
    const checked = shareOf(draft);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    try {
      await save.mutateAsync({ id: surgery.id, secondReviewShare: checked.share });
      toast('success', t('settings.surgerySaved', { surgery: surgery.name, share: shareText(checked.share) }));
      onClose();
    } catch (e) {
      toast('error', errorText(e));
    }
  });
  return (
    <Dialog
      open
      onClose={() => !flight.pending && onClose()}
      maxWidth="sm"
      fullWidth
      aria-labelledby="surgery-share-title"
      data-testid="surgery-share-dialog"
    >
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void flight.run();
        }}
      >
        <DialogTitle id="surgery-share-title" sx={{ overflowWrap: 'anywhere' }}>
          {t('settings.dialogTitle', { surgery: surgery.name })}
        </DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <Typography sx={{ color: 'text.secondary' }}>{t('settings.dialogText', { share: shareText(defaultShare) })}</Typography>
          <ShareChoice
            legend={t('settings.surgeryLegend')}
            draft={draft}
            onChange={(next) => {
              setDraft(next);
              setError(undefined);
            }}
            error={error}
            disabled={flight.pending}
            testId="surgery-share"
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={flight.pending}>
            {t('cancel')}
          </Button>
          <PendingButton type="submit" variant="contained" pending={flight.pending} data-testid="surgery-share-save">
            {t('settings.save')}
          </PendingButton>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
