import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import CheckOutlined from '@mui/icons-material/CheckOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { useAnswerBestCase } from '@/features/videos/api/best-case-answer';
import { useBestCaseRequest } from '@/features/videos/api/best-case-request';

/**
 * The author's answer to an administrator who would like to publish their analysed case as a
 * best case (docs/best-cases.md): accept, decline, or withdraw once accepted.
 */
export function BestCaseRequestPanel({ videoId }: { videoId: string }) {
  const { t } = useTranslation('best-cases');
  const toast = useToast();
  const request = useBestCaseRequest(videoId, true);
  const answer = useAnswerBestCase(videoId);
  const data = request.data;
  if (!data || data.consent === 'not_needed') return null;
  const title = currentLanguage() === 'fr' ? data.titleFr : data.titleEn;
  const send = (accept: boolean) => {
    if (answer.isPending) return;
    answer.mutate(accept, {
      onSuccess: () => toast('success', t(accept ? 'request.acceptedToast' : 'request.declinedToast')),
      onError: (error) => toast('error', errorText(error)),
    });
  };
  const pendingAnswer = answer.isPending ? answer.variables : undefined;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="best-case-request-title"
      sx={{ p: 2.5, borderRadius: 2 }}
      data-testid="best-case-request"
    >
      <Typography id="best-case-request-title" variant="h3" component="h3" sx={{ mb: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
        <EmojiEventsOutlined aria-hidden />
        {t('request.title')}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {t(`request.${data.consent}`, { title })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        {data.consent !== 'accepted' && (
          <PendingButton
            variant="contained"
            size="small"
            pending={pendingAnswer === true}
            disabled={answer.isPending}
            icon={<CheckOutlined aria-hidden />}
            onClick={() => send(true)}
            data-testid="best-case-accept"
          >
            {t('request.accept')}
          </PendingButton>
        )}
        {(data.consent === 'pending' || data.consent === 'accepted') && (
          <PendingButton
            variant="outlined"
            size="small"
            pending={pendingAnswer === false}
            disabled={answer.isPending}
            icon={<CloseOutlined aria-hidden />}
            onClick={() => send(false)}
            data-testid="best-case-decline"
          >
            {t(data.consent === 'accepted' ? 'request.withdraw' : 'request.decline')}
          </PendingButton>
        )}
      </Box>
    </Paper>
  );
}
