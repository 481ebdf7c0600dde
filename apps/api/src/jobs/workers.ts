import type { JobHandlers } from './queue.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import { renderMail } from '../modules/mail/mail-templates.ts';
import { markProcessingFailed, processVideo, type PipelineDeps } from '../media-pipeline/process-video.ts';
import type { UploadHousekeeping } from '../modules/videos/upload-housekeeping.ts';
import type { AnalysisService } from '../modules/analysis/analysis.service.ts';
import type { PreparationJobs } from '../modules/preparation/preparation.jobs.ts';
import type { PreparationService } from '../modules/preparation/preparation.service.ts';
import type { RetentionService } from '../modules/retention/retention.service.ts';
import type { DataExportService } from '../modules/data-export/data-export.service.ts';
import { makeLadder } from '../media-pipeline/ladder.ts';
import type { StreamingService } from '../modules/streaming/streaming.service.ts';

/** The handler of every job; each is safe to run twice. */
export function createJobHandlers(deps: {
  mailer: Mailer;
  pipeline: PipelineDeps;
  housekeeping: UploadHousekeeping;
  preparation: { service: PreparationService; jobs: PreparationJobs };
  analysis: Pick<AnalysisService, 'tidyExpiredLeases'>;
  retention: Pick<RetentionService, 'apply'>;
  dataExport: Pick<DataExportService, 'build' | 'failed' | 'expire'>;
  streaming: Pick<StreamingService, 'ladderNeeded' | 'backfill'>;
}): JobHandlers {
  const { preparation } = deps;
  return {
    'uploads.expire': async () => {
      await deps.housekeeping.expireUploads();
    },
    'storage.sweep': async () => {
      await deps.housekeeping.sweepOrphans();
    },
    'retention.apply': async (_payload, attempt) => {
      await deps.retention.apply(attempt.signal);
    },
    'mail.send': async ({ to, lang, template }) => {
      await deps.mailer.send(to, renderMail(template, lang));
    },
    'video.process': async ({ videoId }, attempt) => {
      try {
        await processVideo(deps.pipeline, videoId, { signal: attempt.signal });
        await preparation.jobs.afterSourceProcessed(videoId);
        await deps.streaming.ladderNeeded(videoId);
      } catch (err) {
        // After the last try the video is marked failed with its source kept, so that the author
        // can ask for a retry; before it, pg-boss tries again (and after a shutdown, too).
        if (attempt.lastAttempt && !attempt.signal.aborted) await markProcessingFailed(deps.pipeline, videoId);
        throw err;
      }
    },
    'preparation.suggest': async ({ videoId }, attempt) => {
      await preparation.jobs.suggest(videoId, attempt.signal);
    },
    'preparation.render': async ({ videoId, attempt: submit }, attempt) => {
      try {
        await preparation.jobs.render(videoId, submit, attempt.signal);
        await deps.streaming.ladderNeeded(videoId);
      } catch (err) {
        // The editor's work is kept; after the last try it goes back to them for a new submit.
        if (attempt.lastAttempt && !attempt.signal.aborted) await preparation.jobs.renderFailed(videoId, submit);
        throw err;
      }
    },
    'data-export.build': async ({ exportId }, attempt) => {
      try {
        await deps.dataExport.build(exportId, attempt.signal);
      } catch (err) {
        if (attempt.lastAttempt && !attempt.signal.aborted) await deps.dataExport.failed(exportId);
        throw err;
      }
    },
    'data-export.expire': async () => {
      await deps.dataExport.expire();
    },
    'video.ladder': async ({ videoId }, attempt) => {
      // The file may change while its ladder is made (a new render): then the new one's ladder too.
      while ((await makeLadder(deps.pipeline, videoId, { signal: attempt.signal })) === 'made' && !attempt.signal.aborted);
    },
    'streaming.backfill': async () => {
      await deps.streaming.backfill();
    },
    'claims.sweep': async () => {
      await preparation.service.tidyExpiredLeases();
      await deps.analysis.tidyExpiredLeases();
    },
  };
}
