import { Navigate, useParams } from 'react-router';
import { useVideoDetail } from '@/features/videos/api/video-detail';
import { VideoDetailView } from '@/features/videos/components/video-detail-view';
import { useVideoRealtime } from '@/features/videos/hooks/use-video-realtime';
import { VideoPageState } from '@/features/videos/pages/video-page-state';

/** `/videos/:id/shared`: a case a colleague shared, read only; its author lands on the full page. */
export function SharedVideoPage() {
  const { id = '' } = useParams();
  const query = useVideoDetail(id);
  useVideoRealtime();
  return (
    <VideoPageState query={query}>
      {(video) =>
        video.access === 'shared' ? (
          <VideoDetailView video={video} readOnly onUrlsExpired={() => void query.refetch()} />
        ) : (
          <Navigate to={`/videos/${encodeURIComponent(video.id)}`} replace />
        )
      }
    </VideoPageState>
  );
}
