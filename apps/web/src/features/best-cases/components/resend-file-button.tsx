import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { UploadRefusedError, useUploads } from '@/lib/uploads';
import { checkVideoFile } from '@/lib/video-file-check';

const VIDEO_ACCEPT = 'video/*,.mkv,.ts,.mts,.m2ts,.avi,.mov';

/**
 * The file of an uploaded best case whose upload stopped (the tab was closed, it expired) or whose
 * file was refused: sent again from the start. Nothing while this tab is still sending it.
 */
export function ResendFileButton({ videoId }: { videoId: string }) {
  const { t } = useTranslation(['best-cases', 'errors']);
  const toast = useToast();
  const { uploadOf, resumeVideoUpload } = useUploads();
  const [starting, setStarting] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const current = uploadOf(videoId);
  if (current && (current.status === 'uploading' || current.status === 'paused' || current.status === 'done')) return null;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || starting) return;
    setStarting(true);
    try {
      const refusal = await checkVideoFile(file);
      if (refusal) {
        toast('error', t(`errors:${refusal}`, { file: file.name }));
        return;
      }
      await resumeVideoUpload(videoId, file, null);
      toast('info', t('form.uploadStarted'));
    } catch (error) {
      toast('error', error instanceof UploadRefusedError ? error.message : errorText(error));
    } finally {
      setStarting(false);
    }
  };

  return (
    <>
      <input ref={input} type="file" accept={VIDEO_ACCEPT} hidden onChange={(e) => void choose(e)} />
      <PendingButton
        size="small"
        variant="outlined"
        pending={starting}
        icon={<UploadFileOutlined aria-hidden />}
        onClick={() => input.current?.click()}
        data-testid="best-case-resend-file"
      >
        {t('admin.resendFile')}
      </PendingButton>
    </>
  );
}
