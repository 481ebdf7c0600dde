import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { UploadRefusedError, useUploads } from '@/lib/uploads';
import { VIDEO_ACCEPT } from '@/features/videos/add/file-inputs';

/**
 * For a video whose upload stopped (page closed, browser restarted): the person chooses the same
 * file again and the upload goes on from where the server stopped receiving it. Shows nothing
 * while this tab is still sending the video.
 */
export function ResumeUploadButton({ videoId }: { videoId: string }) {
  const { t } = useTranslation('upload');
  const toast = useToast();
  const { uploadOf, resumeVideoUpload } = useUploads();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const current = uploadOf(videoId);
  if (current && (current.status === 'uploading' || current.status === 'paused' || current.status === 'done')) return null;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setStarting(true);
    setError(null);
    try {
      await resumeVideoUpload(videoId, file);
      toast('info', t('resume.started'));
    } catch (caught) {
      setError(caught instanceof UploadRefusedError ? caught.message : errorText(caught));
    } finally {
      setStarting(false);
    }
  };

  const helpId = `resume-upload-help-${videoId}`;
  // The last try of this tab, kept by the upload manager when this button was not shown meanwhile.
  const shownError = error ?? (current?.status === 'error' ? current.error : undefined);
  return (
    <Box>
      <Button
        variant="contained"
        disabled={starting}
        startIcon={starting ? <CircularProgress size={18} color="inherit" /> : <UploadFileOutlined aria-hidden />}
        onClick={() => input.current?.click()}
        aria-describedby={helpId}
        data-testid="resume-upload-button"
      >
        {t('resume.button')}
      </Button>
      <input
        ref={input}
        type="file"
        accept={VIDEO_ACCEPT}
        hidden
        aria-label={t('resume.button')}
        onChange={(e) => void choose(e)}
        data-testid="resume-upload-input"
      />
      <FormHelperText id={helpId}>{t('resume.help')}</FormHelperText>
      {shownError && (
        <FormHelperText error role="alert">
          {shownError}
        </FormHelperText>
      )}
    </Box>
  );
}
