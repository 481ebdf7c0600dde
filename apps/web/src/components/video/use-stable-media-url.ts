import { useCallback, useState } from 'react';
import { mediaPath } from '@/components/video/signed-url';

/**
 * Keeps the first signed URL of a media for as long as it works, so a refetch of the video
 * (every realtime event, every mutation) neither reloads a picture nor restarts the player.
 * `renew()` is for when the kept URL failed: the newest URL is taken at once, or as soon as a
 * fresh one arrives; it answers whether a fresh one was already there.
 */
export function useStableMediaUrl(url: string | null): { src: string | null; renew: () => boolean } {
  const [state, setState] = useState({ kept: url, renewing: false });
  // Adjusted while rendering: another media, or the fresh URL a renewal waited for.
  const adopt = mediaPath(state.kept) !== mediaPath(url) || (state.renewing && state.kept !== url);
  if (adopt) setState({ kept: url, renewing: false });
  const src = adopt ? url : state.kept;

  const renew = useCallback(() => {
    const fresh = url !== src;
    setState({ kept: fresh ? url : src, renewing: !fresh });
    return fresh;
  }, [url, src]);

  return { src, renew };
}
