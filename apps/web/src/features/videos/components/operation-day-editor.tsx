import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { VideoDetail } from '@sutura/domain/videos';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { useSetOperationDay } from '@/features/videos/api/video-actions';

// The date pickers (about 50 KiB of compressed code with their locales) load after the page has
// drawn: the section shows at once, its field a moment later in the place kept for it.
const OperationDayField = lazy(() => import('@/features/videos/components/operation-day-field'));

/** The height of a small outlined field, kept while the date field loads. */
const FIELD_HEIGHT = 40;

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
        <Suspense fallback={<Box sx={{ height: FIELD_HEIGHT, width: 220 }} />}>
          <OperationDayField label={t('upload:fields.operatedOn')} day={day} onChange={setDay} />
        </Suspense>
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
