import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import { sourceToResult } from '@sutura/domain/preparation';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { media, preparations, videoSteps, videos } from '../../db/schema.ts';
import { detectCutSuggestions } from '../../media-pipeline/cut-suggestions.ts';
import {
  inspectOutput,
  KEYFRAME_SECONDS,
  longestKeyframeGap,
  posterAndStoryboardArgs,
  sheetName,
  STORYBOARD,
  storyboardCount,
  storyboardInterval,
  storyboardVtt,
} from '../../media-pipeline/encode.ts';
import { ffmpegCapabilities, run } from '../../media-pipeline/ffmpeg.ts';
import { storeEncodeOutputs } from '../../media-pipeline/outputs.ts';
import { renderRanges, type FrameRange } from '../../media-pipeline/render-ranges.ts';
import type { Queue } from '../../jobs/queue.ts';
import type { Scratch } from '../../storage/scratch.ts';
import type { Storage } from '../../storage/storage.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { Claims } from '../claims/claims.service.ts';
import type { DashboardEvents } from '../dashboard/dashboard.events.ts';
import { aboutCase, type NotificationService } from '../notifications/notifications.service.ts';
import { frameRateOf, type PreparationService } from './preparation.service.ts';

/** Media rows of a rendered preparation; the source's own rows stay for its author. */
export const PREPARED_MEDIA_KINDS = ['prepared-video', 'prepared-poster', 'prepared-storyboard-sheet', 'prepared-storyboard-vtt'] as const;

export interface PreparationJobDeps {
  db: Db;
  storage: Storage;
  claims: Claims;
  preparation: PreparationService;
  notifications: NotificationService;
  /** A rendered preparation enters the experts' pool. */
  dashboardEvents?: DashboardEvents;
  queue: Queue;
  /** Where the renders and suggestions work: a local copy of the source (S3), the pieces, the outputs. */
  scratch: Scratch;
  config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>;
  log: Logger;
  /** The render's end is a change of state: recorded as the system's (no actor). */
  audit?: Audit;
  /** The second-review draw, made once as the case enters the analysis stage. */
  review?: Pick<ReviewService, 'draw'>;
}

/** Kept ranges in seconds of the source to frame indices. */
export function frameRanges(trims: readonly { start: number; end: number }[], frameRate: number): FrameRange[] {
  return trims.map((t) => ({ startFrame: Math.round(t.start * frameRate), endFrame: Math.round(t.end * frameRate) }));
}

export function createPreparationJobs(deps: PreparationJobDeps) {
  const { db, storage, scratch, claims, preparation, notifications, queue, config, log } = deps;
  const tools = { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath };

  async function sourceKey(video: typeof videos.$inferSelect): Promise<string | null> {
    const mediaId = video.sourceMediaId ?? video.videoMediaId;
    if (!mediaId) return null;
    const [row] = await db.select({ key: media.storageKey }).from(media).where(eq(media.id, mediaId));
    return row?.key ?? null;
  }

  return {
    /**
     * A source processed after it entered the workflow (demo cases are made that way): its cut
     * suggestions, or the render of a preparation made before its media was ready.
     */
    async afterSourceProcessed(videoId: string) {
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      if (!video || video.mediaStatus !== 'ready') return;
      if (video.status === 'pending_preparation' && video.cutSuggestions === null) {
        await queue.send('preparation.suggest', { videoId });
      }
      const [prep] = await db.select().from(preparations).where(eq(preparations.videoId, videoId));
      if (video.status === 'processing' && prep?.renderStatus === 'rendering') {
        await queue.send('preparation.render', { videoId, attempt: prep.renderAttempt });
      }
    },

    /** Finds cut suggestions in a source waiting for (or in) preparation; once per video. */
    async suggest(videoId: string, signal?: AbortSignal) {
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      if (!video || video.cutSuggestions !== null || !['pending_preparation', 'in_preparation'].includes(video.status)) return;
      const key = await sourceKey(video);
      if (!key) return;
      await scratch.withDir(`suggest-${videoId}-`, 0, (work) =>
        storage.withLocalFile(key, scratch, async (file) => {
          const suggestions = await detectCutSuggestions(file, {
            work,
            frameRate: frameRateOf(video),
            duration: video.duration ?? 0,
            ...tools,
            signal,
          });
          await db.update(videos).set({ cutSuggestions: suggestions }).where(eq(videos.id, videoId));
          log.info({ videoId, count: suggestions.length }, 'preparation: cut suggestions found');
          // The editor already on the page refetches it.
          if (video.claimHolderId && video.status === 'in_preparation') {
            preparation.statusChanged({ id: video.id, authorId: video.authorId }, 'in_preparation', video.claimHolderId);
          }
        }),
      );
    },

    /**
     * Renders a submitted preparation. Safe to run twice: it does nothing unless its submit is
     * still the one being rendered, and records its result in one conditional transaction, so
     * a render interrupted by a restart and run again completes exactly once.
     */
    async render(videoId: string, attempt: number, signal?: AbortSignal) {
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      const [prep] = await db.select().from(preparations).where(eq(preparations.videoId, videoId));
      if (!video || !prep || video.status !== 'processing' || prep.renderStatus !== 'rendering' || prep.renderAttempt !== attempt) {
        log.info({ videoId, attempt }, 'preparation: nothing to render');
        return;
      }
      // Rendered once its source is processed (afterSourceProcessed sends the job again then).
      if (video.mediaStatus !== 'ready') return;
      const key = await sourceKey(video);
      if (!key) throw new Error(`render: the source of ${videoId} is missing`);
      const frameRate = frameRateOf(video);
      const prefix = `videos/${videoId}/prepared-${attempt}`;
      // The rendered file takes at most what the source takes, its pieces as much again.
      const room = 2 * ((await storage.size(key)) ?? 0);
      await scratch.withDir(`render-${videoId}-`, room, (work) =>
        storage.withLocalFile(key, scratch, async (source) => {
          try {
            const output = path.join(work, 'video.mp4');
            const pieces = path.join(work, 'pieces');
            await mkdir(pieces);
            const rendered = await renderRanges(source, frameRanges(prep.trims, frameRate), output, pieces, { ...tools, signal });
            const result = await inspectOutput(output, { ffprobePath: config.ffprobePath, ...(signal ? { signal } : {}) });

            const interval = storyboardInterval(result.duration);
            const count = storyboardCount(result.duration, interval);
            const keyframesOnly =
              interval >= KEYFRAME_SECONDS && (await longestKeyframeGap(output, result.duration, tools)) <= KEYFRAME_SECONDS + 0.05;
            const storyboardDir = path.join(work, 'storyboard');
            await mkdir(storyboardDir);
            const posterFile = path.join(work, 'poster.jpg');
            await run(
              posterAndStoryboardArgs(
                output,
                {
                  duration: result.duration,
                  width: result.width,
                  height: result.height,
                  interval,
                  keyframesOnly,
                  posterFile,
                  sheetPattern: path.join(storyboardDir, 'sheet-%03d.jpg'),
                },
                await ffmpegCapabilities({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }),
              ),
              { bin: config.ffmpegPath, signal, timeoutMs: 30 * 60_000 + result.duration * 2000 },
            );
            const sheets = (await readdir(storyboardDir)).filter((f) => /^sheet-\d{3}\.jpg$/.test(f)).sort();
            const expected = Array.from({ length: Math.ceil(count / (STORYBOARD.columns * STORYBOARD.rows)) }, (_, i) => sheetName(i));
            if (sheets.join() !== expected.join())
              throw new Error(`render storyboard: expected ${expected.length} sheets, got ${sheets.length}`);
            const vttFile = path.join(storyboardDir, 'storyboard.vtt');
            await writeFile(vttFile, storyboardVtt(result.duration, interval));

            const stored = await storeEncodeOutputs(
              storage,
              prefix,
              { video: output, poster: posterFile, storyboardDir, sheets, vtt: vttFile },
              result,
              { video: 'prepared-video', poster: 'prepared-poster', sheet: 'prepared-storyboard-sheet', vtt: 'prepared-storyboard-vtt' },
            );

            // Each step's start and end in the rendered video, from the frames kept before them.
            const steps = prep.steps.map((step, position) => ({
              videoId,
              position,
              surgeryStepId: step.surgeryStepId,
              name: step.name,
              start: Math.round((sourceToResult(step.start, prep.trims) ?? 0) * frameRate) / frameRate,
              end: Math.round((sourceToResult(step.end, prep.trims) ?? 0) * frameRate) / frameRate,
            }));

            const recorded = await db.transaction(async (tx) => {
              const [done] = await tx
                .update(preparations)
                .set({ renderStatus: 'done', renderError: null, renderedAt: new Date() })
                .where(
                  and(
                    eq(preparations.videoId, videoId),
                    eq(preparations.renderAttempt, attempt),
                    eq(preparations.renderStatus, 'rendering'),
                  ),
                )
                .returning({ videoId: preparations.videoId });
              if (!done) return false;
              await tx.delete(media).where(and(eq(media.videoId, videoId), inArray(media.kind, [...PREPARED_MEDIA_KINDS])));
              await tx.insert(media).values(stored.rows(video.authorId, videoId));
              await tx.delete(videoSteps).where(eq(videoSteps.videoId, videoId));
              if (steps.length) await tx.insert(videoSteps).values(steps);
              await tx
                .update(videos)
                .set({
                  status: 'pending_analysis',
                  sourceMediaId: video.sourceMediaId ?? video.videoMediaId,
                  videoMediaId: stored.idsOf('prepared-video')[0]!,
                  posterMediaId: stored.idsOf('prepared-poster')[0]!,
                  storyboard: stored.storyboard(interval, count),
                  duration: result.duration,
                  width: result.width,
                  height: result.height,
                  frameRate: result.frameRate,
                  claimHolderId: null,
                  leaseEndsAt: null,
                  updatedAt: new Date(),
                })
                .where(and(eq(videos.id, videoId), eq(videos.status, 'processing')));
              await deps.review?.draw(tx, videoId);
              return true;
            });
            if (!recorded) {
              log.info({ videoId, attempt }, 'preparation: rendered by another run meanwhile, outputs dropped');
              return;
            }
            log.info({ videoId, attempt, plan: rendered.plan, encodedFrames: rendered.encodedFrames }, 'preparation: rendered');
            await deps.audit?.(null, 'preparation.rendered', 'video', videoId, null, { attempt, steps: steps.length });
            preparation.statusChanged(video, 'pending_analysis', prep.editorId);
            deps.dashboardEvents?.changed({ users: [video.authorId, prep.editorId], roles: ['expert'] });
            const surgery = await preparation.surgeryNames(video.surgeryId);
            if (prep.editorId)
              await notifications.notify(prep.editorId, 'preparationRendered', aboutCase(surgery, video), `/editor/${videoId}/complete`);
            await notifications.notify(video.authorId, 'videoPrepared', aboutCase(surgery, video), `/videos/${videoId}`);
          } catch (err) {
            // The files of this attempt, unless another run of it recorded them meanwhile.
            const [current] = await db
              .select({ status: preparations.renderStatus })
              .from(preparations)
              .where(eq(preparations.videoId, videoId));
            if (current?.status !== 'done') await storage.deletePrefix(prefix).catch(() => {});
            throw err;
          }
        }),
      );
    },

    /**
     * After the render's last try: the work goes back to its editor (a fresh lease), who is
     * told and may submit again. Does nothing unless that submit is still rendering.
     */
    async renderFailed(videoId: string, attempt: number) {
      // The failure and the work's return to its editor commit together: a failed render never
      // leaves its video stuck in processing.
      const reopened = await claims.transaction(async (tx) => {
        const [prep] = await tx
          .update(preparations)
          .set({ renderStatus: 'failed', renderError: 'RENDER_FAILED' })
          .where(
            and(eq(preparations.videoId, videoId), eq(preparations.renderAttempt, attempt), eq(preparations.renderStatus, 'rendering')),
          )
          .returning();
        if (!prep?.editorId) return null;
        const editorId = prep.editorId;
        return { editorId, claim: await claims.reopen('preparation', videoId, editorId, 'processing', tx) };
      });
      if (!reopened) return;
      const { editorId, claim } = reopened;
      const [video] = await db.select().from(videos).where(eq(videos.id, videoId));
      if (!claim || !video) return;
      log.warn({ videoId, attempt }, 'preparation: render failed, the work is back with its editor');
      await deps.audit?.(null, 'preparation.render_failed', 'video', videoId, null, { attempt });
      preparation.statusChanged(video, 'in_preparation', editorId);
      await notifications.notify(
        editorId,
        'preparationRenderFailed',
        aboutCase(await preparation.surgeryNames(video.surgeryId), video),
        `/editor/${videoId}`,
      );
    },
  };
}
export type PreparationJobs = ReturnType<typeof createPreparationJobs>;
