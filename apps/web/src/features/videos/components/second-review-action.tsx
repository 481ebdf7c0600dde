import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import { mayAdminWrite } from '@sutura/domain/roles';
import type { VideoDetail } from '@sutura/domain/videos';
import { errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useRequestReview } from '@/features/videos/api/more-review';

/**
 * An administrator's "send for a second review" on an analysed case reviewed once
 * (docs/double-review.md): confirmed first; the case then waits for another expert.
 */
export function SecondReviewAction({ video, reviews }: { video: VideoDetail; reviews: number | undefined }) {
  const { t } = useTranslation('review');
  const { session } = useSession();
  const toast = useToast();
  const request = useRequestReview();
  const [open, setOpen] = useState(false);
  const flight = useSingleFlight(async () => {
    try {
      await request.mutateAsync(video.id);
      toast('success', t('second.done'));
    } catch (e) {
      toast('error', errorText(e));
    }
    setOpen(false);
  });
  const offered = video.access === 'admin' && video.status === 'analysed' && reviews === 1 && mayAdminWrite(session?.roles ?? []);
  if (!offered) return null;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<RateReviewOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        data-testid="send-second-review"
      >
        {t('second.open')}
      </Button>
      <ConfirmDialog
        open={open}
        title={t('second.title')}
        text={t('second.text')}
        confirm={t('second.confirm')}
        cancel={t('cancel')}
        pending={flight.pending}
        testId="second-review"
        onConfirm={() => void flight.run()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
