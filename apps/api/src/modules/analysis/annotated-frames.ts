import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { frameIndexAt } from '@sutura/domain/drawing';
import { ffprobe, fileArg, run } from '../../media-pipeline/ffmpeg.ts';
import type { Scratch } from '../../storage/scratch.ts';
import type { Storage } from '../../storage/storage.ts';
import type { MediaService } from '../media/media.service.ts';

/** A picture of the video at a drawing's time, as the PDF embeds it. */
export interface FramePicture {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** Wide enough to print sharp at the PDF's width, small enough to keep a report light. */
const FRAME_WIDTH = 960;

/**
 * Extracts the frames drawings were made on, from the stored video: the frame the player showed
 * at each time (the last that starts at or before it), decoded by ffmpeg from a seek half a frame
 * before it. One local copy of the video serves every frame of a report.
 */
export function createFrameGrabber(deps: {
  storage: Storage;
  scratch: Scratch;
  mediaService: MediaService;
  ffmpegPath: string;
  ffprobePath: string;
}) {
  const { storage, scratch, mediaService } = deps;
  return {
    async frames(videoMediaId: string | null, times: readonly number[]): Promise<Map<number, FramePicture>> {
      const out = new Map<number, FramePicture>();
      const wanted = [...new Set(times)];
      const row = videoMediaId && wanted.length ? await mediaService.get(videoMediaId) : undefined;
      if (!row) return out;
      await storage.withLocalFile(row.storageKey, scratch, async (file) => {
        const probe = await ffprobe(file, { bin: deps.ffprobePath, timeoutMs: 30_000 });
        const stream = probe.streams.find((s) => s.codec_type === 'video');
        if (!stream?.width || !stream.height) return;
        const [num, den] = (stream.r_frame_rate ?? '25/1').split('/').map(Number);
        const frameRate = num && den ? num / den : 25;
        const width = Math.min(FRAME_WIDTH, stream.width);
        const height = Math.round((stream.height * width) / stream.width / 2) * 2;
        await scratch.withDir('frames-', wanted.length * 400_000, async (dir) => {
          for (const [i, time] of wanted.entries()) {
            const seek = Math.max(0, (frameIndexAt(time, frameRate) - 0.5) / frameRate);
            const output = path.join(dir, `frame-${i}.jpg`);
            await run(
              [
                ...['-ss', seek.toFixed(6), '-i', fileArg(file), '-map', '0:v:0', '-frames:v', '1'],
                ...['-vf', `scale=${width}:${height}`, '-q:v', '2', '-f', 'image2', fileArg(output)],
              ],
              { bin: deps.ffmpegPath, timeoutMs: 60_000 },
            ).catch(() => undefined);
            const jpeg = await readFile(output).catch(() => null);
            if (jpeg?.length) out.set(time, { jpeg, width, height });
          }
        });
      });
      return out;
    },
  };
}
export type FrameGrabber = ReturnType<typeof createFrameGrabber>;
