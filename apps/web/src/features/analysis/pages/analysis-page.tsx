import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import {
  ANALYSIS_LIMITS,
  KPI_DEFINITIONS,
  KPIS,
  formatTimecode,
  unratedPaths,
  type ExpertWorkspace,
  type Kpi,
  type RatingLevel,
} from '@sutura/domain/analysis';
import { LAYOUT } from '@sutura/domain/limits';
import type { VideoDetail } from '@sutura/domain/videos';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useToast } from '@/lib/toast';
import { saveAnalysis, useAbandonAnalysis, useFinalizeAnalysis, useWorkspace } from '@/features/analysis/api/analysis';
import { CommentPanel } from '@/features/analysis/components/comment-panel';
import { useFrameDrawing } from '@/features/analysis/components/frame-drawing';
import { RatingScale } from '@/components/case/rating-scale';
import { VoiceRecorder } from '@/features/analysis/components/voice-recorder';
import { ClaimedWorkHeader, ClaimedWorkStatus, GiveBackDialog, LeaseLostAlert, isClaimGone } from '@/components/claimed-work';
import { readLocalDraft, useAutosave } from '@/lib/use-autosave';
import { CaseData } from '@/components/case/case-data';
import { NasaTlxChart } from '@/components/case/nasa-tlx-chart';
import { PictureGallery } from '@/components/case/picture-gallery';
import { VideoPlayer } from '@/components/video/video-player';

const TABS = ['global', 'nasaTlx', 'kpi', 'steps', 'rateSteps', 'advice', 'pictures', 'finalize'] as const;
type AnalysisTab = (typeof TABS)[number];

/** What the expert types, saved as a whole by the autosave. */
interface AnalysisForm {
  stepRatings: Record<string, RatingLevel | null>;
  kpiRatings: Record<Kpi, RatingLevel | null>;
  globalRating: RatingLevel | null;
  assessment: string;
  advice: string;
}

function formOf(ws: ExpertWorkspace): AnalysisForm {
  const d = ws.draft;
  return {
    stepRatings: Object.fromEntries(ws.steps.map((s) => [s.id, d.stepRatings.find((r) => r.stepId === s.id)?.rating ?? null])),
    kpiRatings: Object.fromEntries(KPIS.map((k) => [k, d.kpiRatings[k] ?? null])) as Record<Kpi, RatingLevel | null>,
    globalRating: d.globalRating,
    assessment: d.assessment,
    advice: d.advice,
  };
}

const sameForm = (a: AnalysisForm, b: AnalysisForm) => JSON.stringify(a) === JSON.stringify(b);

/** Unsaved edits kept on this device, per claim: a new claim never picks up an old hold's edits. */
const localKey = (ws: ExpertWorkspace) => `sutura.analysis.${ws.id}.${ws.fencingToken ?? 'read'}`;

function AnalysisEditor({ ws, onUrlsExpired }: { ws: ExpertWorkspace; onUrlsExpired(): void }) {
  const { t } = useTranslation(['analysis', 'expert']);
  const lang = currentLanguage() === 'fr' ? 'fr' : 'en';
  const navigate = useNavigate();
  const toast = useToast();
  const readOnly = ws.fencingToken === null || ws.draft.status === 'submitted';
  const initial = useMemo(() => formOf(ws), [ws.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const [form, setForm] = useState<AnalysisForm>(() => (readOnly ? null : readLocalDraft<AnalysisForm>(localKey(ws))) ?? initial);
  const [tab, setTab] = useState<AnalysisTab>('global');
  const [current, setCurrent] = useState(0);
  const [seekRequest, setSeekRequest] = useState<{ time: number } | null>(null);
  const [dialog, setDialog] = useState<'abandon' | 'unrated' | null>(null);
  const [unrated, setUnrated] = useState<{ stepIds: string[]; kpis: Kpi[] }>({ stepIds: [], kpis: [] });
  const [message, setMessage] = useState<string | null>(null);
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const finalize = useFinalizeAnalysis(ws.id);
  const abandon = useAbandonAnalysis(ws.id);

  const autosave = useAutosave<AnalysisForm>({
    value: form,
    initial,
    same: sameForm,
    storageKey: localKey(ws),
    save: async (value) => {
      if (readOnly || ws.fencingToken === null) return;
      await saveAnalysis(ws.id, {
        fencingToken: ws.fencingToken,
        stepRatings: Object.entries(value.stepRatings).map(([stepId, rating]) => ({ stepId, rating })),
        kpiRatings: value.kpiRatings,
        globalRating: value.globalRating,
        assessment: value.assessment,
        advice: value.advice,
      });
    },
  });

  const seek = (time: number) => setSeekRequest({ time });
  const stepName = (id: string) => ws.steps.find((s) => s.id === id)?.name ?? id;

  const submit = async (confirmAnyway: boolean) => {
    if (ws.fencingToken === null) return;
    setMessage(null);
    // What is unrated is known here: asked before calling, so an expected state is no refused
    // request (the server still refuses it, with the same list, to another client).
    const missing = {
      stepIds: ws.steps.filter((s) => !form.stepRatings[s.id]).map((s) => s.id),
      kpis: KPIS.filter((k) => !form.kpiRatings[k]),
    };
    if (!confirmAnyway && (missing.stepIds.length || missing.kpis.length)) {
      setUnrated(missing);
      setDialog('unrated');
      return;
    }
    if (!(await autosave.flush())) return setMessage(t('save.notSaved'));
    finalize.mutate(
      { fencingToken: ws.fencingToken, confirmAnyway },
      {
        onSuccess: () => void navigate(`/expert/${encodeURIComponent(ws.id)}/complete`, { replace: true }),
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'ANALYSIS_UNRATED') {
            setUnrated(unratedPaths(error.details ?? []));
            setDialog('unrated');
          } else {
            setDialog(null);
            setMessage(errorText(error));
          }
        },
      },
    );
  };

  const giveBack = () => {
    if (ws.fencingToken === null || abandon.isPending) return;
    // The draft goes with the hold: a change still waiting would reach the server after it (409).
    autosave.discard();
    abandon.mutate(ws.fencingToken, {
      onSuccess: () => {
        try {
          localStorage.removeItem(localKey(ws));
        } catch {
          // Nothing kept, nothing to remove.
        }
        toast('success', t('abandon.done'));
        void navigate('/expert');
      },
      onError: (error) => {
        setDialog(null);
        setMessage(errorText(error));
      },
    });
  };

  const lost = autosave.status === 'lost';
  const editable = !readOnly && !lost;
  const drawing = useFrameDrawing({
    videoId: ws.id,
    comments: ws.draft.comments,
    fencingToken: editable ? ws.fencingToken : null,
    seek,
  });
  // On a phone, while a drawing is open, the player is not pinned: the frame, the tools and the
  // comment follow one another in the page, none slides under another; the frame comes to the top.
  const pinned = wide || !drawing.composing;
  const playerPane = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!wide && drawing.composing) playerPane.current?.scrollIntoView({ block: 'start' });
  }, [wide, drawing.composing]);
  const tabs = TABS.filter((tab) => {
    if (tab === 'nasaTlx') return ws.nasaTlx !== null;
    if (tab === 'pictures') return ws.pictures.length > 0;
    if (tab === 'finalize') return !readOnly;
    return true;
  });
  const shownTab = tabs.includes(tab) ? tab : 'global';
  const title = ws.surgery?.name ?? t('expert:card.noSurgery');
  const experience = ws.learner;
  const rated = Object.values(form.stepRatings).filter((r) => r !== null).length + KPIS.filter((k) => form.kpiRatings[k] !== null).length;
  const toRate = ws.steps.length + KPIS.length;

  const comments = (
    <Paper
      variant="outlined"
      sx={{ p: 2, borderRadius: 2, flex: { md: '1 1 auto' }, minHeight: { md: 160 }, overflowY: { md: 'auto' } }}
      data-testid="analysis-comments"
    >
      <CommentPanel
        videoId={ws.id}
        comments={ws.draft.comments}
        current={current}
        fencingToken={editable ? ws.fencingToken : null}
        readOnly={!editable}
        onSeek={seek}
        onEditDrawing={drawing.editDrawing}
      />
    </Paper>
  );

  return (
    <Box sx={{ maxWidth: 1400, mx: 'auto', width: '100%', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <ClaimedWorkHeader
        title={title}
        titleTestId="analysis-title"
        organ={ws.organ?.name ?? null}
        priorityLabel={ws.priority ? t('expert:card.priority') : null}
        leaseLabel={readOnly ? null : t('expert:card.hoursLeft', { count: ws.hoursLeft ?? 0 })}
        saveStatus={readOnly ? null : autosave.status}
      >
        {readOnly ? (
          <Chip variant="outlined" label={t('readOnly')} />
        ) : (
          <>
            <Button
              variant="outlined"
              startIcon={
                autosave.status === 'saving' ? <CircularProgress size={18} color="inherit" aria-hidden /> : <SaveOutlined aria-hidden />
              }
              onClick={() => {
                if (autosave.status !== 'saving') void autosave.flush();
              }}
              // Saving by itself while the keyboard is on it: still focusable (aria-disabled), the focus stays.
              disabled={!editable}
              aria-disabled={autosave.status === 'saving' || undefined}
              data-testid="analysis-save"
            >
              {t('save.button')}
            </Button>
            <Button color="inherit" onClick={() => setDialog('abandon')} disabled={lost} data-testid="analysis-abandon">
              {t('abandon.button')}
            </Button>
          </>
        )}
      </ClaimedWorkHeader>
      {lost && <LeaseLostAlert error={autosave.error} namespace="analysis" backTo="/expert" />}
      {autosave.error && !lost && autosave.status !== 'saved' && <Alert severity="error">{errorText(autosave.error)}</Alert>}
      {message && (
        <Alert severity="error" onClose={() => setMessage(null)}>
          {message}
        </Alert>
      )}

      {/*
        The player stays in view while the expert rates: beside the ratings from tablet width on
        (with the comments under it), above them on a phone. Its place in the tree is the same in
        both, so a rotation does not reload the video.
      */}
      <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, alignItems: { md: 'flex-start' }, gap: { xs: 2, md: 3 } }}>
        <Box
          ref={playerPane}
          data-testid="analysis-player-pane"
          data-pinned={pinned}
          sx={{
            position: pinned ? 'sticky' : 'static',
            top: { xs: 64, md: LAYOUT.headerHeight + 16 },
            scrollMarginTop: { xs: 72, md: LAYOUT.headerHeight + 16 },
            zIndex: 3,
            minWidth: 0,
            flex: { md: '0 0 55%' },
            maxHeight: { md: `calc(100dvh - ${LAYOUT.headerHeight + 32}px)` },
            display: 'flex',
            flexDirection: 'column',
            gap: 2,
            bgcolor: 'background.default',
            // On a phone the pinned video leaves most of the screen to the ratings.
            pb: { xs: 1, md: 0 },
            // Not in full screen, where the picture takes the whole screen.
            '& [data-testid="video-player"]:not(:fullscreen) video': { maxHeight: { xs: '30vh', md: '52vh' } },
            // The drawing tools under the player never squeeze it: the pane scrolls instead.
            '& > [data-testid="video-player"]': { flexShrink: 0 },
            overflowY: { md: 'auto' },
          }}
        >
          {ws.videoUrl && (
            <VideoPlayer
              videoUrl={ws.videoUrl}
              posterUrl={ws.posterUrl}
              storyboard={null}
              title={title}
              onUrlsExpired={onUrlsExpired}
              onTimeUpdate={setCurrent}
              // Drawing on a phone: no step buttons, which would leave the frame, and the tools closer to it.
              steps={pinned ? ws.steps.map((s) => ({ ...s, surgeryStepId: null })) : []}
              markers={ws.draft.comments.map((c) => ({ id: c.id, start: c.start, end: c.end, label: c.text }))}
              seekRequest={seekRequest}
              {...drawing.player}
            />
          )}
          {/* On a phone the tools scroll with the page: the pinned part stays the picture alone. */}
          {wide && drawing.panel}
          {wide && comments}
        </Box>
        {!wide && drawing.panel}
        <Box sx={{ minWidth: 0, flex: 1 }} data-testid="analysis-rating-pane">
          {/* Every part in view: the tabs wrap onto a second row rather than hiding behind an arrow. */}
          <Tabs
            value={shownTab}
            onChange={(_, next: AnalysisTab) => setTab(next)}
            aria-label={t('tabs.label')}
            data-testid="analysis-tabs"
            sx={{
              borderBottom: 1,
              borderColor: 'divider',
              mb: 3,
              '& .MuiTabs-list, & .MuiTabs-flexContainer': { flexWrap: 'wrap', columnGap: 0.5 },
              '& .MuiTabs-indicator': { display: 'none' },
              '& .MuiTab-root': {
                minWidth: 0,
                minHeight: 44,
                px: 1.5,
                borderBottom: 3,
                borderColor: 'transparent',
                '&.Mui-selected': { borderColor: 'primary.main' },
              },
            }}
          >
            {tabs.map((value) => (
              <Tab
                key={value}
                value={value}
                label={t(`tabs.${value}`)}
                id={`analysis-tab-${value}`}
                aria-controls={`analysis-panel-${value}`}
                data-testid={`analysis-tab-${value}`}
              />
            ))}
          </Tabs>
          <Box
            role="tabpanel"
            id={`analysis-panel-${shownTab}`}
            aria-labelledby={`analysis-tab-${shownTab}`}
            sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 3 }}
          >
            {shownTab === 'global' && (
              <>
                <CaseData
                  video={{ surgery: ws.surgery, organ: ws.organ, keySteps: ws.keySteps, fields: ws.fields as VideoDetail['fields'] }}
                />
                <Box component="section" aria-labelledby="learner-title" sx={{ display: 'grid', gap: 1 }}>
                  <Typography id="learner-title" variant="h3" component="h3">
                    {t('learner.title')}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {t('learner.blind')}
                  </Typography>
                  <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5 }}>
                    {(
                      [
                        ['specialty', experience.specialty],
                        ['years', experience.yearsOfExperience],
                        ['roboticYears', experience.yearsOfRoboticExperience],
                        ['robot', experience.robot],
                      ] as const
                    ).map(([key, value]) => (
                      <Box key={key} sx={{ display: 'contents' }}>
                        <Box component="dt" sx={{ color: 'text.secondary' }}>
                          {t(`learner.${key}`)}
                        </Box>
                        <Box component="dd" sx={{ m: 0, fontWeight: 700 }}>
                          {value ?? t('learner.notGiven')}
                        </Box>
                      </Box>
                    ))}
                  </Box>
                </Box>
              </>
            )}
            {shownTab === 'nasaTlx' && ws.nasaTlx && <NasaTlxChart tlx={ws.nasaTlx} />}
            {shownTab === 'kpi' &&
              KPIS.map((kpi) => {
                const def = KPI_DEFINITIONS[kpi];
                return (
                  <Box component="section" key={kpi} aria-labelledby={`kpi-${kpi}`} sx={{ display: 'grid', gap: 0.75 }}>
                    <Typography id={`kpi-${kpi}`} variant="h3" component="h3">
                      {def.name[lang]}
                    </Typography>
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {def.summary[lang]}
                    </Typography>
                    <RatingScale
                      label={def.name[lang]}
                      value={form.kpiRatings[kpi]}
                      onChange={(level) => setForm((f) => ({ ...f, kpiRatings: { ...f.kpiRatings, [kpi]: level } }))}
                      describe={(level) => def.levels[level][lang]}
                      disabled={!editable}
                      testId={`kpi-rating-${kpi}`}
                    />
                  </Box>
                );
              })}
            {shownTab === 'steps' && (
              <Box component="ol" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }} data-testid="analysis-steps">
                {ws.steps.map((step, index) => (
                  <Box component="li" key={step.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
                    <Button size="small" variant="outlined" onClick={() => seek(step.start)} sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatTimecode(step.start)}
                    </Button>
                    <Typography sx={{ flex: 1, minWidth: 160 }}>{t('steps.name', { number: index + 1, name: step.name })}</Typography>
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t('steps.length', { length: formatTimecode(step.end - step.start) })}
                    </Typography>
                  </Box>
                ))}
              </Box>
            )}
            {shownTab === 'rateSteps' &&
              ws.steps.map((step, index) => (
                <Box component="section" key={step.id} aria-labelledby={`step-${step.id}`} sx={{ display: 'grid', gap: 0.75 }}>
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography id={`step-${step.id}`} variant="h3" component="h3" sx={{ flex: 1 }}>
                      {t('steps.name', { number: index + 1, name: step.name })}
                    </Typography>
                    <Button size="small" onClick={() => seek(step.start)}>
                      {t('steps.watch', { time: formatTimecode(step.start) })}
                    </Button>
                  </Box>
                  <RatingScale
                    label={step.name}
                    value={form.stepRatings[step.id] ?? null}
                    onChange={(level) => setForm((f) => ({ ...f, stepRatings: { ...f.stepRatings, [step.id]: level } }))}
                    disabled={!editable}
                    testId={`step-rating-${index}`}
                  />
                </Box>
              ))}
            {shownTab === 'advice' && (
              <>
                <Box component="section" aria-labelledby="global-rating-title" sx={{ display: 'grid', gap: 0.75 }}>
                  <Typography id="global-rating-title" variant="h3" component="h3">
                    {t('advice.globalRating')}
                  </Typography>
                  <RatingScale
                    label={t('advice.globalRating')}
                    value={form.globalRating}
                    onChange={(level) => setForm((f) => ({ ...f, globalRating: level }))}
                    disabled={!editable}
                    testId="global-rating"
                  />
                </Box>
                <TextField
                  label={t('advice.assessment')}
                  value={form.assessment}
                  onChange={(e) => setForm((f) => ({ ...f, assessment: e.target.value }))}
                  multiline
                  minRows={3}
                  disabled={!editable}
                  helperText={`${form.assessment.length}/${ANALYSIS_LIMITS.assessmentMax}`}
                  slotProps={{ htmlInput: { maxLength: ANALYSIS_LIMITS.assessmentMax, 'data-testid': 'analysis-assessment' } }}
                />
                <TextField
                  label={t('advice.advice')}
                  value={form.advice}
                  onChange={(e) => setForm((f) => ({ ...f, advice: e.target.value }))}
                  multiline
                  minRows={4}
                  disabled={!editable}
                  helperText={`${form.advice.length}/${ANALYSIS_LIMITS.adviceMax}`}
                  slotProps={{ htmlInput: { maxLength: ANALYSIS_LIMITS.adviceMax, 'data-testid': 'analysis-advice' } }}
                />
                <Box component="section" aria-labelledby="voice-title" sx={{ display: 'grid', gap: 1 }}>
                  <Typography id="voice-title" variant="h3" component="h3">
                    {t('voice.title')}
                  </Typography>
                  <VoiceRecorder videoId={ws.id} voice={ws.draft.voice} fencingToken={ws.fencingToken} readOnly={!editable} />
                </Box>
              </>
            )}
            {shownTab === 'pictures' && <PictureGallery pictures={ws.pictures} />}
            {shownTab === 'finalize' && (
              <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 2, display: 'grid', gap: 2, justifyItems: 'start' }}>
                <Typography>{t('finalize.summary', { rated, total: toRate, comments: ws.draft.comments.length })}</Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {t('finalize.help')}
                </Typography>
                <Button
                  variant="contained"
                  startIcon={finalize.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <SendOutlined aria-hidden />}
                  onClick={() => void submit(false)}
                  disabled={!editable || finalize.isPending}
                  data-testid="analysis-finalize"
                >
                  {t('finalize.button')}
                </Button>
              </Paper>
            )}
          </Box>
        </Box>
        {!wide && comments}
      </Box>

      <GiveBackDialog
        open={dialog === 'abandon'}
        namespace="analysis"
        keys="abandon"
        pending={abandon.isPending}
        danger
        testId="abandon"
        onConfirm={giveBack}
        onClose={() => setDialog(null)}
      />
      <Dialog
        open={dialog === 'unrated'}
        onClose={() => !finalize.isPending && setDialog(null)}
        maxWidth="sm"
        fullWidth
        aria-labelledby="unrated-title"
        data-testid="unrated-dialog"
      >
        <DialogTitle id="unrated-title">{t('finalize.unratedTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 1 }}>
          <Typography>{t('finalize.unratedText')}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }} data-testid="unrated-list">
            {unrated.stepIds.map((id) => (
              <li key={id}>{t('finalize.unratedStep', { name: stepName(id) })}</li>
            ))}
            {unrated.kpis.map((kpi) => (
              <li key={kpi}>{t('finalize.unratedKpi', { name: KPI_DEFINITIONS[kpi].name[lang] })}</li>
            ))}
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={() => setDialog(null)} disabled={finalize.isPending}>
            {t('finalize.keepRating')}
          </Button>
          <Button
            variant="contained"
            onClick={() => void submit(true)}
            disabled={finalize.isPending}
            startIcon={finalize.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
            data-testid="confirm-anyway"
          >
            {t('finalize.confirmAnyway')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/** `/expert/:id`: the analysis of a held video (or, read-only, one this expert submitted). */
export function AnalysisPage() {
  const { id = '' } = useParams();
  const query = useWorkspace(id);

  const ws = query.data;
  // Not this expert's video any more, failed, or loading.
  if (!ws || isClaimGone(query.error)) return <ClaimedWorkStatus query={query} namespace="analysis" backTo="/expert" />;
  if (ws.draft.status === 'submitted' && ws.fencingToken !== null)
    return <Navigate to={`/expert/${encodeURIComponent(id)}/complete`} replace />;
  return <AnalysisEditor key={`${ws.id}-${ws.fencingToken}`} ws={ws} onUrlsExpired={() => void query.refetch()} />;
}
