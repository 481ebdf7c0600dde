import { useUploads } from '@/lib/uploads';

/** The percent sent of this video's upload when this tab is sending it; null otherwise. */
export function useUploadProgress(videoId: string): number | null {
  const upload = useUploads().uploadOf(videoId);
  if (!upload || upload.status === 'error') return null;
  if (upload.status === 'done' || upload.bytesTotal === 0) return upload.status === 'done' ? 100 : 0;
  return Math.min(100, Math.floor((upload.bytesSent / upload.bytesTotal) * 100));
}
