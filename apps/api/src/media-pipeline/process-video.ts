import { access, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { errorMessage } from '@sutura/domain/errors';
import { VIDEO_SOCKET_EVENTS, type MediaStatus, type VideoProgressEvent } from '@sutura/domain/videos';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { media, surgeries, videos } from '../db/schema.ts';
import { createDashboardEvents } from '../modules/dashboard/dashboard.events.ts';
import type { MediaService } from '../modules/media/media.service.ts';
import type { NotificationService, RealtimeHub } from '../modules/notifications/notifications.service.ts';
import type { Scratch } from '../storage/scratch.ts';
import { UPLOADS_PREFIX, type Storage } from '../storage/storage.ts';
import type { UploadStore } from '../storage/uploads.ts';
import {
  inspectOutput,
  KEYFRAME_SECONDS,
  remux,
  remuxPictures,
  sheetName,
  STORYBOARD,
  storyboardCount,
  storyboardInterval,
  storyboardVtt,
  transcodeWithPicturesArgs,
} from './encode.ts';
import { ffmpegCapabilities, run } from './ffmpeg.ts';
import { storeEncodeOutputs } from './outputs.ts';
import { probeSource, type RefusalCode } from './probe.ts';

export interface PipelineDeps {
  db: Db;
  storage: Storage;
  /** Where the uploads are until processed (their bytes are removed once the video is made). */
  uploads: UploadStore;
  /** Where ffmpeg reads a local copy of the source (S3) and writes its outputs. */
  scratch: Scratch;
  mediaService: MediaService;
  notifications: NotificationService;
  hub: RealtimeHub;
  config: Config;
  log: Logger;
}

/** The media rows the pipeline owns for a video (pictures of the case are not touched). */
export const PIPELINE_MEDIA_KINDS = ['video', 'poster', 'storyboard-sheet', 'storyboard-vtt'] as const;

const REFUSALS: readonly string[] = ['MEDIA_NOT_A_VIDEO', 'MEDIA_NO_VIDEO_STREAM', 'MEDIA_TRUNCATED'] satisfies RefusalCode[];

type VideoRow = typeof videos.$inferSelect;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The uploaded bytes, and the tus state beside them (the local info file holds the original file name). */
async function deleteSource(deps: Pick<PipelineDeps, 'storage' | 'uploads'>, sourceKey: string): Promise<void> {
  if (sourceKey.startsWith(`${UPLOADS_PREFIX}/`)) await deps.uploads.remove(sourceKey.slice(UPLOADS_PREFIX.length + 1));
  await deps.storage.delete(sourceKey);
}

async function surgeryName(db: Db, surgeryId: string | null): Promise<{ fr: string; en: string }> {
  if (surgeryId) {
    const [row] = await db.select({ fr: surgeries.nameFr, en: surgeries.nameEn }).from(surgeries).where(eq(surgeries.id, surgeryId));
    if (row) return row;
  }
  return { fr: 'chirurgie', en: 'surgery' };
}

function pushProgress(hub: RealtimeHub, video: Pick<VideoRow, 'id' | 'authorId'>, mediaStatus: MediaStatus, progress: number) {
  const payload: VideoProgressEvent = { videoId: video.id, mediaStatus, progress };
  hub.emitToUser(video.authorId, VIDEO_SOCKET_EVENTS.progress, payload);
}

/** Progress 0–99 while working: written and pushed at most once a second, never backwards. */
function progressReporter(deps: PipelineDeps, video: VideoRow) {
  let chain = Promise.resolve();
  let last = -1;
  let lastAt = 0;
  return {
    report(value: number) {
      const progress = Math.max(0, Math.min(99, Math.floor(value)));
      const now = Date.now();
      if (progress <= last || now - lastAt < 1000) return;
      last = progress;
      lastAt = now;
      chain = chain
        .then(async () => {
          await deps.db
            .update(videos)
            .set({ processingProgress: progress })
            .where(and(eq(videos.id, video.id), eq(videos.mediaStatus, 'processing')));
          pushProgress(deps.hub, video, 'processing', progress);
        })
        .catch((err: unknown) => deps.log.warn({ err, videoId: video.id }, 'media pipeline: progress not saved'));
    },
    flush: () => chain,
  };
}

/**
 * The job `video.process`: turns an uploaded file into a playable MP4 with a poster and a
 * storyboard, or refuses it. Safe to run twice; returns quietly when the video is gone or ready.
 * Throws on an unexpected failure so that the queue retries; see markProcessingFailed.
 */
export async function processVideo(deps: PipelineDeps, videoId: string, opts: { signal?: AbortSignal } = {}): Promise<void> {
  const { db, log } = deps;
  const startedAt = performance.now();
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
  if (!video) {
    log.info({ videoId }, 'media pipeline: the video is gone, nothing to do');
    return;
  }
  if (video.kind !== 'video' || video.mediaStatus === 'ready' || video.mediaStatus === 'uploading') {
    log.info({ videoId, mediaStatus: video.mediaStatus }, 'media pipeline: nothing to do');
    return;
  }
  if (video.mediaStatus === 'failed' && REFUSALS.includes(video.failureReason ?? '')) return;
  const sourceKey = video.sourceKey;
  const sourceSize = sourceKey ? await deps.storage.size(sourceKey) : undefined;
  if (!sourceKey || sourceSize === undefined) {
    log.error({ videoId, sourceKey }, 'media pipeline: the uploaded file is missing');
    await markProcessingFailed(deps, videoId);
    return;
  }

  await db
    .update(videos)
    .set({ mediaStatus: 'processing', processingProgress: 0, failureReason: null, updatedAt: new Date() })
    .where(eq(videos.id, videoId));
  pushProgress(deps.hub, video, 'processing', 0);

  try {
    // The outputs take about what the source takes; a copy of the source (S3) reserves its own room.
    await deps.scratch.withDir(`video-${videoId}-`, sourceSize, (work) =>
      deps.storage.withLocalFile(sourceKey, deps.scratch, (source) =>
        runPipeline(deps, video, sourceKey, source, work, opts.signal, startedAt),
      ),
    );
  } catch (err) {
    log.warn({ err, videoId }, 'media pipeline: processing failed');
    throw err;
  }
}

async function runPipeline(
  deps: PipelineDeps,
  video: VideoRow,
  sourceKey: string,
  source: string,
  work: string,
  signal: AbortSignal | undefined,
  startedAt: number,
) {
  const { db, storage, config, log } = deps;
  const progress = progressReporter(deps, video);
  const tools = { ffprobePath: config.ffprobePath, ...(signal ? { signal } : {}) };

  // Each step's time goes to the debug log (bench/media.ts reads it).
  let stepStart = startedAt;
  const stepDone = (step: string, extra: Record<string, unknown> = {}) => {
    const now = performance.now();
    log.debug({ videoId: video.id, step, ms: Math.round(now - stepStart), ...extra }, `media pipeline: ${step}`);
    stepStart = now;
  };
  stepDone('started');
  const verdict = await probeSource(source, tools);
  if (verdict.kind === 'refused') {
    log.info({ videoId: video.id, code: verdict.code, detail: verdict.detail }, 'media pipeline: file refused');
    await progress.flush();
    await refuse(deps, video, sourceKey, verdict.code);
    return;
  }
  const { plan, reasons, source: info } = verdict;
  log.info({ videoId: video.id, plan, reasons }, 'media pipeline: processing');
  progress.report(1);
  await removeEarlierOutputs(deps, video.id);

  const caps = await ffmpegCapabilities({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath });
  const output = path.join(work, 'video.mp4');
  const storyboardDir = path.join(work, 'storyboard');
  await mkdir(storyboardDir);
  const posterFile = path.join(work, 'poster.jpg');
  // The storyboard follows the source's duration: the sheets are drawn while the MP4 is written.
  const interval = storyboardInterval(info.duration);
  const count = storyboardCount(info.duration, interval);
  // A transcode decodes every frame anyway; a remux decodes keyframes only when they are close.
  const keyframesOnly = plan === 'remux' && interval >= KEYFRAME_SECONDS && (info.keyframeGap ?? Infinity) <= KEYFRAME_SECONDS + 0.05;
  stepDone('probe');
  const sheetPattern = path.join(storyboardDir, 'sheet-%03d.jpg');
  const runOptions = {
    bin: config.ffmpegPath,
    // Generous: a 4-hour recording re-encoded on a small server; a stuck ffmpeg is caught by the idle timeout.
    timeoutMs: 30 * 60_000 + info.duration * 5000,
  };
  const onProgress = (seconds: number) => progress.report(2 + 90 * Math.min(1, seconds / info.duration));
  if (plan === 'transcode') {
    await run(transcodeWithPicturesArgs(info, source, { video: output, posterFile, sheetPattern, interval }, caps), {
      ...runOptions,
      signal,
      onProgress,
    });
  } else {
    // Two processes side by side: the copy is bound by the disk, the pictures by the processor,
    // and one ffmpeg does one thing at a time. Either failing stops the other.
    const both = new AbortController();
    const stop = () => both.abort();
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
    let firstFailure: { error: unknown } | undefined;
    const failFast = async (work: Promise<unknown>) => {
      try {
        await work;
      } catch (error) {
        firstFailure ??= { error };
        stop();
      }
    };
    try {
      // Both ended before going on, so that no ffmpeg still writes into the work folder.
      await Promise.all([
        failFast(
          remux(info, source, output, {
            ...runOptions,
            signal: both.signal,
            onProgress,
            onRetry: (reserve) => log.warn({ videoId: video.id, reserve }, 'media pipeline: the index did not fit its room, remuxed again'),
          }),
        ),
        failFast(
          remuxPictures(info, source, { work, posterFile, sheetPattern, interval, keyframesOnly }, caps, {
            ...runOptions,
            signal: both.signal,
            ffprobePath: config.ffprobePath,
            onFallback: (kept) =>
              log.warn({ videoId: video.id, kept }, 'media pipeline: unexpected keyframe choice, every keyframe decoded'),
          }),
        ),
      ]);
      if (firstFailure) throw firstFailure.error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }
  stepDone('ffmpeg', { plan, keyframesOnly });
  const result = await inspectOutput(output, tools);
  progress.report(93);

  const perSheet = STORYBOARD.columns * STORYBOARD.rows;
  const sheets = (await readdir(storyboardDir)).filter((f) => /^sheet-\d{3}\.jpg$/.test(f)).sort();
  const expected = Array.from({ length: Math.ceil(count / perSheet) }, (_, i) => sheetName(i));
  if (sheets.join() !== expected.join()) throw new Error(`storyboard: expected ${expected.length} sheets, got ${sheets.length}`);
  if (!(await exists(posterFile))) throw new Error('no poster was written');
  const vttFile = path.join(storyboardDir, 'storyboard.vtt');
  await writeFile(vttFile, storyboardVtt(info.duration, interval));
  progress.report(94);

  const prefix = `videos/${video.id}`;
  const stored = await storeEncodeOutputs(
    storage,
    prefix,
    { video: output, poster: posterFile, storyboardDir, sheets, vtt: vttFile },
    result,
    { video: 'video', poster: 'poster', sheet: 'storyboard-sheet', vtt: 'storyboard-vtt' },
  );
  stepDone('check and store');
  progress.report(99);
  await progress.flush();

  const saved = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(videos)
      .set({
        mediaStatus: 'ready',
        processingProgress: 100,
        failureReason: null,
        duration: result.duration,
        width: result.width,
        height: result.height,
        frameRate: result.frameRate,
        videoCodec: 'h264',
        audioCodec: 'aac',
        remuxed: plan === 'remux',
        videoMediaId: stored.idsOf('video')[0]!,
        posterMediaId: stored.idsOf('poster')[0]!,
        storyboard: stored.storyboard(interval, count),
        sourceKey: null,
        readyAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(videos.id, video.id), eq(videos.mediaStatus, 'processing')))
      .returning({ id: videos.id });
    if (!updated) return false;
    await tx.delete(media).where(and(eq(media.videoId, video.id), inArray(media.kind, [...PIPELINE_MEDIA_KINDS])));
    await tx.insert(media).values(stored.rows(video.authorId, video.id));
    return true;
  });
  if (!saved) {
    // Deleted meanwhile (or finished by another run, whose files these same keys are).
    const [still] = await db.select({ id: videos.id }).from(videos).where(eq(videos.id, video.id));
    if (!still) for (const key of stored.keys) await storage.delete(key);
    log.info({ videoId: video.id, deleted: !still }, 'media pipeline: the video changed meanwhile, outputs not recorded');
    return;
  }
  stepDone('recorded');
  try {
    pushProgress(deps.hub, video, 'ready', 100);
    // One more case uploaded on its author's dashboard.
    createDashboardEvents(deps.hub).changed({ users: [video.authorId] });
    log.info({ videoId: video.id, plan, duration: result.duration }, 'media pipeline: video ready');
    const link = video.purpose === 'best_case' ? '/admin/best-cases' : `/videos/${video.id}`;
    await deps.notifications.notify(video.authorId, 'videoReady', { surgery: await surgeryName(db, video.surgeryId) }, link);
  } finally {
    // The upload last: no row names it any more, and unlinking gigabytes takes a second or more
    // (an hour of full HD) that the author does not wait for.
    await deleteSource(deps, sourceKey);
    stepDone('source deleted');
  }
}

/** Files and rows of an earlier try that died half-way (the rows are only ever written together). */
async function removeEarlierOutputs(deps: PipelineDeps, videoId: string) {
  const rows = await deps.db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.videoId, videoId), inArray(media.kind, [...PIPELINE_MEDIA_KINDS])));
  for (const row of rows) await deps.mediaService.remove(row.id);
  await deps.storage.delete(`videos/${videoId}/video.mp4`);
  await deps.storage.delete(`videos/${videoId}/poster.jpg`);
  await deps.storage.deletePrefix(`videos/${videoId}/storyboard`);
}

/** A file that is not a usable video: no retry, the bytes are deleted, the author is told why. */
async function refuse(deps: PipelineDeps, video: VideoRow, sourceKey: string, code: RefusalCode) {
  const [row] = await deps.db
    .update(videos)
    .set({ mediaStatus: 'failed', failureReason: code, processingProgress: 0, sourceKey: null, updatedAt: new Date() })
    .where(eq(videos.id, video.id))
    .returning({ id: videos.id });
  await deleteSource(deps, sourceKey);
  if (!row) return;
  pushProgress(deps.hub, video, 'failed', 0);
  await deps.notifications.notify(video.authorId, 'videoFailed', {
    surgery: await surgeryName(deps.db, video.surgeryId),
    reason: { fr: errorMessage(code, 'fr'), en: errorMessage(code, 'en') },
  });
}

/**
 * After the last try of the job: `failed` with MEDIA_PROCESSING_FAILED, the source kept so that
 * the author can ask for a retry. Does nothing unless the video is still processing.
 */
export async function markProcessingFailed(
  deps: Pick<PipelineDeps, 'db' | 'notifications' | 'hub' | 'log'>,
  videoId: string,
): Promise<void> {
  const [video] = await deps.db
    .update(videos)
    .set({ mediaStatus: 'failed', failureReason: 'MEDIA_PROCESSING_FAILED', updatedAt: new Date() })
    .where(and(eq(videos.id, videoId), eq(videos.mediaStatus, 'processing')))
    .returning();
  if (!video) return;
  deps.log.warn({ videoId }, 'media pipeline: giving up, the source is kept for a retry');
  pushProgress(deps.hub, video, 'failed', video.processingProgress);
  await deps.notifications.notify(video.authorId, 'videoFailed', {
    surgery: await surgeryName(deps.db, video.surgeryId),
    reason: { fr: errorMessage('MEDIA_PROCESSING_FAILED', 'fr'), en: errorMessage('MEDIA_PROCESSING_FAILED', 'en') },
  });
}
