import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import PlaylistPlay from '@mui/icons-material/PlaylistPlay';
import Stop from '@mui/icons-material/Stop';
import type { Comparison, ComparisonSide } from '@sutura/domain/comparison';
import { asPlayedDrawings, TeachingDrawingList } from '@/components/drawing/teaching-drawing-list';
import { useDrawingPlayback } from '@/components/drawing/use-drawing-playback';
import { VideoPlayer } from '@/components/video/video-player';
import { StepRows } from '@/features/compare/components/step-rows';
import { useStepByStep, type RowSegments } from '@/features/compare/hooks/use-step-by-step';

/**
 * One video of the comparison with its heading. A best case's teaching drawings show over its
 * picture on their frames (playing through one pauses there, as on the learner's result), and
 * are listed under it with their notes.
 */
function Side({
  side,
  heading,
  playerTitle,
  testId,
  holder,
  onUrlsExpired,
  onDrawingSeek,
}: {
  side: ComparisonSide;
  heading: string;
  playerTitle: string;
  testId: string;
  holder: React.RefObject<HTMLDivElement | null>;
  onUrlsExpired(): void;
  /** Before a drawing's frame is sought: the step-by-step playing stops. */
  onDrawingSeek(): void;
}) {
  const { t } = useTranslation('compare');
  const items = useMemo(() => asPlayedDrawings(side.drawings), [side.drawings]);
  const drawings = useDrawingPlayback(items);
  const [seekRequest, setSeekRequest] = useState<{ time: number } | null>(null);
  return (
    // Side by side, both sides share the rows of the grid (subgrid): a heading on two lines moves both players down alike.
    <Box
      component="section"
      aria-label={heading}
      data-testid={`${testId}-side`}
      sx={{ minWidth: 0, display: 'grid', gap: 1, alignContent: 'start', gridRow: { md: 'span 3' }, gridTemplateRows: { md: 'subgrid' } }}
    >
      <Typography variant="h3" component="h3" sx={{ overflowWrap: 'anywhere', alignSelf: 'end' }}>
        {heading}
      </Typography>
      <Box ref={holder} data-testid={testId}>
        {side.videoUrl ? (
          <VideoPlayer
            videoUrl={side.videoUrl}
            posterUrl={side.posterUrl}
            storyboard={side.storyboard}
            title={playerTitle}
            onUrlsExpired={onUrlsExpired}
            seekRequest={seekRequest}
            {...drawings.player}
          />
        ) : (
          <Alert severity="info">{t('view.noVideo')}</Alert>
        )}
      </Box>
      <TeachingDrawingList
        drawings={side.drawings}
        headingComponent="h4"
        onSeek={(time) => {
          onDrawingSeek();
          drawings.video?.pause();
          setSeekRequest({ time });
        }}
      />
    </Box>
  );
}

/**
 * The two videos side by side (one above the other on a phone), the steps of both matched, and
 * the step-by-step playing of both. Everything is reachable by keyboard: the steps are buttons,
 * the players keep their own controls and shortcuts.
 */
export function ComparisonView({ comparison, onUrlsExpired }: { comparison: Comparison; onUrlsExpired(): void }) {
  const { t } = useTranslation('compare');
  const subjectHolder = useRef<HTMLDivElement>(null);
  const bestHolder = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const { subject, bestCase, rows } = comparison;
  const caseLabel = subject.kind === 'case' ? t('view.theCase') : subject.title;

  const segments = useMemo<RowSegments[]>(
    () =>
      rows.map((row) => {
        const mine = subject.steps.find((s) => s.id === row.caseStepId);
        const best = bestCase.steps.find((s) => s.id === row.bestStepId);
        return { subject: mine ? { start: mine.start, end: mine.end } : null, best: best ? { start: best.start, end: best.end } : null };
      }),
    [rows, subject.steps, bestCase.steps],
  );
  const player = useStepByStep({ subject: subjectHolder, best: bestHolder }, segments);
  const playing = player.state.kind === 'playing' ? player.state.row : null;

  const choose = (index: number) => {
    setSelected(index);
    player.seek(index);
  };

  const unmatched = rows.filter((r) => !r.caseStepId || !r.bestStepId).length;
  const anyMatched = rows.some((r) => r.caseStepId && r.bestStepId);
  const playingName = (() => {
    if (playing === null) return '';
    const row = rows[playing]!;
    return subject.steps.find((s) => s.id === row.caseStepId)?.name ?? '';
  })();

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Box sx={{ display: 'grid', gap: { xs: 3, md: 2 }, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
        <Side
          side={subject}
          heading={subject.kind === 'case' ? t('view.theCase') : subject.title}
          playerTitle={t('view.playerCase', { title: subject.title })}
          testId="compare-player-case"
          holder={subjectHolder}
          onUrlsExpired={onUrlsExpired}
          onDrawingSeek={player.stop}
        />
        <Side
          side={bestCase}
          heading={`${t('view.bestCase')} — ${bestCase.title}`}
          playerTitle={t('view.playerBestCase', { title: bestCase.title })}
          testId="compare-player-best"
          holder={bestHolder}
          onUrlsExpired={onUrlsExpired}
          onDrawingSeek={player.stop}
        />
      </Box>

      <Paper variant="outlined" component="section" aria-labelledby="compare-steps-title" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id="compare-steps-title" variant="h3" component="h3">
            {t('steps.title')}
          </Typography>
          {rows.length > 0 && (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button
                variant="contained"
                startIcon={<PlaylistPlay aria-hidden />}
                onClick={() => player.start(selected ?? 0)}
                disabled={!anyMatched}
                data-testid="compare-play-steps"
              >
                {t('play.stepByStep')}
              </Button>
              <Button
                variant="outlined"
                startIcon={<Stop aria-hidden />}
                onClick={player.stop}
                // Stopped from the keyboard it keeps the focus (aria-disabled): disabled, the focus would drop to the page's body.
                aria-disabled={player.state.kind !== 'playing' || undefined}
                sx={
                  player.state.kind !== 'playing'
                    ? { '&&': { color: 'action.disabled', borderColor: 'action.disabledBackground' } }
                    : undefined
                }
                data-testid="compare-stop"
              >
                {t('play.stop')}
              </Button>
            </Box>
          )}
        </Box>
        {rows.length === 0 ? (
          <Typography>{t('steps.none')}</Typography>
        ) : (
          <>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              {t('steps.help')}
            </Typography>
            <Alert severity={unmatched ? 'warning' : 'success'} sx={{ mb: 2 }} data-testid="compare-match-summary">
              {unmatched ? t('steps.unmatchedSummary', { count: unmatched }) : t('steps.allMatched')}
            </Alert>
            <Typography
              role="status"
              variant="body2"
              sx={{ fontWeight: 700, mb: 1, minHeight: '1.75em' }}
              data-testid="compare-play-status"
            >
              {player.state.kind === 'playing'
                ? player.state.held
                  ? t('play.held', { number: player.state.row + 1 })
                  : player.state.waiting
                    ? t('play.waiting', { number: player.state.row + 1 })
                    : t('play.playing', { number: player.state.row + 1, name: playingName })
                : player.state.kind === 'done'
                  ? t('play.done')
                  : player.state.kind === 'nothing'
                    ? t('play.noMatched')
                    : ''}
            </Typography>
            <StepRows comparison={comparison} selected={selected} playing={playing} caseLabel={caseLabel} onChoose={choose} />
          </>
        )}
      </Paper>
    </Box>
  );
}
