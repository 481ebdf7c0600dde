import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Storage } from '../storage/storage.ts';
import { posterSize, STORYBOARD } from './encode.ts';

/** The files an encode leaves in its work folder: the video, its poster, the storyboard sheets and their WebVTT. */
export interface EncodeFiles {
  video: string;
  poster: string;
  storyboardDir: string;
  /** The sheets' names in `storyboardDir`, in order. */
  sheets: string[];
  vtt: string;
}

/** The media kinds the files are recorded as (an uploaded video's own, or its prepared cut's). */
export interface EncodeKinds<K extends string> {
  video: K;
  poster: K;
  sheet: K;
  vtt: K;
}

/**
 * Moves an encode's files into storage under `prefix` (`video.mp4`, `poster.jpg`,
 * `storyboard/…`), each with a new media id. The caller writes the rows, in the same transaction
 * as the change of status that makes them current.
 */
export async function storeEncodeOutputs<K extends string>(
  storage: Storage,
  prefix: string,
  files: EncodeFiles,
  picture: { width: number; height: number },
  kinds: EncodeKinds<K>,
) {
  const poster = posterSize(picture.width, picture.height);
  const outputs: { id: string; kind: K; key: string; file: string; contentType: string; width: number | null; height: number | null }[] = [
    {
      id: randomUUID(),
      kind: kinds.video,
      key: `${prefix}/video.mp4`,
      file: files.video,
      contentType: 'video/mp4',
      width: picture.width,
      height: picture.height,
    },
    {
      id: randomUUID(),
      kind: kinds.poster,
      key: `${prefix}/poster.jpg`,
      file: files.poster,
      contentType: 'image/jpeg',
      width: poster.width,
      height: poster.height,
    },
    ...files.sheets.map((name) => ({
      id: randomUUID(),
      kind: kinds.sheet,
      key: `${prefix}/storyboard/${name}`,
      file: path.join(files.storyboardDir, name),
      contentType: 'image/jpeg',
      width: STORYBOARD.columns * STORYBOARD.thumbWidth,
      height: STORYBOARD.rows * STORYBOARD.thumbHeight,
    })),
    {
      id: randomUUID(),
      kind: kinds.vtt,
      key: `${prefix}/storyboard/storyboard.vtt`,
      file: files.vtt,
      contentType: 'text/vtt',
      width: null,
      height: null,
    },
  ];
  const sizes = new Map<string, number>();
  // Moved into storage, not copied: the work folder is on the same disk (DATA_DIR/tmp).
  for (const o of outputs) sizes.set(o.id, (await storage.putFile(o.key, o.file)).size);
  return {
    keys: outputs.map((o) => o.key),
    /** The media ids of one kind, in order (the sheets' in the storyboard's order). */
    idsOf: (kind: K) => outputs.filter((o) => o.kind === kind).map((o) => o.id),
    /** The video's storyboard as its row keeps it: the grid, and its sheets and WebVTT by media id. */
    storyboard: (interval: number, count: number) => ({
      interval,
      columns: STORYBOARD.columns,
      rows: STORYBOARD.rows,
      thumbWidth: STORYBOARD.thumbWidth,
      thumbHeight: STORYBOARD.thumbHeight,
      count,
      sheetMediaIds: outputs.filter((o) => o.kind === kinds.sheet).map((o) => o.id),
      vttMediaId: outputs.find((o) => o.kind === kinds.vtt)!.id,
    }),
    /** The media rows of the stored files. */
    rows: (ownerId: string, videoId: string) =>
      outputs.map((o) => ({
        id: o.id,
        ownerId,
        videoId,
        kind: o.kind,
        storageKey: o.key,
        contentType: o.contentType,
        size: sizes.get(o.id)!,
        width: o.width,
        height: o.height,
      })),
  };
}
