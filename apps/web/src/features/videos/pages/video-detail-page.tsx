import { Navigate, useParams } from 'react-router';
import { useVideoDetail } from '@/features/videos/api/video-detail';
import { VideoDetailView } from '@/features/videos/components/video-detail-view';
import { useVideoRealtime } from '@/features/videos/hooks/use-video-realtime';
import { VideoPageState } from '@/features/videos/pages/video-page-state';

/** `/videos/:id`: the author's (or an administrator's) page of a case; colleagues go to its shared page. */
export function VideoDetailPage() {
  const { id = '' } = useParams();
  const query = useVideoDetail(id);
  useVideoRealtime();
  return (
    <VideoPageState query={query}>
      {(video) =>
        video.access === 'shared' ? (
          <Navigate to={`/videos/${encodeURIComponent(video.id)}/shared`} replace />
        ) : (
          <VideoDetailView video={video} readOnly={false} onUrlsExpired={() => void query.refetch()} />
        )
      }
    </VideoPageState>
  );
}
