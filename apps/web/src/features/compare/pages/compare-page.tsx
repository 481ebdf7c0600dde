import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ComparisonChoices } from '@sutura/domain/comparison';
import { ApiRequestError } from '@/lib/http';
import { RetryAlert } from '@/components/retry-alert';
import { formatDuration } from '@/components/video/format';
import { VideoPoster } from '@/components/video/video-poster';
import { ComparisonView } from '@/features/compare/components/comparison-view';
import { useComparison, useComparisonChoices, type ComparisonSource } from '@/features/compare/api/comparison';

const missing = (error: unknown) => error instanceof ApiRequestError && (error.status === 404 || error.status === 400);

function Loading({ label }: { label: string }) {
  return (
    <Box role="status" aria-label={label} sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto' }} />
      <Skeleton variant="rounded" sx={{ aspectRatio: '16 / 9', height: 'auto' }} />
    </Box>
  );
}

/** The published best cases of the same surgery, one button each. */
function Choices({ choices, onChoose }: { choices: ComparisonChoices; onChoose(id: string): void }) {
  return (
    <Box
      component="ul"
      sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}
    >
      {choices.bestCases.map((bestCase) => (
        <Box component="li" key={bestCase.id}>
          <ButtonBase
            onClick={() => onChoose(bestCase.id)}
            data-testid="compare-choice"
            sx={{
              width: '100%',
              display: 'grid',
              gap: 1,
              textAlign: 'left',
              p: 1.5,
              border: '1px solid',
              borderColor: 'divider',
              borderRadius: 2,
              bgcolor: 'background.paper',
              '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 2 },
            }}
          >
            <Box sx={{ aspectRatio: '16 / 9', overflow: 'hidden', borderRadius: 1 }}>
              <VideoPoster video={{ kind: 'video', mediaStatus: 'ready', posterUrl: bestCase.posterUrl, pictureCount: 0 }} />
            </Box>
            <Typography component="span" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {bestCase.title}
            </Typography>
            {bestCase.duration !== null && (
              <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
                {formatDuration(bestCase.duration)}
              </Typography>
            )}
          </ButtonBase>
        </Box>
      ))}
    </Box>
  );
}

/**
 * `/videos/:id/compare` and `/best-cases/:id/compare`: compare an analysed case (or a best case)
 * with a published best case of the same surgery. Without `?with=`, the choice: straight to the
 * only one, a list when there are several, and a plain message when none is published.
 */
export function ComparePage({ source }: { source: ComparisonSource }) {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { t } = useTranslation('compare');
  const chosen = params.get('with');
  const choices = useComparisonChoices(source, id);
  const comparison = useComparison(source, id, chosen);
  const only = choices.data?.bestCases.length === 1 ? choices.data.bestCases[0]!.id : null;
  const back = source === 'case' ? `/videos/${encodeURIComponent(id)}` : `/best-cases/${encodeURIComponent(id)}`;

  // A single best case to compare with: no choice to make.
  useEffect(() => {
    if (!chosen && only) setParams({ with: only }, { replace: true });
  }, [chosen, only, setParams]);

  const choose = (bestCaseId: string) => setParams({ with: bestCaseId });

  let body;
  if (choices.isError && missing(choices.error)) {
    body = (
      <Alert severity="info" data-testid="compare-not-found">
        {t('choose.notFound')}
      </Alert>
    );
  } else if (choices.isError) {
    body = <RetryAlert error={choices.error} retry={t('choose.retry')} onRetry={() => void choices.refetch()} />;
  } else if (!choices.data) {
    body = <Loading label={t('choose.loading')} />;
  } else if (choices.data.bestCases.length === 0) {
    body = (
      <Alert severity="info" data-testid="compare-none">
        {t('choose.none')}
      </Alert>
    );
  } else if (!chosen) {
    body = only ? <Loading label={t('view.loading')} /> : <Choices choices={choices.data} onChoose={choose} />;
  } else if (comparison.isError && missing(comparison.error)) {
    body = (
      <Alert severity="info" data-testid="compare-not-found">
        {t('view.notFound')}
      </Alert>
    );
  } else if (comparison.isError) {
    body = <RetryAlert error={comparison.error} retry={t('choose.retry')} onRetry={() => void comparison.refetch()} />;
  } else if (!comparison.data) {
    body = <Loading label={t('view.loading')} />;
  } else {
    body = <ComparisonView comparison={comparison.data} onUrlsExpired={() => void comparison.refetch()} />;
  }

  const surgery = choices.data?.subject.surgery?.name;
  const several = (choices.data?.bestCases.length ?? 0) > 1;
  return (
    <Box sx={{ maxWidth: 1600, mx: 'auto', width: '100%', display: 'grid', gap: 2 }}>
      <Box component="header" sx={{ display: 'grid', gap: 1 }}>
        <Typography variant="h2" component="h2" data-testid="compare-heading" sx={{ overflowWrap: 'anywhere' }}>
          {comparison.data
            ? t('view.title', { subject: comparison.data.subject.title, bestCase: comparison.data.bestCase.title })
            : t('choose.title')}
        </Typography>
        {!chosen && choices.data && choices.data.bestCases.length > 1 && (
          <Typography>{surgery ? t('choose.intro', { surgery }) : t('choose.introNoSurgery')}</Typography>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {chosen && several && (
            <Button variant="outlined" onClick={() => setParams({})} data-testid="compare-change">
              {t('choose.change')}
            </Button>
          )}
          {(choices.isError || choices.data?.bestCases.length === 0) && (
            <Button component={RouterLink} to={back} variant="outlined">
              {t('choose.back')}
            </Button>
          )}
        </Box>
      </Box>
      {body}
    </Box>
  );
}

export const CaseComparePage = () => <ComparePage source="case" />;
export const BestCaseComparePage = () => <ComparePage source="best_case" />;
