import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { errorText } from '@/lib/http';
import { useSingleFlight } from '@/lib/single-flight';
import { PendingButton } from '@/components/pending-button';
import { useToast } from '@/lib/toast';
import { useSendVideo } from '@/features/videos/api/video-actions';

/** Sends the case to a proctor, optionally as priority, once the person knows it locks the case. */
export function SendVideoDialog({ videoId, open, onClose }: { videoId: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation('videos');
  const toast = useToast();
  const send = useSendVideo();
  const [priority, setPriority] = useState(false);

  const confirm = useSingleFlight(async () => {
    try {
      await send.mutateAsync({ id: videoId, priority });
    } catch (error) {
      toast('error', errorText(error));
      return;
    }
    toast('success', t('send.sent'));
    setPriority(false);
    onClose();
  });
  const close = () => {
    if (confirm.pending) return;
    setPriority(false);
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="send-video-title" aria-describedby="send-video-warning">
      <DialogTitle id="send-video-title">{t('send.title')}</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{t('send.intro')}</Typography>
        <FormControlLabel
          control={
            <Checkbox
              checked={priority}
              onChange={(e) => setPriority(e.target.checked)}
              slotProps={{ input: { 'data-testid': 'send-priority' } as object }}
            />
          }
          label={t('send.priority')}
        />
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2, ml: 4 }}>
          {t('send.priorityHelp')}
        </Typography>
        <Alert severity="warning" id="send-video-warning">
          {t('send.warning')}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={confirm.pending}>
          {t('send.cancel')}
        </Button>
        <PendingButton
          variant="contained"
          onClick={() => void confirm.run()}
          pending={confirm.pending}
          icon={<SendOutlined aria-hidden />}
          data-testid="confirm-send"
        >
          {t('send.confirm')}
        </PendingButton>
      </DialogActions>
    </Dialog>
  );
}
