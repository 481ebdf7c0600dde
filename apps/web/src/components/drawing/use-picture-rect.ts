import { useEffect, useState } from 'react';
import { pictureRect, type PictureRect } from '@/components/drawing/geometry';

/**
 * Where the video's picture sits in the player (relative to the element the overlay shares with
 * the video), followed through resizes, rotations, fullscreen and a new source.
 */
export function usePictureRect(video: HTMLVideoElement | null): (PictureRect & { videoWidth: number; videoHeight: number }) | null {
  const [rect, setRect] = useState<(PictureRect & { videoWidth: number; videoHeight: number }) | null>(null);
  useEffect(() => {
    if (!video) return;
    const update = () => {
      if (!video.videoWidth || !video.videoHeight) return setRect(null);
      const next = { ...pictureRect(video), videoWidth: video.videoWidth, videoHeight: video.videoHeight };
      setRect((prev) =>
        prev &&
        prev.left === next.left &&
        prev.top === next.top &&
        prev.width === next.width &&
        prev.height === next.height &&
        prev.videoWidth === next.videoWidth
          ? prev
          : next,
      );
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(video);
    if (video.parentElement) observer.observe(video.parentElement);
    video.addEventListener('loadedmetadata', update);
    video.addEventListener('resize', update);
    document.addEventListener('fullscreenchange', update);
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      video.removeEventListener('loadedmetadata', update);
      video.removeEventListener('resize', update);
      document.removeEventListener('fullscreenchange', update);
      window.removeEventListener('resize', update);
    };
  }, [video]);
  return rect;
}
