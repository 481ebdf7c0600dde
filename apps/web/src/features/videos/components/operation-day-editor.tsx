import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import type { VideoDetail } from '@sutura/domain/videos';
import { PendingButton } from '@/components/pending-button';
import { DateLocalization } from '@/lib/date-localization';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSetOperationDay } from '@/features/videos/api/video-actions';

const DAY = 'YYYY-MM-DD';

/**
 * The day of the operation of a sent case, which its author may still give or correct: their
 * learning curves are ordered by it (docs/learning-curves.md). A case not sent yet has it in its form.
 */
export function OperationDayEditor({ video }: { video: VideoDetail }) {
  const { t } = useTranslation(['upload', 'videos']);
  const toast = useToast();
  const save = useSetOperationDay();
  const saved = video.fields.operatedOn ?? '';
  const [day, setDay] = useState(saved);
  return (
    <Box component="section" aria-labelledby="operation-day-title" sx={{ mt: 3, display: 'grid', gap: 1 }}>
      <Typography component="h3" variant="subtitle1" id="operation-day-title" sx={{ fontWeight: 700 }}>
        {t('upload:fields.operatedOn')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('upload:fields.operatedOnHelp')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <DateLocalization>
          <DatePicker
            label={t('upload:fields.operatedOn')}
            value={day ? dayjs(day, DAY) : null}
            disableFuture
            onChange={(next) => setDay(next?.isValid() ? next.format(DAY) : '')}
            slotProps={{ textField: { size: 'small', 'data-testid': 'operation-day' } as object, field: { clearable: true } }}
          />
        </DateLocalization>
        <PendingButton
          variant="outlined"
          pending={save.isPending}
          disabled={day === saved}
          data-testid="operation-day-save"
          onClick={() =>
            save.mutate(
              { id: video.id, operatedOn: day || null },
              {
                onSuccess: () => toast('success', t('upload:fields.operatedOnSaved')),
                onError: (error) => toast('error', errorText(error)),
              },
            )
          }
        >
          {t('upload:fields.operatedOnSave')}
        </PendingButton>
      </Box>
    </Box>
  );
}
