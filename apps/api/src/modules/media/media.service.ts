import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { OutputInfo, ResizeOptions } from 'sharp';
import { AVATAR_SIZE_PX, PICTURE_MAX_SIDE_PX } from '@sutura/domain/limits';
import type { Db } from '../../db/client.ts';
import { media, type videos } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../../storage/storage.ts';
import type { SignedUrls } from './signed-urls.ts';

export type MediaRow = typeof media.$inferSelect;

export function createMediaService(deps: { db: Db; storage: Storage; urls: SignedUrls }) {
  const { db, storage, urls } = deps;
  /** Decodes an upload as an image, turns it upright, resizes it and re-encodes it as WebP, which drops every metadata block. */
  async function storeImage(opts: {
    ownerId: string;
    videoId: string | null;
    kind: 'avatar' | 'picture';
    bytes: Buffer;
    resize: ResizeOptions;
    key: (id: string) => string;
  }): Promise<MediaRow> {
    // Loaded at the first image: libvips costs ~10 MB of resident memory a server may never need.
    const { default: sharp } = await import('sharp');
    let output: { data: Buffer; info: OutputInfo };
    try {
      output = await sharp(opts.bytes, { failOn: 'error', limitInputPixels: 100_000_000 })
        .rotate()
        .resize(opts.resize)
        .webp({ quality: 85 })
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw new AppError('UNSUPPORTED_MEDIA');
    }
    const id = randomUUID();
    const storageKey = opts.key(id);
    await storage.put(storageKey, output.data);
    const [row] = await db
      .insert(media)
      .values({
        id,
        ownerId: opts.ownerId,
        videoId: opts.videoId,
        kind: opts.kind,
        storageKey,
        contentType: 'image/webp',
        size: output.data.length,
        width: output.info.width,
        height: output.info.height,
      })
      .returning();
    return row!;
  }

  return {
    urlFor(mediaId: string | null, viewerId: string): string | null {
      return mediaId ? urls.url(mediaId, viewerId) : null;
    },

    /** A video's storyboard as the player reads it: its sheets and WebVTT by signed URLs for this viewer. */
    storyboardFor(storyboard: (typeof videos.$inferSelect)['storyboard'], viewerId: string) {
      if (!storyboard) return null;
      return {
        interval: storyboard.interval,
        columns: storyboard.columns,
        rows: storyboard.rows,
        thumbWidth: storyboard.thumbWidth,
        thumbHeight: storyboard.thumbHeight,
        count: storyboard.count,
        sheets: storyboard.sheetMediaIds.map((id) => urls.url(id, viewerId)),
        vtt: urls.url(storyboard.vttMediaId, viewerId),
      };
    },

    /**
     * Decodes the upload as an image (whatever its name says), crops it square, and re-encodes
     * it as WebP, which drops EXIF, GPS and every other metadata block.
     */
    async storeAvatar(ownerId: string, bytes: Buffer): Promise<MediaRow> {
      const resize: ResizeOptions = { width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX, fit: 'cover', position: 'attention' };
      return storeImage({ ownerId, videoId: null, kind: 'avatar', bytes, resize, key: (id) => `users/${ownerId}/avatar-${id}.webp` });
    },

    /**
     * A picture of a case: decoded whatever its name says, turned upright, at most
     * PICTURE_MAX_SIDE_PX on its long side, re-encoded as WebP without any metadata (EXIF, GPS).
     * Stored under the video's prefix so that deleting the video removes it.
     */
    async storePicture(ownerId: string, videoId: string, bytes: Buffer): Promise<MediaRow> {
      const resize: ResizeOptions = { width: PICTURE_MAX_SIDE_PX, height: PICTURE_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true };
      return storeImage({ ownerId, videoId, kind: 'picture', bytes, resize, key: (id) => `videos/${videoId}/pictures/${id}.webp` });
    },

    /** A file made by the server (a transcoded voice advice), stored as it is under `key(id)`. */
    async storeFile(opts: {
      ownerId: string;
      videoId: string | null;
      kind: string;
      contentType: string;
      file: string;
      key: (id: string) => string;
    }): Promise<MediaRow> {
      const id = randomUUID();
      const storageKey = opts.key(id);
      const { size } = await storage.put(storageKey, createReadStream(opts.file));
      const [row] = await db
        .insert(media)
        .values({ id, ownerId: opts.ownerId, videoId: opts.videoId, kind: opts.kind, storageKey, contentType: opts.contentType, size })
        .returning();
      return row!;
    },

    async get(mediaId: string): Promise<MediaRow | undefined> {
      const [row] = await db.select().from(media).where(eq(media.id, mediaId));
      return row;
    },

    async remove(mediaId: string): Promise<void> {
      const [row] = await db.delete(media).where(eq(media.id, mediaId)).returning();
      if (row) await storage.delete(row.storageKey);
    },

    /** Every file a person owns, for account deletion. */
    async removeAllOf(ownerId: string): Promise<void> {
      await db.delete(media).where(eq(media.ownerId, ownerId));
      await storage.deletePrefix(`users/${ownerId}`);
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
