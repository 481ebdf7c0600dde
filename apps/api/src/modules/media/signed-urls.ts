import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Media is never public: a URL names the media, the person it was issued to and an expiry,
 * signed with the server's secret. Anyone holding it may read until it expires.
 */
export function createSignedUrls(secret: string, ttlSeconds: number, clock: () => Date) {
  const sign = (mediaId: string, userId: string, exp: number) =>
    createHmac('sha256', `media:${secret}`).update(`${mediaId}.${userId}.${exp}`).digest('base64url');
  return {
    url(mediaId: string, userId: string): string {
      const exp = Math.floor(clock().getTime() / 1000) + ttlSeconds;
      return `/v1/media/${mediaId}?u=${userId}&exp=${exp}&sig=${sign(mediaId, userId, exp)}`;
    },
    verify(mediaId: string, userId: string, exp: number, sig: string): boolean {
      if (!Number.isInteger(exp) || exp < Math.floor(clock().getTime() / 1000)) return false;
      const expected = Buffer.from(sign(mediaId, userId, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
export type SignedUrls = ReturnType<typeof createSignedUrls>;
