import { rm } from 'node:fs/promises';
import { ANALYSIS_LIMITS } from '@sutura/domain/analysis';
import { AppError } from '../../http/errors.ts';
import { ffprobe, fileArg, run } from '../../media-pipeline/ffmpeg.ts';
import type { MediaService } from '../media/media.service.ts';

/** Every browser plays AAC in MP4 (Chromium, Firefox, Safari); MediaRecorder records WebM/Opus or MP4. */
export const VOICE_CONTENT_TYPE = 'audio/mp4';

/**
 * Scratch space a voice advice takes: the recording as received and its transcode (64 kb/s for
 * at most the longest advice, with room for the container).
 */
export const VOICE_SCRATCH_BYTES =
  ANALYSIS_LIMITS.voiceMaxBytes + Math.ceil(((ANALYSIS_LIMITS.voiceMaxSeconds + 1) * 64_000) / 8) + 1024 * 1024;

/**
 * The voice advice of an analysis: whatever the browser recorded (WebM/Opus, Ogg, MP4/AAC, WAV)
 * is checked by content with ffprobe and transcoded to mono AAC in MP4 with the index at the
 * front, so that it starts playing at once and seeks. The transcode is written beside the
 * recording, in the caller's scratch folder.
 */
export function createVoiceStore(deps: { mediaService: MediaService; ffmpegPath: string; ffprobePath: string }) {
  const { mediaService } = deps;
  return {
    async store(ownerId: string, videoId: string, input: string): Promise<{ mediaId: string; duration: number }> {
      const source = await ffprobe(input, { bin: deps.ffprobePath, timeoutMs: 30_000 }).catch(() => null);
      if (!source?.streams.some((s) => s.codec_type === 'audio')) throw new AppError('VOICE_NOT_AUDIO');
      const output = `${input}.voice.m4a`;
      try {
        // WebM from MediaRecorder often states no duration: the length is measured on the result,
        // and the transcode stops just past the limit whatever the source claims.
        await run(
          [
            '-i',
            fileArg(input),
            '-map',
            '0:a:0',
            '-vn',
            '-t',
            String(ANALYSIS_LIMITS.voiceMaxSeconds + 1),
            '-c:a',
            'aac',
            '-b:a',
            '64k',
            '-ac',
            '1',
            '-ar',
            '48000',
            '-map_metadata',
            '-1',
            '-movflags',
            '+faststart',
            '-f',
            'mp4',
            fileArg(output),
          ],
          { bin: deps.ffmpegPath, timeoutMs: 120_000 },
        ).catch(() => {
          throw new AppError('VOICE_NOT_AUDIO');
        });
        const result = await ffprobe(output, { bin: deps.ffprobePath, timeoutMs: 30_000 });
        const duration = Number(result.format.duration ?? 0);
        if (!(duration > 0)) throw new AppError('VOICE_NOT_AUDIO');
        if (duration > ANALYSIS_LIMITS.voiceMaxSeconds + 0.5) {
          throw new AppError('VOICE_TOO_LONG', { max: ANALYSIS_LIMITS.voiceMaxSeconds / 60 });
        }
        const row = await mediaService.storeFile({
          ownerId,
          videoId,
          kind: 'voice',
          contentType: VOICE_CONTENT_TYPE,
          file: output,
          key: (id) => `videos/${videoId}/analysis/voice-${id}.m4a`,
        });
        return { mediaId: row.id, duration: Math.round(duration * 10) / 10 };
      } finally {
        await rm(output, { force: true });
      }
    },
  };
}
export type VoiceStore = ReturnType<typeof createVoiceStore>;
