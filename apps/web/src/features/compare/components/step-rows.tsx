import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import type { Comparison, ComparisonSide } from '@sutura/domain/comparison';
import { formatClock } from '@/components/video/format';
import { currentLanguage } from '@/lib/i18n';

type Step = ComparisonSide['steps'][number];

/** A duration as m:ss (h:mm:ss past an hour). */
const clock = (seconds: number) => formatClock(seconds, seconds >= 3600);

/** A step's rating by the experts, after its duration: " · rated 3.5/5". */
function Rating({ value, testId }: { value: number; testId: string }) {
  const { t } = useTranslation('compare');
  return (
    <Box component="span" sx={{ fontWeight: 700, whiteSpace: 'nowrap' }} data-testid={testId}>
      {' · '}
      {t('steps.rated', { rating: value.toLocaleString(currentLanguage(), { maximumFractionDigits: 1 }) })}
    </Box>
  );
}

/**
 * The steps of both videos in order, one button per row: choosing it sends both videos to the
 * step's start. Each row says both durations and the difference, or which video lacks the step,
 * with the experts' rating of both steps where both were rated, and shows the note the
 * administrator wrote on the best case's step.
 */
export function StepRows({
  comparison,
  selected,
  playing,
  caseLabel,
  onChoose,
}: {
  comparison: Comparison;
  selected: number | null;
  playing: number | null;
  caseLabel: string;
  onChoose(row: number): void;
}) {
  const { t } = useTranslation('compare');
  const stepOf = (steps: readonly Step[], id: string | null) => (id ? (steps.find((s) => s.id === id) ?? null) : null);

  return (
    <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }} data-testid="compare-steps">
      {comparison.rows.map((row, index) => {
        const mine = stepOf(comparison.subject.steps, row.caseStepId);
        const best = stepOf(comparison.bestCase.steps, row.bestStepId);
        const name = mine?.name ?? best?.name ?? '';
        const current = index === (playing ?? selected);
        // The experts' ratings where both steps were rated: side by side, as the durations are.
        const rated = row.caseRating !== null && row.bestRating !== null;
        return (
          <Box component="li" key={`${row.caseStepId ?? ''}-${row.bestStepId ?? ''}`}>
            <ButtonBase
              onClick={() => onChoose(index)}
              aria-current={current ? 'step' : undefined}
              data-testid="compare-step"
              data-matched={row.caseStepId && row.bestStepId ? 'both' : row.caseStepId ? 'case' : 'best'}
              sx={{
                width: '100%',
                textAlign: 'left',
                display: 'grid',
                gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 3fr)' },
                gap: { xs: 0.5, md: 2 },
                alignItems: 'start',
                p: { xs: 1.5, sm: 2 },
                border: '1px solid',
                borderColor: current ? 'primary.main' : 'divider',
                borderLeftWidth: 4,
                borderLeftColor: row.caseStepId && row.bestStepId ? (current ? 'primary.main' : 'divider') : 'quaternary.main',
                borderRadius: 2,
                bgcolor: current ? 'action.selected' : 'background.paper',
                '&:focus-visible': { outline: '3px solid #17C7A4', outlineOffset: 2 },
              }}
            >
              <Box sx={{ minWidth: 0 }}>
                <Typography component="span" sx={{ display: 'block', fontWeight: 700, overflowWrap: 'anywhere' }}>
                  {t('steps.step', { number: index + 1 })} · {name}
                </Typography>
                {row.matchedBy === 'name' && mine && best && mine.name !== best.name && (
                  <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary', overflowWrap: 'anywhere' }}>
                    {t('steps.renamed', { name: best.name })}
                  </Typography>
                )}
                {row.outOfOrder && (
                  <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary' }}>
                    {t('steps.outOfOrder')}
                  </Typography>
                )}
              </Box>
              <Box sx={{ minWidth: 0, display: 'grid', gap: 0.25 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.25 }}>
                  {row.caseDuration !== null && (
                    <Typography component="span" variant="body2" data-testid="compare-step-case-duration">
                      {t('steps.duration', { side: caseLabel, duration: clock(row.caseDuration) })}
                      {rated && <Rating value={row.caseRating!} testId="compare-step-case-rating" />}
                    </Typography>
                  )}
                  {row.bestDuration !== null && (
                    <Typography component="span" variant="body2" data-testid="compare-step-best-duration">
                      {t('steps.duration', { side: t('view.bestCase'), duration: clock(row.bestDuration) })}
                      {rated && <Rating value={row.bestRating!} testId="compare-step-best-rating" />}
                    </Typography>
                  )}
                </Box>
                {row.difference !== null ? (
                  <Typography component="span" variant="body2" sx={{ fontWeight: 700 }} data-testid="compare-step-difference">
                    {Math.abs(row.difference) < 0.5
                      ? t('steps.same')
                      : t(row.difference > 0 ? 'steps.longer' : 'steps.shorter', { duration: clock(Math.abs(row.difference)) })}
                  </Typography>
                ) : (
                  <Typography component="span" variant="body2" sx={{ fontWeight: 700 }} data-testid="compare-step-unmatched">
                    {t(row.caseStepId ? 'steps.missingInBestCase' : 'steps.missingInCase')}
                  </Typography>
                )}
                {best?.note && (
                  <Typography
                    component="span"
                    variant="body2"
                    sx={{ display: 'block', mt: 0.5, whiteSpace: 'pre-line', overflowWrap: 'anywhere', color: 'text.secondary' }}
                    data-testid="compare-step-note"
                  >
                    <Box component="span" sx={{ fontWeight: 700, color: 'text.primary' }}>
                      {t('steps.note')}
                    </Box>
                    {' — '}
                    {best.note}
                  </Typography>
                )}
              </Box>
            </ButtonBase>
          </Box>
        );
      })}
    </Box>
  );
}
