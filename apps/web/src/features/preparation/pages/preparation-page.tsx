import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { leaseHoursLeft } from '@sutura/domain/claims';
import { MIN_STEPS } from '@sutura/domain/preparation';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import {
  useApplyDraft,
  usePreparation,
  useReleaseVideo,
  useSetPhase,
  useSubmitPreparation,
  type PreparationDetail,
} from '@/features/preparation/api/preparation';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ClaimedWorkHeader, ClaimedWorkStatus, GiveBackDialog, LeaseLostAlert, isClaimGone } from '@/components/claimed-work';
import { PreparationWorkspace, type WorkspaceMessage } from '@/features/preparation/components/preparation-workspace';
import { useEditorRealtime } from '@/features/preparation/hooks/use-editor-realtime';
import { localDraftKey, usePreparationEditor } from '@/features/preparation/hooks/use-preparation-editor';
import { stepProblems } from '@/features/preparation/model/steps';

/** One phase of the preparation, mounted again when the phase changes so its history starts afresh. */
function PhaseEditor({
  detail,
  phaseChanged,
  onUrlsExpired,
}: {
  detail: PreparationDetail;
  /** Shown after a change of phase on this page (not on opening it): the keyboard goes to the phase's help. */
  phaseChanged: boolean;
  onUrlsExpired(): void;
}) {
  const { t } = useTranslation('editor');
  const navigate = useNavigate();
  const toast = useToast();
  const editor = usePreparationEditor(detail);
  const applyDraft = useApplyDraft();
  const setPhase = useSetPhase();
  const submit = useSubmitPreparation();
  const release = useReleaseVideo();
  const [message, setMessage] = useState<WorkspaceMessage>(null);
  const [dialog, setDialog] = useState<'back' | 'release' | null>(null);
  const hoursLeft = detail.leaseEndsAt ? leaseHoursLeft(detail.leaseEndsAt, new Date()) : 0;
  const busy = setPhase.isPending || submit.isPending;

  const fail = (error: unknown) => setMessage({ severity: 'error', text: errorText(error) });

  const changePhase = async (phase: 'trim' | 'steps') => {
    if (phase === 'steps' && editor.trims.length === 0) return setMessage({ severity: 'error', text: t('errors:TRIMS_REQUIRED') });
    // The phase changes on the server only once it holds what is on screen.
    if (!(await editor.save())) return setMessage({ severity: 'error', text: t('save.notSaved') });
    setPhase.mutate(
      { id: detail.id, fencingToken: editor.fencingToken(), phase },
      {
        onSuccess: (draft) => {
          setDialog(null);
          applyDraft(draft);
        },
        onError: (error) => {
          setDialog(null);
          fail(error);
        },
      },
    );
  };

  const send = async () => {
    const problems = stepProblems(editor.steps, { minSteps: MIN_STEPS });
    if (problems.length) {
      return setMessage({ severity: 'error', text: problems.map((code) => t(`errors:${code}`)).join(' ') });
    }
    if (!(await editor.save())) return setMessage({ severity: 'error', text: t('save.notSaved') });
    submit.mutate(
      { id: detail.id, fencingToken: editor.fencingToken() },
      { onSuccess: () => void navigate(`/editor/${encodeURIComponent(detail.id)}/complete`), onError: fail },
    );
  };

  const giveBack = () => {
    if (release.isPending) return;
    // The draft goes with the hold: a change still waiting would reach the server after it (409).
    editor.discard();
    release.mutate(
      { id: detail.id, fencingToken: editor.fencingToken() },
      {
        onSuccess: () => {
          // The server dropped the draft: the copy kept on this device goes too.
          try {
            localStorage.removeItem(localDraftKey(detail.id));
          } catch {
            // Nothing kept, nothing to remove.
          }
          toast('success', t('release.done'));
          void navigate('/editor');
        },
        onError: (error) => {
          setDialog(null);
          fail(error);
        },
      },
    );
  };

  // The button that changed the phase is gone with it: the keyboard goes on to what the new phase asks.
  // Each phase has its own editor (keyed by the phase), so it is on its first showing that it takes the keyboard.
  const phaseHelp = useRef<HTMLElement>(null);
  useEffect(() => {
    if (phaseChanged) phaseHelp.current?.focus();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const actions =
    detail.phase === 'trim' ? (
      <Button
        variant="contained"
        color="secondary"
        endIcon={setPhase.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <ArrowForward aria-hidden />}
        onClick={() => void changePhase('steps')}
        disabled={busy || editor.saveStatus === 'lost'}
        data-testid="to-steps"
      >
        {t('phase.toSteps')}
      </Button>
    ) : (
      <>
        <Button
          variant="outlined"
          startIcon={<ArrowBack aria-hidden />}
          onClick={() => setDialog('back')}
          disabled={busy}
          data-testid="to-trim"
        >
          {t('phase.toTrim')}
        </Button>
        <Button
          variant="contained"
          startIcon={submit.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <SendOutlined aria-hidden />}
          onClick={() => void send()}
          disabled={busy || editor.saveStatus === 'lost'}
          data-testid="submit-preparation"
        >
          {t(detail.renderStatus === 'failed' ? 'submit.retry' : 'submit.button')}
        </Button>
      </>
    );

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <ClaimedWorkHeader
        title={detail.surgery?.name ?? t('pool.noSurgery')}
        titleTestId="preparation-title"
        organ={detail.organ?.name ?? null}
        priorityLabel={detail.priority ? t('pool.priority') : null}
        leaseLabel={t('held.hoursLeft', { count: hoursLeft })}
        saveStatus={editor.saveStatus}
      >
        <Button size="small" color="inherit" onClick={() => setDialog('release')} data-testid="release-video">
          {t('release.button')}
        </Button>
      </ClaimedWorkHeader>
      <Stepper activeStep={detail.phase === 'trim' ? 0 : 1} sx={{ maxWidth: 480 }}>
        <Step completed={detail.phase === 'steps'}>
          <StepLabel>{t('phase.trim')}</StepLabel>
        </Step>
        <Step>
          <StepLabel>{t('phase.steps')}</StepLabel>
        </Step>
      </Stepper>
      {/*
        On a phone the help and the key steps come after the workspace: the video and the timeline
        are in the window together on opening, above the actions held at the bottom.
      */}
      <Typography
        ref={phaseHelp}
        tabIndex={-1}
        variant="body2"
        sx={{ color: 'text.secondary', order: { xs: 1, md: 0 } }}
        data-testid="phase-help"
      >
        {t(detail.phase === 'trim' ? 'phase.trimHelp' : 'phase.stepsHelp')}
      </Typography>
      {detail.keySteps.length > 0 && (
        <Typography variant="body2" sx={{ order: { xs: 1, md: 0 } }} data-testid="key-steps">
          <Box component="span" sx={{ fontWeight: 700 }}>
            {t('keySteps')}
          </Box>{' '}
          {detail.keySteps.map((s) => s.name).join(' · ')}
        </Typography>
      )}
      {detail.renderStatus === 'failed' && (
        <Alert severity="error" data-testid="render-failed">
          {t(`errors:${detail.renderError ?? 'RENDER_FAILED'}`, { defaultValue: t('errors:RENDER_FAILED') })}
        </Alert>
      )}
      {editor.saveError && editor.saveStatus !== 'lost' && editor.saveStatus !== 'saved' && (
        // The server refused this draft (a rule this page did not foresee): it says why, the next change is sent again.
        <Alert severity="error" data-testid="save-refused">
          {errorText(editor.saveError)}
        </Alert>
      )}
      {editor.saveStatus === 'lost' && <LeaseLostAlert error={editor.saveError} namespace="editor" backTo="/editor" />}
      <PreparationWorkspace
        detail={detail}
        editor={editor}
        message={message}
        onMessage={setMessage}
        actions={actions}
        onUrlsExpired={onUrlsExpired}
      />
      <ConfirmDialog
        open={dialog === 'back'}
        title={t('phase.backTitle')}
        text={t('phase.backWarning', { count: editor.steps.length })}
        confirm={t('phase.backConfirm')}
        cancel={t('cancel')}
        pending={setPhase.isPending}
        danger
        testId="back-to-trim"
        onConfirm={() => void changePhase('trim')}
        onClose={() => setDialog(null)}
      />
      <GiveBackDialog
        open={dialog === 'release'}
        namespace="editor"
        keys="release"
        pending={release.isPending}
        testId="release"
        onConfirm={giveBack}
        onClose={() => setDialog(null)}
      />
    </Box>
  );
}

/** `/editor/:id`: the preparation of a video the editor holds (trim, then steps, then submit). */
export function PreparationPage() {
  const { id = '' } = useParams();
  const query = usePreparation(id);
  useEditorRealtime();
  // Whether the phase shown changed while the page was open (the last phase seen, kept across renders).
  const phase = query.data?.phase ?? null;
  const [seen, setSeen] = useState<{ phase: typeof phase; changed: boolean }>({ phase, changed: false });
  if (phase !== null && phase !== seen.phase) setSeen({ phase, changed: seen.phase !== null });

  const detail = query.data;
  // Not this editor's video any more, failed, or loading.
  if (!detail || isClaimGone(query.error)) return <ClaimedWorkStatus query={query} namespace="editor" backTo="/editor" panels={1} />;
  // Submitted (rendering or done): the confirmation page follows it.
  if (detail.status !== 'in_preparation' || detail.renderStatus === 'rendering') {
    return <Navigate to={`/editor/${encodeURIComponent(detail.id)}/complete`} replace />;
  }
  return <PhaseEditor key={detail.phase} detail={detail} phaseChanged={seen.changed} onUrlsExpired={() => void query.refetch()} />;
}
