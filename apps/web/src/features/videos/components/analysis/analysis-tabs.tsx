import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { KPI_DEFINITIONS, formatTimecode, momentLink, type AnalysisResult } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { RatingBadge } from '@/components/case/rating-badge';
import { downloadAnalysisReport, expertProfileOptions } from '@/features/videos/api/analysis-result';
import { formatDateTime } from '@/components/video/format';
import { visuallyHidden } from '@/components/video/visually-hidden';
import type { Storyboard } from '@/components/video/storyboard';
import { CommentDrawingThumbnail } from '@/features/videos/components/analysis/result-drawings';
import { PauseOnDrawingsSwitch } from '@/components/drawing/pause-switch';

const KpiRadar = lazy(() => import('@/features/videos/components/analysis/kpi-radar'));

/** The expert's public profile (SPEC §7 call table), their date, the global rating and the PDF report. */
export function AnalysisSummary({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage();
  const toast = useToast();
  const [downloading, setDownloading] = useState(false);
  const profile = useQuery({ ...expertProfileOptions(result.expert.id, lang), enabled: result.expert.id !== '' });
  const name = profile.data?.information
    ? `${profile.data.information.firstName} ${profile.data.information.lastName}`
    : `${result.expert.firstName} ${result.expert.lastName}`;
  const download = async () => {
    setDownloading(true);
    try {
      await downloadAnalysisReport(result.videoId);
    } catch (error) {
      toast('error', errorText(error));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="result-title"
      sx={{ p: 2.5, borderRadius: 2, display: 'grid', gap: 1.5 }}
      data-testid="analysis-summary"
    >
      <Typography id="result-title" variant="h3" component="h3">
        {t('result.title')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }} data-testid="analysis-expert">
        <Avatar src={profile.data?.media?.url ?? undefined} alt="" />
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 700 }}>{name}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={profile.data ? 'analysis-expert-profile' : undefined}>
            {profile.data?.career?.specialty?.name ?? t('result.expert')}
          </Typography>
        </Box>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('result.submittedOn', { date: formatDateTime(result.submittedAt, lang) })}
      </Typography>
      {result.ratingsShown && result.globalRating !== null && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} data-testid="analysis-global-rating">
          <Typography sx={{ fontWeight: 700 }}>{t('advice.globalRating')}</Typography>
          <RatingBadge level={result.globalRating} />
        </Box>
      )}
      <Button
        variant="outlined"
        startIcon={downloading ? <CircularProgress size={18} color="inherit" /> : <PictureAsPdfOutlined aria-hidden />}
        onClick={() => void download()}
        disabled={downloading}
        data-testid="analysis-report"
      >
        {t('result.report')}
      </Button>
    </Paper>
  );
}

/** KPI tab: a radar of the five skills and the same numbers as a table; without ratings, the skills only. */
export function AnalysisKpiTab({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const data = result.kpis.map((k) => ({ name: KPI_DEFINITIONS[k.kpi].name[lang], rating: k.rating ?? 0 }));
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 720 }}>
      {result.ratingsShown && (
        <Box aria-hidden data-testid="kpi-radar" sx={{ minHeight: { xs: 340, sm: 380 } }}>
          <Suspense fallback={<Skeleton variant="circular" width={280} height={280} sx={{ mx: 'auto' }} />}>
            <KpiRadar data={data} />
          </Suspense>
        </Box>
      )}
      <Box
        component="table"
        sx={{
          borderCollapse: 'collapse',
          width: '100%',
          '& td, & th': { py: 1, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', verticalAlign: 'top' },
        }}
        data-testid="kpi-table"
      >
        <Box component="caption" sx={result.ratingsShown ? visuallyHidden : { textAlign: 'left', pb: 1, color: 'text.secondary' }}>
          {t(result.ratingsShown ? 'result.kpiCaption' : 'result.ratingsHidden')}
        </Box>
        <thead>
          <tr>
            <th scope="col">{t('result.skill')}</th>
            {result.ratingsShown && <th scope="col">{t('result.rating')}</th>}
          </tr>
        </thead>
        <tbody>
          {result.kpis.map((k) => (
            <tr key={k.kpi}>
              <th scope="row">
                <Typography sx={{ fontWeight: 700 }}>{KPI_DEFINITIONS[k.kpi].name[lang]}</Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {result.ratingsShown && k.rating !== null
                    ? KPI_DEFINITIONS[k.kpi].levels[k.rating][lang]
                    : KPI_DEFINITIONS[k.kpi].summary[lang]}
                </Typography>
              </th>
              {result.ratingsShown && <td>{k.rating !== null ? <RatingBadge level={k.rating} /> : t('result.unrated')}</td>}
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** Steps tab: each step's time and length (and rating), then active and non-active time. */
export function AnalysisStepsTab({ result, onSeek }: { result: AnalysisResult; onSeek(time: number): void }) {
  const { t } = useTranslation('analysis');
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap' }} data-testid="active-times">
        <Typography>
          <Box component="span" sx={{ fontWeight: 700 }}>
            {t('result.activeTime')}
          </Box>{' '}
          {formatTimecode(result.activeTime)}
        </Typography>
        <Typography>
          <Box component="span" sx={{ fontWeight: 700 }}>
            {t('result.nonActiveTime')}
          </Box>{' '}
          {formatTimecode(result.nonActiveTime)}
        </Typography>
      </Box>
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }} data-testid="result-steps">
        {result.steps.map((step, index) => (
          <Box component="li" key={step.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button size="small" variant="outlined" onClick={() => onSeek(step.start)} sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatTimecode(step.start)}
            </Button>
            <Typography sx={{ flex: 1, minWidth: 160 }}>{t('steps.name', { number: index + 1, name: step.name })}</Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('steps.length', { length: formatTimecode(step.duration) })}
            </Typography>
            {result.ratingsShown && <RatingBadge level={step.rating} />}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/** Advice tab: the assessment, the written advice and the voice advice. */
export function AnalysisAdviceTab({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  return (
    <Box sx={{ display: 'grid', gap: 2.5, maxWidth: 800 }} data-testid="result-advice">
      {result.assessment && (
        <Box component="section" aria-labelledby="assessment-title">
          <Typography id="assessment-title" variant="h3" component="h3" sx={{ mb: 0.5 }}>
            {t('advice.assessment')}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{result.assessment}</Typography>
        </Box>
      )}
      <Box component="section" aria-labelledby="advice-title">
        <Typography id="advice-title" variant="h3" component="h3" sx={{ mb: 0.5 }}>
          {t('advice.advice')}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{result.advice || t('result.noAdvice')}</Typography>
      </Box>
      {result.voice && (
        <Box component="section" aria-labelledby="voice-result-title">
          <Typography id="voice-result-title" variant="h3" component="h3" sx={{ mb: 0.5 }}>
            {t('voice.title')}
          </Typography>
          <audio controls src={result.voice.url} preload="metadata" data-testid="result-voice" style={{ width: '100%', maxWidth: 480 }}>
            <track kind="captions" />
          </audio>
        </Box>
      )}
    </Box>
  );
}

/** The comments as a list: a click seeks the player, each has a link to its moment to copy. */
export function AnalysisComments({
  result,
  onSeek,
  storyboard = null,
  posterUrl = null,
}: {
  result: AnalysisResult;
  onSeek(time: number): void;
  /** For the thumbnails of annotated frames. */
  storyboard?: Storyboard | null;
  posterUrl?: string | null;
}) {
  const { t } = useTranslation('analysis');
  const toast = useToast();
  const copy = (start: number) => {
    const link = `${window.location.origin}${momentLink(result.videoId, start)}`;
    navigator.clipboard.writeText(link).then(
      () => toast('success', t('result.linkCopied')),
      () => toast('error', t('result.linkNotCopied')),
    );
  };
  const time = (c: { start: number; end: number | null }) =>
    c.end !== null ? t('comments.range', { start: formatTimecode(c.start), end: formatTimecode(c.end) }) : formatTimecode(c.start);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="result-comments-title"
      sx={{ p: 2.5, borderRadius: 2, display: 'grid', gap: 1 }}
    >
      <Typography id="result-comments-title" variant="h3" component="h3">
        {t('comments.title', { count: result.comments.length })}
      </Typography>
      {result.comments.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('comments.none')}</Typography>}
      {result.comments.some((c) => c.drawing) && <PauseOnDrawingsSwitch />}
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {result.comments.map((comment) => (
          <Box
            component="li"
            key={comment.id}
            data-testid="result-comment"
            sx={{ display: 'flex', gap: 1, borderLeft: '4px solid #FFB300', pl: 1.5 }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Button
                size="small"
                href={momentLink(result.videoId, comment.start)}
                onClick={(e) => {
                  e.preventDefault();
                  onSeek(comment.start);
                }}
                aria-label={t('comments.seek', { time: time(comment) })}
                sx={{ px: 0.5, minWidth: 0, fontVariantNumeric: 'tabular-nums' }}
                data-testid="result-comment-seek"
              >
                {time(comment)}
              </Button>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{comment.text}</Typography>
              {comment.drawing && (
                <Box
                  component="a"
                  href={momentLink(result.videoId, comment.drawing.time)}
                  onClick={(e: MouseEvent) => {
                    e.preventDefault();
                    onSeek(comment.drawing!.time + 0.001);
                  }}
                  sx={{ display: 'inline-block', mt: 0.5, borderRadius: 1, '&:focus-visible': { outline: '3px solid #17C7A4' } }}
                  data-testid="result-comment-drawing"
                >
                  <CommentDrawingThumbnail drawing={comment.drawing} text={comment.text} storyboard={storyboard} posterUrl={posterUrl} />
                </Box>
              )}
            </Box>
            <Tooltip title={t('result.copyLink')}>
              <IconButton aria-label={t('result.copyLink')} onClick={() => copy(comment.start)} data-testid="result-comment-copy">
                <LinkOutlined />
              </IconButton>
            </Tooltip>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

export function AnalysisError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('analysis');
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    >
      {errorText(error)}
    </Alert>
  );
}
