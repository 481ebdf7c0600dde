import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useController, useForm, useWatch, type Control } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import MovieOutlined from '@mui/icons-material/MovieOutlined';
import PhotoLibraryOutlined from '@mui/icons-material/PhotoLibraryOutlined';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import { CASE_TEXT_MAX, VIDEO_KINDS, type VideoKind } from '@sutura/domain/videos';
import { ApiRequestError, errorText } from '@/lib/http';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { preloadUploadClient, UploadRefusedError, useMaxUploadBytes } from '@/lib/upload-manager';
import { useUploads } from '@/lib/uploads';
import { applyApiFieldErrors, TextFieldControl } from '@/components/form-field';
import { addVideoResolver, emptyValues, toBody, type AddVideoFormValues } from '@/features/videos/add/add-video-values';
import { PatientFields, SurgeryFields } from '@/features/videos/add/case-fields';
import { PicturesInput, VideoFileInput } from '@/features/videos/add/file-inputs';
import { NasaTlxFields } from '@/features/videos/add/nasa-tlx-fields';
import { removePicture, useCreateVideo, useUpdateVideo, useUploadPicture } from '@/features/videos/add/api/create-video';

type Phase = 'idle' | 'saving' | 'pictures' | 'starting';

/** A case saved by an earlier try, and the pictures it already has (file → media id). */
interface SavedCase {
  id: string;
  kind: VideoKind;
  pictures: Map<File, string>;
}

function Section({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}>
      <Typography id={`${id}-title`} variant="h3" component="h2">
        {title}
      </Typography>
      {intro && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

function KindChoice({ control, locked }: { control: Control<AddVideoFormValues>; locked: boolean }) {
  const { t } = useTranslation('upload');
  const { field } = useController({ control, name: 'kind' });
  const icons = { video: <MovieOutlined aria-hidden />, pictures: <PhotoLibraryOutlined aria-hidden /> } as const;
  return (
    <Box>
      <Typography id="kind-label" sx={{ fontWeight: 700, mb: 1 }}>
        {t('kind.label')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        fullWidth
        color="primary"
        value={field.value}
        onChange={(_event, value: VideoKind | null) => {
          if (value) field.onChange(value);
        }}
        disabled={locked}
        aria-labelledby="kind-label"
        data-testid="kind-choice"
      >
        {VIDEO_KINDS.map((kind) => (
          <ToggleButton
            key={kind}
            value={kind}
            data-testid={`kind-${kind}`}
            sx={{
              gap: 1,
              textTransform: 'none',
              fontWeight: 700,
              // The primary tint alone is too pale for text: the chosen kind is filled.
              '&.Mui-selected, &.Mui-selected:hover': { bgcolor: 'primary.main', color: 'primary.contrastText' },
            }}
          >
            {icons[kind]}
            {t(`kind.${kind}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t(locked ? 'kind.locked' : field.value === 'video' ? 'kind.videoHelp' : 'kind.picturesHelp')}
      </Typography>
    </Box>
  );
}

function AddVideoForm() {
  const { t } = useTranslation('upload');
  const navigate = useNavigate();
  const toast = useToast();
  const maxBytes = useMaxUploadBytes();
  const { startVideoUpload } = useUploads();
  const createVideo = useCreateVideo();
  const updateVideo = useUpdateVideo();
  const uploadPicture = useUploadPicture();
  const [phase, setPhase] = useState<Phase>('idle');
  const [picturesProgress, setPicturesProgress] = useState({ done: 0, total: 0 });
  const [saved, setSaved] = useState<SavedCase | null>(null);
  const resolver = useMemo(() => addVideoResolver(maxBytes), [maxBytes]);
  const defaultValues = useMemo(() => emptyValues(), []);
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    trigger,
    formState: { errors, isSubmitted },
  } = useForm<AddVideoFormValues>({ resolver, defaultValues });
  const kind = useWatch({ control, name: 'kind' });
  const surgeryId = useWatch({ control, name: 'surgeryId' });
  const busy = phase !== 'idle';
  const hasErrors = Object.keys(errors).length > 0;

  /** Saves the case once; a later try after a failed picture saves the same case again. */
  const saveCase = async (values: AddVideoFormValues): Promise<SavedCase> => {
    const body = toBody(values);
    if (saved) {
      const { kind: _kind, ...fields } = body;
      await updateVideo.mutateAsync({ id: saved.id, body: fields });
      return saved;
    }
    const video = await createVideo.mutateAsync(body);
    const created: SavedCase = { id: video.id, kind: video.kind, pictures: new Map() };
    setSaved(created);
    return created;
  };

  /** Pictures not sent yet; those removed since an earlier try are taken off the case. */
  const sendPictures = async (current: SavedCase, pictures: File[]) => {
    for (const [file, mediaId] of current.pictures) {
      if (pictures.includes(file)) continue;
      await removePicture(current.id, mediaId);
      current.pictures.delete(file);
    }
    const pending = pictures.filter((file) => !current.pictures.has(file));
    setPicturesProgress({ done: 0, total: pending.length });
    for (const [done, file] of pending.entries()) {
      const media = await uploadPicture.mutateAsync({ videoId: current.id, file, index: pictures.indexOf(file) });
      current.pictures.set(file, media.id);
      setPicturesProgress({ done: done + 1, total: pending.length });
    }
  };

  // The form is long: the list opens at its top, where the shell shows the upload's progress.
  const showList = () => {
    void Promise.resolve(navigate('/videos')).then(() => window.scrollTo({ top: 0 }));
  };

  const onSubmit = handleSubmit(async (values) => {
    let current: SavedCase;
    try {
      setPhase('saving');
      current = await saveCase(values);
    } catch (error) {
      setPhase('idle');
      if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
      toast('error', errorText(error));
      return;
    }
    try {
      if (values.pictures.length > 0 || current.pictures.size > 0) {
        setPhase('pictures');
        await sendPictures(current, values.pictures);
      }
    } catch (error) {
      setPhase('idle');
      const detail = errorText(error);
      setError('pictures', { type: 'server', message: t('submit.picturesFailed', { message: detail }) });
      toast('error', t('submit.picturesFailed', { message: detail }));
      return;
    }
    if (current.kind === 'pictures' || !values.videoFile) {
      setPhase('idle');
      toast('success', t('submit.picturesSaved'));
      showList();
      return;
    }
    try {
      setPhase('starting');
      await startVideoUpload(current.id, values.videoFile);
    } catch (error) {
      setPhase('idle');
      const message = error instanceof UploadRefusedError ? error.message : errorText(error);
      setError('videoFile', { type: 'server', message });
      return;
    }
    setPhase('idle');
    toast('info', t('submit.uploadStarted'));
    showList();
  });

  const submitLabel = {
    idle: t('submit.button'),
    saving: t('submit.saving'),
    pictures: t('submit.sendingPictures', { done: picturesProgress.done, total: picturesProgress.total }),
    starting: t('submit.starting'),
  }[phase];

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        // Sent once: a second Enter while it is being sent does nothing.
        if (busy) e.preventDefault();
        else void onSubmit(e);
      }}
      aria-label={t('formLabel')}
      aria-busy={busy}
      data-testid="add-video-form"
    >
      <Alert severity="warning" role="note" icon={<PrivacyTipOutlined />} data-testid="patient-privacy-notice">
        <AlertTitle>{t('privacy.title')}</AlertTitle>
        {t('privacy.body')}
      </Alert>

      {isSubmitted && hasErrors && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }} data-testid="add-video-errors">
          {t('submit.fixErrors', { count: Object.keys(errors).length })}
        </Alert>
      )}

      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}>
        <KindChoice control={control} locked={saved !== null} />
      </Paper>

      <Section id="surgery" title={t('sections.surgery')}>
        <SurgeryFields control={control} setValue={setValue} surgeryId={surgeryId} vocabulary="pick" />
      </Section>

      <Section id="patient" title={t('sections.patient')} intro={t('sections.patientIntro')}>
        <PatientFields control={control} />
      </Section>

      <Section id="tlx" title={t('sections.tlx')} intro={t('sections.tlxIntro')}>
        <NasaTlxFields control={control} />
      </Section>

      <Section id="pictures" title={t(kind === 'pictures' ? 'sections.pictures' : 'sections.dockingPictures')}>
        <Box sx={{ mt: 2 }}>
          <PicturesInput control={control} required={kind === 'pictures'} />
        </Box>
      </Section>

      {kind === 'video' && (
        <Section id="video-file" title={t('sections.videoFile')}>
          <Box sx={{ mt: 2 }}>
            <VideoFileInput control={control} maxBytes={maxBytes} onChosen={() => void trigger('videoFile')} />
          </Box>
        </Section>
      )}

      <Section id="proctor" title={t('sections.proctor')}>
        <TextFieldControl
          control={control}
          name="messageToProctor"
          label={t('fields.messageToProctor')}
          required
          multiline
          minRows={4}
          helperText={t('fields.messageToProctorHelp')}
          maxChars={CASE_TEXT_MAX.messageToProctor}
          slotProps={{ htmlInput: { 'data-testid': 'message-to-proctor' } as object }}
        />
      </Section>

      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: { xs: 'stretch', sm: 'flex-end' }, gap: 1, mt: 2 }}>
        <Button
          type="submit"
          variant="contained"
          size="large"
          // Not disabled while sending: a disabled button would drop the keyboard's focus to the page's body.
          aria-disabled={busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : <CloudUploadOutlined aria-hidden />}
          data-testid="submit-video"
        >
          {submitLabel}
        </Button>
        <Typography variant="body2" color="text.secondary" role="status" sx={{ textAlign: { xs: 'left', sm: 'right' } }}>
          {busy ? submitLabel : t(kind === 'video' ? 'submit.videoHelp' : 'submit.picturesHelp')}
        </Typography>
      </Box>
    </Box>
  );
}

/** `/videos/add`: a learner describes a case and sends its video, or its pictures only. */
export function AddVideoPage() {
  useEffect(preloadUploadClient, []);
  const { t } = useTranslation('upload');
  const { session } = useSession();
  const learner = session?.roles.includes('learner') ?? false;
  return (
    <Box sx={{ maxWidth: 880, width: '100%', mx: 'auto', pb: 3 }}>
      {learner ? (
        <AddVideoForm />
      ) : (
        <Alert severity="info" data-testid="add-video-not-learner">
          {t('notLearner')}
        </Alert>
      )}
    </Box>
  );
}
