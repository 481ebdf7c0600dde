import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { KPI_DEFINITIONS, KPIS, type Kpi, type RatingLevel } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSingleFlight } from '@/lib/single-flight';
import { useToast } from '@/lib/toast';
import { PendingButton } from '@/components/pending-button';
import { RatingScale } from '@/components/case/rating-scale';
import { useSelfAssessmentAction } from '@/features/videos/api/self-assessment-action';

/**
 * Before an unseen result: the learner rates the five KPIs on the expert's scale (the same
 * levels, descriptions and colours), the global rating if they wish, or skips. Either way the
 * result follows; once it is seen, nothing changes any more.
 */
export function SelfAssessmentInvitation({ videoId, status, onDone }: { videoId: string; status: string; onDone(saved: boolean): void }) {
  const { t } = useTranslation('videos');
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const toast = useToast();
  const action = useSelfAssessmentAction(videoId, status);
  const [kpis, setKpis] = useState<Partial<Record<Kpi, RatingLevel>>>({});
  const [global, setGlobal] = useState<RatingLevel | null>(null);
  const complete = KPIS.every((k) => kpis[k] !== undefined);
  // Once, whatever the clicks; the answer unmounts this invitation, so `onDone` follows the promise.
  const { run, pending } = useSingleFlight(async (kind: 'save' | 'skip') => {
    try {
      if (kind === 'save') {
        if (!complete) return;
        await action.mutateAsync({ kind, body: { kpiRatings: kpis as Record<Kpi, RatingLevel>, globalRating: global } });
      } else await action.mutateAsync({ kind });
      onDone(kind === 'save');
    } catch (error) {
      toast('error', errorText(error));
    }
  });
  const save = () => void run('save');
  const skip = () => void run('skip');

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="self-assessment-title"
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2, display: 'grid', gap: 2.5 }}
      data-testid="self-assessment-invitation"
    >
      <Box sx={{ display: 'grid', gap: 0.75 }}>
        <Typography id="self-assessment-title" variant="h3" component="h3">
          {t('selfAssessment.title')}
        </Typography>
        <Typography variant="body2">{t('selfAssessment.lead')}</Typography>
      </Box>
      {KPIS.map((kpi) => {
        const def = KPI_DEFINITIONS[kpi];
        return (
          <Box component="section" key={kpi} aria-labelledby={`self-kpi-${kpi}`} sx={{ display: 'grid', gap: 0.75 }}>
            <Typography id={`self-kpi-${kpi}`} variant="h4" component="h4" sx={{ fontSize: 17 }}>
              {def.name[lang]}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {def.summary[lang]}
            </Typography>
            <RatingScale
              label={def.name[lang]}
              value={kpis[kpi] ?? null}
              onChange={(level) => setKpis((current) => ({ ...current, [kpi]: level }))}
              describe={(level) => def.levels[level][lang]}
              disabled={pending}
              testId={`self-rating-${kpi}`}
            />
          </Box>
        );
      })}
      <Box component="section" aria-labelledby="self-global" sx={{ display: 'grid', gap: 0.75 }}>
        <Typography id="self-global" variant="h4" component="h4" sx={{ fontSize: 17 }}>
          {t('selfAssessment.global')}
        </Typography>
        <RatingScale
          label={t('selfAssessment.global')}
          value={global}
          onChange={setGlobal}
          disabled={pending}
          testId="self-rating-global"
        />
      </Box>
      {!complete && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="self-assessment-incomplete">
          {t('selfAssessment.incomplete')}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
        <Button variant="text" onClick={skip} disabled={pending} data-testid="self-assessment-skip">
          {t('selfAssessment.skip')}
        </Button>
        <PendingButton variant="contained" pending={pending} disabled={!complete} onClick={save} data-testid="self-assessment-save">
          {t('selfAssessment.save')}
        </PendingButton>
      </Box>
    </Paper>
  );
}
