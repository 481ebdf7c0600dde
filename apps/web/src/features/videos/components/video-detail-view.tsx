import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import CompareOutlined from '@mui/icons-material/CompareOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import SendOutlined from '@mui/icons-material/SendOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import EmojiEventsOutlined from '@mui/icons-material/EmojiEventsOutlined';
import { mayAdminWrite } from '@sutura/domain/roles';
import type { VideoDetail } from '@sutura/domain/videos';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useAnalysisResult } from '@/features/videos/api/analysis-result';
import { useSelfAssessment } from '@/features/videos/api/self-assessment';
import { SelfAssessmentInvitation } from '@/features/videos/components/self-assessment/self-assessment-invitation';
import { SelfVsExpert } from '@/features/videos/components/self-assessment/self-vs-expert';
import {
  AnalysisAdviceTab,
  AnalysisComments,
  AnalysisError,
  AnalysisKpiTab,
  AnalysisStepsTab,
  AnalysisSummary,
} from '@/features/videos/components/analysis/analysis-tabs';
import { signedComments } from '@/features/videos/components/analysis/reviews';
import { BestCaseRequestPanel } from '@/features/videos/components/best-case-request';
import { OperationDayEditor } from '@/features/videos/components/operation-day-editor';
import { CaseData } from '@/components/case/case-data';
import { FavouriteToggle } from '@/features/videos/components/favourite-toggle';
import { NasaTlxChart } from '@/components/case/nasa-tlx-chart';
import { OrganLabel } from '@/components/video/organ-label';
import { PictureGallery } from '@/components/case/picture-gallery';
import { SecondReviewAction } from '@/features/videos/components/second-review-action';
import { SharesList } from '@/features/videos/components/share-video-section';
import { VideoMediaPanel } from '@/features/videos/components/video-media-panel';
import { VideoStatusChip } from '@/components/case/video-status-chip';
import { useResultDrawings } from '@/features/videos/components/analysis/result-drawings';
import { formatDateTime, formatDuration } from '@/components/video/format';

type DetailTab = 'global' | 'nasaTlx' | 'kpi' | 'steps' | 'advice' | 'pictures';
const RESULT_TABS: readonly DetailTab[] = ['kpi', 'steps', 'advice'];
type OpenDialog = 'edit' | 'send' | 'share' | 'delete' | null;

/**
 * The dialogs of the author's actions come with their forms (the case's fields and date pickers,
 * the form library, the schemas): their code loads when a person points at or focuses the button
 * that opens one, or presses it, not with the page, whose first draw would wait for it.
 */
const DIALOGS = {
  edit: () => import('@/features/videos/components/edit-video-dialog'),
  send: () => import('@/features/videos/components/send-video-dialog'),
  share: () => import('@/features/videos/components/share-video-dialog'),
  delete: () => import('@/features/videos/components/delete-video-dialog'),
};
const EditVideoDialog = lazy(async () => ({ default: (await DIALOGS.edit()).EditVideoDialog }));
const SendVideoDialog = lazy(async () => ({ default: (await DIALOGS.send()).SendVideoDialog }));
const ShareVideoDialog = lazy(async () => ({ default: (await DIALOGS.share()).ShareVideoDialog }));
const DeleteVideoDialog = lazy(async () => ({ default: (await DIALOGS.delete()).DeleteVideoDialog }));

/** What the button that opens a dialog carries: its code asked for at the first sign of intent. */
const opening = (name: Exclude<OpenDialog, null>) => {
  const load = () => void DIALOGS[name]().catch((error: unknown) => console.error(error));
  return { onPointerEnter: load, onFocus: load };
};

/**
 * A case's page, for its author (with the actions its state allows), an administrator (who may
 * delete it), or a colleague it is shared with (`readOnly`: no action at all). The tabs of
 * SPEC §2 appear only when they have something to show.
 */
export function VideoDetailView({ video, readOnly, onUrlsExpired }: { video: VideoDetail; readOnly: boolean; onUrlsExpired(): void }) {
  const { t } = useTranslation(['videos', 'analysis']);
  const lang = currentLanguage();
  // The pictures are what a pictures-only case shows first.
  const [tab, setTab] = useState<DetailTab>(video.kind === 'pictures' ? 'pictures' : 'global');
  const [dialog, setDialog] = useState<OpenDialog>(null);
  // A dialog stays mounted from its first opening on, so that it closes with its animation.
  const [opened, setOpened] = useState<ReadonlySet<OpenDialog>>(() => new Set());
  const openDialog = (name: Exclude<OpenDialog, null>) => {
    setOpened((current) => (current.has(name) ? current : new Set(current).add(name)));
    setDialog(name);
  };
  const author = !readOnly && video.access === 'author';
  const canDelete = !readOnly && (video.access === 'author' || video.access === 'admin');
  const { session } = useSession();
  // An administrator may offer an analysed case as a best case (its author is then asked).
  const canOfferBestCase = !readOnly && video.access === 'admin' && video.status === 'analysed' && mayAdminWrite(session?.roles ?? []);
  const saved = video.status === 'saved';
  // Once sent, the send button goes with the case's new status (and its dialog with it): the
  // keyboard is given to the page's title rather than left on nothing.
  const wasSaved = useRef(saved);
  useEffect(() => {
    const active = document.activeElement;
    if (wasSaved.current && !saved && (!active || active === document.body)) document.getElementById('page-title')?.focus();
    wasSaved.current = saved;
  }, [saved]);
  const hasMedia = video.kind === 'video';
  const authorName = `${video.author.firstName} ${video.author.lastName}`.trim();
  // The expert's result, for the author and administrators once every required review is
  // submitted; kept while a further review is under way (docs/double-review.md).
  const analysed = (video.status === 'analysed' || video.resultShown) && !readOnly;
  // The author's self-assessment is asked first: an open invitation comes before the result,
  // whose reading locks it (docs/self-assessment.md).
  const selfAssessment = useSelfAssessment(video.id, video.status, author && analysed);
  const invited = author && analysed && (selfAssessment.isPending || selfAssessment.data?.invite === true);
  const result = useAnalysisResult(video.id, analysed && !invited);
  // A result already served (asked with the case) means no invitation is open: drawn at once.
  const inviting = invited && !result.data;
  const resultRead = result.isSuccess;
  const refetchSelfAssessment = selfAssessment.refetch;
  const seenRecorded = selfAssessment.data?.resultSeenAt != null;
  useEffect(() => {
    // The result has just been served: the comparison is now there to read.
    if (author && resultRead && !seenRecorded) void refetchSelfAssessment();
  }, [author, resultRead, seenRecorded, refetchSelfAssessment]);
  const [searchParams] = useSearchParams();
  const startAt = useMemo(() => {
    const t0 = Number(searchParams.get('t'));
    return Number.isFinite(t0) && t0 > 0 ? t0 : undefined;
  }, [searchParams]);
  const [seekRequest, setSeekRequest] = useState<{ time: number } | null>(null);
  const seek = (time: number) => setSeekRequest({ time });
  const comments = useMemo(
    () =>
      result.data
        ? signedComments(result.data).map((c) => ({
            ...c,
            text: c.expert ? t('analysis:reviews.commentBy', { name: c.expert, text: c.text }) : c.text,
          }))
        : undefined,
    [result.data, t],
  );
  const markers = comments?.map((c) => ({ id: c.id, start: c.start, end: c.end, label: c.text })) ?? [];
  const drawings = useResultDrawings(comments);

  const tabs: DetailTab[] = ['global'];
  if (video.fields.nasaTlx) tabs.push('nasaTlx');
  if (result.data) tabs.push('kpi', 'steps', 'advice');
  if (video.pictures.length > 0) tabs.push('pictures');
  const shownTab = tabs.includes(tab) ? tab : 'global';

  const facts: { label: string; value: string }[] = [
    ...(video.access !== 'author' && authorName ? [{ label: t('detail.author'), value: authorName }] : []),
    { label: t('detail.addedOn'), value: formatDateTime(video.createdAt, lang) },
    ...(video.sentAt ? [{ label: t('detail.sentOn'), value: formatDateTime(video.sentAt, lang) }] : []),
    ...(video.duration !== null ? [{ label: t('detail.duration'), value: formatDuration(video.duration) }] : []),
    ...(video.pictures.length ? [{ label: t('detail.pictures'), value: String(video.pictures.length) }] : []),
  ];

  return (
    <Box
      sx={{
        maxWidth: 1400,
        mx: 'auto',
        width: '100%',
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 340px' },
        gridTemplateAreas: hasMedia
          ? { xs: '"media" "header" "aside" "tabs"', lg: '"media aside" "header aside" "tabs aside"' }
          : { xs: '"header" "aside" "tabs"', lg: '"header aside" "tabs aside"' },
        alignItems: 'start',
      }}
    >
      {hasMedia && (
        <Box sx={{ gridArea: 'media', minWidth: 0 }}>
          <VideoMediaPanel
            video={video}
            canAct={author}
            onUrlsExpired={onUrlsExpired}
            player={{ markers, seekRequest, startAt, ...drawings }}
          />
        </Box>
      )}

      <Box component="header" sx={{ gridArea: 'header', display: 'grid', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h2" component="h2" data-testid="video-title">
              {video.surgery?.name ?? t('card.noSurgery')}
            </Typography>
            {video.organ && (
              <Typography sx={{ color: 'text.secondary' }}>
                <OrganLabel organ={video.organ} />
              </Typography>
            )}
          </Box>
          {author && <FavouriteToggle videoId={video.id} favourite={video.favourite} />}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <VideoStatusChip video={video} size="medium" />
          {video.priority && (
            <Chip color="quaternary" icon={<PriorityHigh aria-hidden />} label={t('card.priority')} sx={{ fontWeight: 700 }} />
          )}
          {video.kind === 'pictures' && <Chip variant="outlined" label={t('media.picturesOnly')} />}
        </Box>
        {video.status === 'analysed' && hasMedia && (
          <Box>
            <Button
              component={RouterLink}
              to={`/videos/${encodeURIComponent(video.id)}/compare`}
              variant="outlined"
              startIcon={<CompareOutlined aria-hidden />}
              data-testid="compare-with-best-case"
            >
              {t('menu:compare')}
            </Button>
          </Box>
        )}
        {readOnly && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="shared-read-only">
            {t('detail.readOnly', { name: authorName })}
          </Typography>
        )}
      </Box>

      <Box
        component="aside"
        aria-label={t('detail.about')}
        sx={{ gridArea: 'aside', display: 'grid', gap: 2, position: { lg: 'sticky' }, top: { lg: 96 } }}
      >
        <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }}>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.75 }}>
            {facts.map((fact) => (
              <Box key={fact.label} sx={{ display: 'contents' }}>
                <Box component="dt" sx={{ color: 'text.secondary' }}>
                  {fact.label}
                </Box>
                <Box component="dd" sx={{ m: 0, fontWeight: 700, textAlign: 'right' }}>
                  {fact.value}
                </Box>
              </Box>
            ))}
          </Box>
          {(author || canDelete || canOfferBestCase) && (
            <Box sx={{ display: 'grid', gap: 1, mt: 2 }} role="group" aria-label={t('detail.actions')}>
              {author && saved && (
                <>
                  <Button
                    variant="contained"
                    startIcon={<SendOutlined aria-hidden />}
                    onClick={() => openDialog('send')}
                    {...opening('send')}
                    disabled={video.mediaStatus !== 'ready'}
                    aria-describedby={video.mediaStatus !== 'ready' ? 'send-not-ready' : undefined}
                    data-testid="send-video"
                  >
                    {t('send.open')}
                  </Button>
                  {video.mediaStatus !== 'ready' && (
                    <Typography id="send-not-ready" variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('send.notReady')}
                    </Typography>
                  )}
                  <Button
                    variant="outlined"
                    startIcon={<EditOutlined aria-hidden />}
                    onClick={() => openDialog('edit')}
                    {...opening('edit')}
                    data-testid="edit-video"
                  >
                    {t('edit.open')}
                  </Button>
                </>
              )}
              {author && (
                <Button
                  variant="outlined"
                  startIcon={<ShareOutlined aria-hidden />}
                  onClick={() => openDialog('share')}
                  {...opening('share')}
                  data-testid="share-video"
                >
                  {t('share.open')}
                </Button>
              )}
              {canOfferBestCase && (
                <Button
                  component={RouterLink}
                  to={`/admin/best-cases/add?videoId=${encodeURIComponent(video.id)}`}
                  variant="outlined"
                  startIcon={<EmojiEventsOutlined aria-hidden />}
                  data-testid="offer-best-case"
                >
                  {t('detail.offerBestCase')}
                </Button>
              )}
              {canOfferBestCase && <SecondReviewAction video={video} reviews={result.data?.reviews.length} />}
              {canDelete && (
                <Button
                  variant="outlined"
                  color="error"
                  startIcon={<DeleteOutlined aria-hidden />}
                  onClick={() => openDialog('delete')}
                  {...opening('delete')}
                  data-testid="delete-video"
                  sx={(theme) => (theme.palette.mode === 'light' ? { color: '#C62828', borderColor: '#C62828' } : {})}
                >
                  {t('delete.open')}
                </Button>
              )}
            </Box>
          )}
        </Paper>
        {result.data && <AnalysisSummary result={result.data} />}
        {result.data && <AnalysisComments result={result.data} onSeek={seek} storyboard={video.storyboard} posterUrl={video.posterUrl} />}
        {analysed && result.isError && <AnalysisError error={result.error} onRetry={() => void result.refetch()} />}
        {author && analysed && video.status === 'analysed' && <BestCaseRequestPanel videoId={video.id} />}
        {author && (
          <Paper variant="outlined" component="section" aria-labelledby="shares-title" sx={{ p: 2.5, borderRadius: 2 }}>
            <Typography id="shares-title" variant="h3" component="h3" sx={{ mb: 1 }}>
              {t('share.listTitle')}
            </Typography>
            <SharesList video={video} />
          </Paper>
        )}
      </Box>

      <Box sx={{ gridArea: 'tabs', minWidth: 0 }}>
        {inviting && selfAssessment.data?.invite && (
          <Box sx={{ mb: 3 }}>
            <SelfAssessmentInvitation videoId={video.id} status={video.status} onDone={(rated) => rated && setTab('kpi')} />
          </Box>
        )}
        <Tabs
          value={shownTab}
          onChange={(_, next: DetailTab) => setTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label={t('detail.tabs.label')}
          sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
        >
          {tabs.map((value) => (
            <Tab
              key={value}
              value={value}
              label={RESULT_TABS.includes(value) ? t(`analysis:tabs.${value}`) : t(`detail.tabs.${value}`)}
              id={`detail-tab-${value}`}
              aria-controls={`detail-panel-${value}`}
              data-testid={`detail-tab-${value}`}
            />
          ))}
        </Tabs>
        <Box role="tabpanel" id={`detail-panel-${shownTab}`} aria-labelledby={`detail-tab-${shownTab}`}>
          {shownTab === 'global' && <CaseData video={video} />}
          {shownTab === 'global' && video.access === 'author' && video.status !== 'saved' && <OperationDayEditor video={video} />}
          {shownTab === 'nasaTlx' && video.fields.nasaTlx && <NasaTlxChart tlx={video.fields.nasaTlx} />}
          {shownTab === 'kpi' && result.data && selfAssessment.data?.comparison && (
            <Box sx={{ mb: 3 }}>
              <SelfVsExpert items={selfAssessment.data.comparison} experts={result.data.reviews.length} />
            </Box>
          )}
          {shownTab === 'kpi' && result.data && <AnalysisKpiTab result={result.data} />}
          {shownTab === 'steps' && result.data && <AnalysisStepsTab result={result.data} onSeek={seek} />}
          {shownTab === 'advice' && result.data && <AnalysisAdviceTab result={result.data} />}
          {shownTab === 'pictures' && <PictureGallery pictures={video.pictures} />}
        </Box>
      </Box>

      {/* Each in its own boundary: one whose code is loading hides no other. */}
      {author && saved && opened.has('edit') && (
        <Suspense fallback={null}>
          <EditVideoDialog video={video} open={dialog === 'edit'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {author && saved && opened.has('send') && (
        <Suspense fallback={null}>
          <SendVideoDialog videoId={video.id} open={dialog === 'send'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {author && opened.has('share') && (
        <Suspense fallback={null}>
          <ShareVideoDialog videoId={video.id} open={dialog === 'share'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {canDelete && opened.has('delete') && (
        <Suspense fallback={null}>
          <DeleteVideoDialog videoId={video.id} open={dialog === 'delete'} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </Box>
  );
}
