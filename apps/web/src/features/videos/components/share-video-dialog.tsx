import { useTranslation } from 'react-i18next';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { shareVideoBody } from '@sutura/domain/videos';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { PendingButton } from '@/components/pending-button';
import { useToast } from '@/lib/toast';
import { useShareVideo } from '@/features/videos/api/video-actions';

// Apart from the list of shares (share-video-section.tsx): the case page draws the list, and loads
// this form with its schema and form library only when the author opens it.

type ShareInput = z.input<typeof shareVideoBody>;
type ShareOutput = z.output<typeof shareVideoBody>;
const resolver = zodResolver(shareVideoBody);

/** Errors that concern the address typed, shown on the field rather than as a toast. */
const EMAIL_ERRORS = ['SHARE_SELF', 'SHARE_USER_NOT_FOUND'] as const;

export function ShareVideoDialog({ videoId, open, onClose }: { videoId: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const share = useShareVideo();
  const { control, handleSubmit, reset, setError } = useForm<ShareInput, unknown, ShareOutput>({ resolver, defaultValues: { email: '' } });

  const submit = useSingleFlight(
    handleSubmit(async (body) => {
      try {
        await share.mutateAsync({ id: videoId, body });
      } catch (error) {
        if (error instanceof ApiRequestError) {
          if ((EMAIL_ERRORS as readonly string[]).includes(error.code)) {
            setError('email', { type: 'server', message: error.code }, { shouldFocus: true });
            return;
          }
          if (applyApiFieldErrors(error, setError)) return;
        }
        toast('error', errorText(error));
        return;
      }
      toast('success', t('share.shared', { email: body.email }));
      reset();
      onClose();
    }),
  );
  const close = () => {
    if (submit.pending) return;
    reset();
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="share-video-title">
      <Box component="form" noValidate onSubmit={(e) => void submit.run(e)}>
        <DialogTitle id="share-video-title">{t('share.title')}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 1 }}>{t('share.intro')}</Typography>
          <TextFieldControl
            control={control}
            name="email"
            type="email"
            label={t('share.email')}
            autoComplete="off"
            required
            autoFocus
            slotProps={{ htmlInput: { 'data-testid': 'share-email' } as object }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={submit.pending}>
            {t('share.cancel')}
          </Button>
          <PendingButton type="submit" variant="contained" pending={submit.pending} data-testid="confirm-share">
            {t('share.confirm')}
          </PendingButton>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
