/**
 * Media URLs are signed (`/v1/media/{id}?u=&exp=&sig=`) and change at every fetch, while the media
 * they name does not: these helpers tell the two apart.
 */

/** The media a signed URL names, without its signature. */
export function mediaPath(url: string | null | undefined): string | null {
  if (!url) return null;
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/** When a signed URL stops working, in ms since the epoch; null when it says nothing. */
export function signedUrlExpiry(url: string): number | null {
  const at = url.indexOf('?');
  if (at === -1) return null;
  const exp = Number(new URLSearchParams(url.slice(at + 1)).get('exp'));
  return Number.isFinite(exp) && exp > 0 ? exp * 1000 : null;
}
