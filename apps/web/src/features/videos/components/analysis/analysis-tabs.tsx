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
import AlertTitle from '@mui/material/AlertTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import LinkOutlined from '@mui/icons-material/LinkOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { KPI_DEFINITIONS, formatTimecode, momentLink, type AnalysisResult, type RatingLevel } from '@sutura/domain/analysis';
import { errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { RatingBadge } from '@/components/case/rating-badge';
import { expertProfileOptions } from '@/features/videos/api/analysis-result';
import { downloadAnalysisReport } from '@/features/videos/api/analysis-report';
import { formatDateTime } from '@/components/video/format';
import { visuallyHidden } from '@/components/video/visually-hidden';
import type { Storyboard } from '@/components/video/storyboard';
import { CommentDrawingThumbnail } from '@/features/videos/components/analysis/result-drawings';
import { PauseOnDrawingsSwitch } from '@/components/drawing/pause-switch';
import { useChartPalette } from '@/lib/theme';
import type { RadarSeries } from '@/features/videos/components/analysis/kpi-radar';
import { expertName, formatMean, isMultiReview, signedComments } from '@/features/videos/components/analysis/reviews';

const KpiRadar = lazy(() => import('@/features/videos/components/analysis/kpi-radar'));

type Review = AnalysisResult['reviews'][number];

/** A mean of the experts' levels: the number out of 5 (not a level of the scale, so no level's colour). */
function MeanValue({ value }: { value: number | null }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage();
  if (value === null) return <>{t('result.unrated')}</>;
  return (
    <Box
      component="span"
      data-testid="rating-mean"
      data-value={value}
      sx={{
        display: 'inline-flex',
        px: 1,
        py: 0.25,
        borderRadius: 1,
        border: 2,
        borderColor: 'text.primary',
        fontWeight: 700,
        fontSize: 14,
        whiteSpace: 'nowrap',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {t('reviews.meanValue', { value: formatMean(value, lang) })}
    </Box>
  );
}

/** An expert of the result: their photo, name and specialty from their public profile. */
function ExpertIdentity({ expert, testId }: { expert: Review['expert']; testId?: string }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage();
  const profile = useQuery({ ...expertProfileOptions(expert.id, lang), enabled: expert.id !== '' });
  const name = profile.data?.information ? expertName(profile.data.information) : expertName(expert);
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }} data-testid={testId}>
      <Avatar src={profile.data?.media?.url ?? undefined} alt="" />
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700 }}>{name}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {profile.data?.career?.specialty?.name ?? t('result.expert')}
        </Typography>
      </Box>
    </Box>
  );
}

/**
 * What the learner is told beside the result: another expert reviews the case now, and where the
 * experts disagreed by 2 levels or more.
 */
function ReviewNotices({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  const items = result.disagreement?.items ?? [];
  return (
    <>
      {result.furtherReviewPending && (
        <Alert severity="info" role="status" data-testid="further-review-notice">
          <AlertTitle component="p">{t('reviews.furtherTitle')}</AlertTitle>
          {t('reviews.furtherLead')}
        </Alert>
      )}
      {items.length > 0 && (
        <Alert severity="warning" role="note" data-testid="disagreement-notice">
          <AlertTitle component="p">{t('reviews.disagreementTitle')}</AlertTitle>
          <Typography variant="body2">{t('reviews.disagreementLead')}</Typography>
          <Box component="ul" sx={{ my: 0.5, pl: 2.5 }}>
            {items.map((item) => (
              <li key={`${item.kind}-${item.key}`} data-testid="disagreement-item" data-kind={item.kind}>
                <Box component="span" sx={{ fontWeight: 700 }}>
                  {item.name}
                </Box>{' '}
                ({t(item.kind === 'kpi' ? 'reviews.kindKpi' : 'reviews.kindStep')})
              </li>
            ))}
          </Box>
          <Typography variant="body2">{t('reviews.disagreementExplain')}</Typography>
        </Alert>
      )}
    </>
  );
}

interface CompareRow {
  key: string;
  name: string;
  /** Under the name (the level's description, a step's time). */
  detail?: string;
  ratings: (RatingLevel | null)[];
  mean: number | null;
}

/**
 * Each expert's rating side by side, and their mean: a table with its headers from the tablet up;
 * on a phone one card per row, each value named by its expert (a description list).
 */
function RatingsCompare({
  caption,
  rowHeader,
  experts,
  rows,
  testId,
}: {
  caption: string;
  rowHeader: string;
  experts: string[];
  rows: CompareRow[];
  testId: string;
}) {
  const { t } = useTranslation('analysis');
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const rating = (level: RatingLevel | null) => (level !== null ? <RatingBadge level={level} /> : t('result.unrated'));
  if (narrow) {
    return (
      <Box component="section" aria-label={caption} data-testid={testId} data-layout="cards">
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
          {rows.map((row) => (
            <Paper
              component="li"
              variant="outlined"
              key={row.key}
              sx={{ p: 1.5, borderRadius: 2 }}
              data-testid={`${testId}-row`}
              data-key={row.key}
            >
              <Typography sx={{ fontWeight: 700 }}>{row.name}</Typography>
              {row.detail && (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {row.detail}
                </Typography>
              )}
              <Box
                component="dl"
                sx={{
                  m: 0,
                  mt: 1,
                  display: 'grid',
                  gridTemplateColumns: 'minmax(0, 1fr) auto',
                  columnGap: 1.5,
                  rowGap: 0.75,
                  alignItems: 'center',
                }}
              >
                {experts.map((name, index) => (
                  <Box key={name + index} sx={{ display: 'contents' }}>
                    <Box component="dt" sx={{ overflowWrap: 'anywhere' }}>
                      {name}
                    </Box>
                    <Box component="dd" sx={{ m: 0 }}>
                      {rating(row.ratings[index] ?? null)}
                    </Box>
                  </Box>
                ))}
                <Box component="dt" sx={{ fontWeight: 700 }}>
                  {t('reviews.mean')}
                </Box>
                <Box component="dd" sx={{ m: 0 }}>
                  <MeanValue value={row.mean} />
                </Box>
              </Box>
            </Paper>
          ))}
        </Box>
      </Box>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }} data-testid={testId} data-layout="table">
      <Box
        component="table"
        sx={{
          borderCollapse: 'collapse',
          width: '100%',
          '& td, & th': { py: 1, px: 1, borderBottom: 1, borderColor: 'divider', textAlign: 'left', verticalAlign: 'top' },
        }}
      >
        <Box component="caption" sx={visuallyHidden}>
          {caption}
        </Box>
        <thead>
          <tr>
            <th scope="col">{rowHeader}</th>
            {experts.map((name, index) => (
              <th scope="col" key={name + index}>
                {name}
              </th>
            ))}
            <th scope="col">{t('reviews.mean')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-testid={`${testId}-row`} data-key={row.key}>
              <th scope="row">
                <Typography sx={{ fontWeight: 700 }}>{row.name}</Typography>
                {row.detail && (
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {row.detail}
                  </Typography>
                )}
              </th>
              {experts.map((name, index) => (
                <td key={name + index}>{rating(row.ratings[index] ?? null)}</td>
              ))}
              <td>
                <MeanValue value={row.mean} />
              </td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** The expert's public profile (SPEC §7 call table), their date, the global rating and the PDF report. */
export function AnalysisSummary({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage();
  const toast = useToast();
  const [downloading, setDownloading] = useState(false);
  const multi = isMultiReview(result);
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
        {t(multi ? 'reviews.title' : 'result.title')}
      </Typography>
      <ReviewNotices result={result} />
      {multi ? (
        <>
          <Typography variant="body2">{t(result.reviews.length > 2 ? 'reviews.leadThree' : 'reviews.lead')}</Typography>
          {result.reviews.map((review) => (
            <Box
              key={review.round}
              sx={{ display: 'grid', gap: 0.75, borderTop: 1, borderColor: 'divider', pt: 1.5 }}
              data-testid="analysis-review"
              data-round={review.round}
            >
              <ExpertIdentity expert={review.expert} testId="analysis-review-expert" />
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('result.submittedOn', { date: formatDateTime(review.submittedAt, lang) })}
              </Typography>
              {result.ratingsShown && review.globalRating !== null && (
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} data-testid="analysis-review-global">
                  <Typography sx={{ fontWeight: 700 }}>{t('advice.globalRating')}</Typography>
                  <RatingBadge level={review.globalRating} />
                </Box>
              )}
            </Box>
          ))}
          {result.ratingsShown && result.mean.globalRating !== null && (
            <Box
              sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', borderTop: 1, borderColor: 'divider', pt: 1.5 }}
              data-testid="analysis-global-mean"
            >
              <Typography sx={{ fontWeight: 700 }}>{t('reviews.globalMean')}</Typography>
              <MeanValue value={result.mean.globalRating} />
            </Box>
          )}
        </>
      ) : (
        <>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }} data-testid="analysis-expert">
            <Avatar src={profile.data?.media?.url ?? undefined} alt="" />
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 700 }}>{name}</Typography>
              <Typography
                variant="body2"
                sx={{ color: 'text.secondary' }}
                data-testid={profile.data ? 'analysis-expert-profile' : undefined}
              >
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
        </>
      )}
      <Button
        variant="outlined"
        startIcon={downloading ? <CircularProgress size={18} color="inherit" aria-hidden /> : <PictureAsPdfOutlined aria-hidden />}
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
  if (isMultiReview(result) && result.ratingsShown) return <MultiReviewKpis result={result} />;
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

/**
 * The KPIs of a case reviewed by several experts: one outline per expert and the mean (dashed) on
 * the radar, named in its legend; then each expert's rating and the mean, side by side.
 */
function MultiReviewKpis({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const experts = result.reviews.map((r) => expertName(r.expert));
  const series: RadarSeries[] = [
    ...result.reviews.map((r, index) => ({ key: `review${index}`, label: experts[index]!, colourIndex: index + 1 })),
    { key: 'mean', label: t('reviews.chartMean'), dashed: true },
  ];
  const data = result.mean.kpis.map((m) => ({
    name: KPI_DEFINITIONS[m.kpi].name[lang],
    mean: m.rating ?? 0,
    ...Object.fromEntries(result.reviews.map((r, index) => [`review${index}`, r.kpis.find((k) => k.kpi === m.kpi)?.rating ?? 0])),
  }));
  const rows: CompareRow[] = result.mean.kpis.map((m) => ({
    key: m.kpi,
    name: KPI_DEFINITIONS[m.kpi].name[lang],
    detail: KPI_DEFINITIONS[m.kpi].summary[lang],
    ratings: result.reviews.map((r) => r.kpis.find((k) => k.kpi === m.kpi)?.rating ?? null),
    mean: m.rating,
  }));
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 860 }}>
      <Box aria-hidden data-testid="kpi-radar" sx={{ minHeight: { xs: 388, sm: 428 } }}>
        <Suspense fallback={<Skeleton variant="circular" width={280} height={280} sx={{ mx: 'auto' }} />}>
          <KpiRadar data={data} series={series} />
        </Suspense>
      </Box>
      <RatingsCompare caption={t('reviews.kpiCaption')} rowHeader={t('result.skill')} experts={experts} rows={rows} testId="kpi-compare" />
    </Box>
  );
}

/** Steps tab: each step's time and length (and rating), then active and non-active time. */
export function AnalysisStepsTab({ result, onSeek }: { result: AnalysisResult; onSeek(time: number): void }) {
  const { t } = useTranslation('analysis');
  const multi = isMultiReview(result);
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
            {result.ratingsShown && !multi && <RatingBadge level={step.rating} />}
          </Box>
        ))}
      </Box>
      {multi && result.ratingsShown && (
        <Box component="section" aria-labelledby="step-ratings-title" sx={{ display: 'grid', gap: 1 }}>
          <Typography id="step-ratings-title" variant="h3" component="h3">
            {t('reviews.stepRatings')}
          </Typography>
          <RatingsCompare
            caption={t('reviews.stepCaption')}
            rowHeader={t('tabs.steps')}
            experts={result.reviews.map((r) => expertName(r.expert))}
            rows={result.steps.map((step, index) => ({
              key: step.id,
              name: t('steps.name', { number: index + 1, name: step.name }),
              ratings: result.reviews.map((r) => r.steps.find((s) => s.id === step.id)?.rating ?? null),
              mean: result.mean.steps.find((s) => s.id === step.id)?.rating ?? null,
            }))}
            testId="step-compare"
          />
        </Box>
      )}
    </Box>
  );
}

/** Advice tab: the assessment, the written advice and the voice advice. */
export function AnalysisAdviceTab({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation('analysis');
  if (isMultiReview(result)) {
    return (
      <Box sx={{ display: 'grid', gap: 3, maxWidth: 800 }} data-testid="result-advice">
        {result.reviews.map((review) => (
          <ReviewAdvice key={review.round} review={review} />
        ))}
      </Box>
    );
  }
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

/** One expert's assessment, written and voice advice, under their name. */
function ReviewAdvice({ review }: { review: Review }) {
  const { t } = useTranslation('analysis');
  const id = (part: string) => `review-${review.round}-${part}`;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id('title')}
      sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 2, display: 'grid', gap: 2 }}
      data-testid="result-review-advice"
      data-round={review.round}
    >
      <Typography id={id('title')} variant="h3" component="h3">
        {t('reviews.reviewBy', { name: expertName(review.expert) })}
      </Typography>
      {review.assessment && (
        <Box component="section" aria-labelledby={id('assessment')}>
          <Typography id={id('assessment')} variant="h4" component="h4" sx={{ mb: 0.5, fontSize: 17 }}>
            {t('advice.assessment')}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{review.assessment}</Typography>
        </Box>
      )}
      <Box component="section" aria-labelledby={id('advice')}>
        <Typography id={id('advice')} variant="h4" component="h4" sx={{ mb: 0.5, fontSize: 17 }}>
          {t('advice.advice')}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{review.advice || t('result.noAdvice')}</Typography>
      </Box>
      {review.voice && (
        <Box component="section" aria-labelledby={id('voice')}>
          <Typography id={id('voice')} variant="h4" component="h4" sx={{ mb: 0.5, fontSize: 17 }}>
            {t('voice.title')}
          </Typography>
          <audio
            controls
            src={review.voice.url}
            preload="metadata"
            data-testid="result-voice"
            aria-labelledby={`${id('voice')} ${id('title')}`}
            style={{ width: '100%', maxWidth: 480 }}
          >
            <track kind="captions" />
          </audio>
        </Box>
      )}
    </Paper>
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
  const palette = useChartPalette();
  const comments = signedComments(result);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="result-comments-title"
      sx={{ p: 2.5, borderRadius: 2, display: 'grid', gap: 1 }}
    >
      <Typography id="result-comments-title" variant="h3" component="h3">
        {t('comments.title', { count: comments.length })}
      </Typography>
      {comments.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{t('comments.none')}</Typography>}
      {comments.some((c) => c.drawing) && <PauseOnDrawingsSwitch />}
      <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {comments.map((comment) => (
          <Box
            component="li"
            key={comment.id}
            data-testid="result-comment"
            data-expert={comment.expert ?? undefined}
            sx={{
              display: 'flex',
              gap: 1,
              borderLeft: `4px solid ${comment.expert === null ? '#FFB300' : palette.series[(comment.reviewIndex + 1) % palette.series.length]}`,
              pl: 1.5,
            }}
          >
            <Box sx={{ flex: 1, minWidth: 0 }}>
              {comment.expert !== null && (
                <Typography variant="body2" sx={{ fontWeight: 700, color: 'text.secondary' }} data-testid="result-comment-expert">
                  {t('reviews.byExpert', { name: comment.expert })}
                </Typography>
              )}
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
