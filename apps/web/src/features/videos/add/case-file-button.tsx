import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import FindReplaceOutlined from '@mui/icons-material/FindReplaceOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import type { VideoDetail } from '@sutura/domain/videos';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { UploadRefusedError } from '@/lib/upload-manager';
import { useUploads } from '@/lib/uploads';
import { VIDEO_ACCEPT } from '@/features/videos/add/video-accept';

/**
 * The file of a case whose upload stopped or whose file failed. `resume`: the person chooses the
 * same file again, on this device or another, and the upload goes on from where the server
 * stopped receiving it (another file is refused). `replace`: a new file for the same case,
 * every field kept. Shows nothing while this tab is still sending the video.
 */
export function CaseFileButton({ video, mode }: { video: Pick<VideoDetail, 'id' | 'upload'>; mode: 'resume' | 'replace' }) {
  const { t } = useTranslation('case-file');
  const toast = useToast();
  const { uploadOf, resumeVideoUpload } = useUploads();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const current = uploadOf(video.id);
  if (current && (current.status === 'uploading' || current.status === 'paused' || current.status === 'done')) return null;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || starting) return;
    setStarting(true);
    setError(null);
    try {
      await resumeVideoUpload(video.id, file, mode === 'resume' ? video.upload : null);
      toast('info', t(`${mode}.started`));
    } catch (caught) {
      setError(caught instanceof UploadRefusedError ? caught.message : errorText(caught));
    } finally {
      setStarting(false);
    }
  };

  const helpId = `${mode}-upload-help-${video.id}`;
  const received = video.upload && video.upload.size > 0 ? Math.floor((video.upload.offset / video.upload.size) * 100) : null;
  const help =
    mode === 'replace'
      ? t('replace.help')
      : received !== null
        ? t('resume.help', { percent: t('common:percent', { value: received }) })
        : t('resume.helpNoOffset');
  // The last try of this tab, kept by the upload manager when this button was not shown meanwhile.
  const shownError = error ?? (current?.status === 'error' ? current.error : undefined);
  return (
    <Box>
      <Button
        variant="contained"
        disabled={starting}
        startIcon={
          starting ? (
            <CircularProgress size={18} color="inherit" aria-hidden />
          ) : mode === 'replace' ? (
            <FindReplaceOutlined aria-hidden />
          ) : (
            <UploadFileOutlined aria-hidden />
          )
        }
        onClick={() => input.current?.click()}
        aria-describedby={helpId}
        data-testid={`${mode}-upload-button`}
      >
        {starting ? t('checking') : t(`${mode}.button`)}
      </Button>
      <input
        ref={input}
        type="file"
        accept={VIDEO_ACCEPT}
        hidden
        aria-label={t(`${mode}.button`)}
        onChange={(e) => void choose(e)}
        data-testid={`${mode}-upload-input`}
      />
      <FormHelperText id={helpId}>{help}</FormHelperText>
      {shownError && (
        <FormHelperText error role="alert" data-testid={`${mode}-upload-error`}>
          {shownError}
        </FormHelperText>
      )}
    </Box>
  );
}
