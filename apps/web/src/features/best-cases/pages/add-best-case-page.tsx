import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import SaveOutlined from '@mui/icons-material/SaveOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import type { AdminVideo } from '@sutura/domain/admin-catalog';
import { formatBytes } from '@sutura/domain/errors';
import { mayAdminWrite } from '@sutura/domain/roles';
import { applyApiFieldErrors } from '@/components/form-field';
import { PendingButton } from '@/components/pending-button';
import { formatDateTime } from '@/components/video/format';
import { ApiRequestError, errorText } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useToast } from '@/lib/toast';
import { preloadUploadClient, UploadRefusedError, useMaxUploadBytes } from '@/lib/upload-manager';
import { useUploads } from '@/lib/uploads';
import { checkVideoFile } from '@/lib/video-file-check';
import { useAnalysedVideos, useCreateBestCase } from '@/features/best-cases/api/best-cases';
import {
  BestCaseFields,
  bestCaseBodyOf,
  bestCaseResolver,
  emptyBestCaseValues,
  type BestCaseFormValues,
} from '@/features/best-cases/components/best-case-fields';

type Source = 'upload' | 'video';
const VIDEO_ACCEPT = 'video/*,.mkv,.ts,.mts,.m2ts,.avi,.mov';

/**
 * `/admin/best-cases/add`: a new best case from a surgery video the administrator uploads (the
 * same resumable upload and media pipeline as a learner's case), or from an analysed case (its
 * steps kept, its author asked for consent). Both languages are required.
 */
/** The selected source in the dark teal on a light page (the brand teal on pale teal is 2.0:1, WCAG 1.4.3). */
const sourceSx = {
  gap: 1,
  textTransform: 'none',
  fontWeight: 700,
  '&.Mui-selected': { color: (theme: Theme) => (theme.palette.mode === 'light' ? '#0A6E5A' : theme.palette.primary.main) },
} as const;

export function AddBestCasePage() {
  const { t } = useTranslation(['best-cases', 'errors']);
  const { session } = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const [search] = useSearchParams();
  const [source, setSource] = useState<Source>(search.get('videoId') ? 'video' : 'upload');
  const [videoId, setVideoId] = useState(search.get('videoId') ?? '');
  const [videoError, setVideoError] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const maxBytes = useMaxUploadBytes();
  const { startVideoUpload } = useUploads();
  const create = useCreateBestCase();
  // The picker searches every analysed case on the server, a moment after the typing stops.
  const [searchText, setSearchText] = useState('');
  const [videoSearch, setVideoSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setVideoSearch(searchText), 300);
    return () => clearTimeout(timer);
  }, [searchText]);
  const analysed = useAnalysedVideos(source === 'video', videoSearch);
  // The chosen case stays offered while another search runs.
  const [chosen, setChosen] = useState<AdminVideo | null>(null);
  const options = [...(chosen && !analysed.data?.data.some((v) => v.id === chosen.id) ? [chosen] : []), ...(analysed.data?.data ?? [])];
  const lang = currentLanguage();
  const resolver = useMemo(() => bestCaseResolver<BestCaseFormValues>(), []);
  const { control, handleSubmit, setError, setValue } = useForm<BestCaseFormValues>({ resolver, defaultValues: emptyBestCaseValues() });
  useEffect(preloadUploadClient, []);

  // An analysed case brings its surgery and organ (the administrator may change them).
  useEffect(() => {
    const video = analysed.data?.data.find((v) => v.id === videoId);
    if (!video) return;
    if (video.surgery) setValue('surgeryId', video.surgery.id);
    setValue('organId', video.organ?.id ?? '');
  }, [analysed.data, videoId, setValue]);

  if (!mayAdminWrite(session?.roles ?? [])) return <Alert severity="info">{t('admin.readOnly')}</Alert>;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setFileError(null);
    if (chosen.size > maxBytes) {
      setFileError(t('errors:PAYLOAD_TOO_LARGE') + ` (${formatBytes(maxBytes, lang)})`);
      return;
    }
    const refusal = await checkVideoFile(chosen);
    if (refusal) {
      setFileError(t(`errors:${refusal}`, { file: chosen.name, max: formatBytes(maxBytes, lang) }));
      return;
    }
    setFile(chosen);
  };

  const onSubmit = handleSubmit(async (values) => {
    if (busy) return;
    if (source === 'upload' && !file) {
      setFileError(t('form.fileRequired'));
      return;
    }
    if (source === 'video' && !videoId) {
      setVideoError(t('form.videoRequired'));
      return;
    }
    setBusy(true);
    try {
      const body = bestCaseBodyOf(values);
      const created = await create.mutateAsync(source === 'video' ? { ...body, source, videoId } : { ...body, source });
      if (source === 'upload' && file) {
        try {
          await startVideoUpload(created.videoId, file);
          toast('info', t('form.uploadStarted'));
        } catch (error) {
          toast('error', error instanceof UploadRefusedError ? error.message : errorText(error));
        }
      } else {
        toast('success', t('form.requested'));
      }
      await navigate('/admin/best-cases', { replace: true });
    } catch (error) {
      if (error instanceof ApiRequestError && applyApiFieldErrors(error, setError)) return;
      if (error instanceof ApiRequestError && (error.code === 'BEST_CASE_EXISTS' || error.code === 'BEST_CASE_NOT_ANALYSED'))
        setVideoError(errorText(error));
      else toast('error', errorText(error));
    } finally {
      setBusy(false);
    }
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      sx={{ maxWidth: 960, mx: 'auto', width: '100%', display: 'grid', gap: 2 }}
    >
      <Paper variant="outlined" component="section" aria-labelledby="source-title" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="source-title" variant="h3" component="h2" sx={{ mb: 1.5 }}>
          {t('form.source')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          fullWidth
          color="primary"
          value={source}
          onChange={(_e, value: Source | null) => value && setSource(value)}
          aria-labelledby="source-title"
          disabled={busy}
        >
          <ToggleButton value="upload" data-testid="source-upload" sx={sourceSx}>
            <CloudUploadOutlined aria-hidden />
            {t('form.sourceUpload')}
          </ToggleButton>
          <ToggleButton value="video" data-testid="source-video" sx={sourceSx}>
            <VideoLibraryOutlined aria-hidden />
            {t('form.sourceVideo')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t(source === 'upload' ? 'form.sourceUploadHelp' : 'form.sourceVideoHelp')}
        </Typography>
        {source === 'upload' ? (
          <Box sx={{ mt: 2 }}>
            <input ref={fileInput} type="file" accept={VIDEO_ACCEPT} hidden onChange={(e) => void choose(e)} data-testid="best-case-file" />
            <Button
              variant="outlined"
              startIcon={<UploadFileOutlined aria-hidden />}
              onClick={() => fileInput.current?.click()}
              disabled={busy}
              aria-describedby="best-case-file-help"
            >
              {t(file ? 'form.fileChange' : 'form.fileChoose')}
            </Button>
            <FormHelperText id="best-case-file-help" error={!!fileError} sx={{ overflowWrap: 'anywhere' }}>
              {fileError ?? (file ? t('form.fileChosen', { name: file.name, size: formatBytes(file.size, lang) }) : t('form.fileHelp'))}
            </FormHelperText>
          </Box>
        ) : (
          <>
            <TextField
              fullWidth
              margin="normal"
              type="search"
              label={t('form.videoSearch')}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              helperText={t('form.videoSearchHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'best-case-video-search', maxLength: 100 } }}
            />
            <TextField
              select
              fullWidth
              margin="normal"
              required
              label={t('form.video')}
              value={options.some((v) => v.id === videoId) ? videoId : ''}
              onChange={(e) => {
                setVideoId(e.target.value);
                setChosen(options.find((v) => v.id === e.target.value) ?? null);
                setVideoError(null);
              }}
              error={!!videoError}
              helperText={
                videoError ??
                (analysed.data?.data.length === 0
                  ? t(videoSearch.trim() ? 'form.noAnalysedMatch' : 'form.noAnalysedVideo')
                  : t('form.videoHelp', { shown: analysed.data?.data.length ?? 0, total: analysed.data?.total ?? 0 }))
              }
              slotProps={{ htmlInput: { 'data-testid': 'best-case-video' } }}
            >
              {options.map((v) => (
                <MenuItem key={v.id} value={v.id}>
                  {[v.surgery?.name, `${v.author.firstName} ${v.author.lastName}`.trim(), formatDateTime(v.createdAt, lang)]
                    .filter(Boolean)
                    .join(' · ')}
                </MenuItem>
              ))}
            </TextField>
          </>
        )}
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="texts-title" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="texts-title" variant="h3" component="h2">
          {t('form.texts')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('form.textsHelp')}
        </Typography>
        <BestCaseFields control={control} setValue={setValue} />
      </Paper>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <PendingButton
          type="submit"
          variant="contained"
          size="large"
          pending={busy}
          icon={<SaveOutlined aria-hidden />}
          data-testid="best-case-submit"
        >
          {t('form.submit')}
        </PendingButton>
      </Box>
    </Box>
  );
}
