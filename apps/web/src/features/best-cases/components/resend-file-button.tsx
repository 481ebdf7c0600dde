import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { PendingButton } from '@/components/pending-button';
import { errorText } from '@/lib/http';
import { useToast } from '@/lib/toast';
import { UploadRefusedError } from '@/lib/upload-manager';
import { useUploads, type ServerUpload } from '@/lib/uploads';
import { checkVideoFile } from '@/lib/video-file-check';

const VIDEO_ACCEPT = 'video/*,.mkv,.ts,.mts,.m2ts,.avi,.mov';

/**
 * The file of an uploaded best case whose upload stopped (the tab was closed, the network went) or
 * whose file was refused. With the server's unfinished upload, the same file (same fingerprint)
 * goes on from where it stopped, as a learner's case does; another file is refused. Without one,
 * it is sent from the start. Nothing while this tab is still sending it.
 */
export function ResendFileButton({ videoId, upload }: { videoId: string; upload: ServerUpload | null }) {
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
      await resumeVideoUpload(videoId, file, upload);
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
        {upload && upload.offset > 0
          ? t('admin.resumeFile', { percent: Math.floor((upload.offset / Math.max(1, upload.size)) * 100) })
          : t('admin.resendFile')}
      </PendingButton>
    </>
  );
}
