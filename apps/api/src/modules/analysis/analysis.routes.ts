import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ANALYSIS_LIMITS,
  analysisResultQuery,
  commentBody,
  fencedBody,
  finalizeAnalysisBody,
  saveAnalysisBody,
} from '@sutura/domain/analysis';
import { fencingTokenSchema } from '@sutura/domain/claims';
import { parseListQuery } from '@sutura/domain/query';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { eachPart } from '../../http/multipart.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { Scratch } from '../../storage/scratch.ts';
import type { AnalysisService } from './analysis.service.ts';
import { renderAnalysisReport } from './analysis.report.ts';
import { VOICE_SCRATCH_BYTES } from './voice.ts';
import type { FrameGrabber } from './annotated-frames.ts';

const idParams = z.object({ id: z.uuid() });
const commentParams = z.object({ id: z.uuid(), commentId: z.uuid() });
const noBody = z.object({}).strict().nullish();
const experts = ['expert'] as const;

/**
 * The analysis stage (docs/analysis-contract.md). Expert routes answer 404 for a video the expert
 * does not hold (or did not analyse); the learner's result answers 404 to anyone but its author
 * and administrators, and ANALYSIS_NOT_READY until it is submitted.
 */
export function analysisRoutes(deps: { analysis: AnalysisService; scratch: Scratch; frames: FrameGrabber }): FastifyPluginAsyncZod {
  const { analysis, frames } = deps;
  return async (app) => {
    app.get(
      '/expert/pool',
      { config: { access: experts }, schema: { tags: ['analysis'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { filter: ['surgeryId', 'organId'] });
        return ok(await analysis.pool(requireUser(request), query, requestLanguage(request)));
      },
    );

    // Paged and filtered as the pool is: one query string for the expert's lists.
    app.get(
      '/expert/held',
      { config: { access: experts }, schema: { tags: ['analysis'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, { filter: ['surgeryId', 'organId'] });
        return ok(await analysis.held(requireUser(request), query, requestLanguage(request)));
      },
    );

    app.get(
      '/expert/analysed',
      { config: { access: experts }, schema: { tags: ['analysis'], querystring: listQuerystring } },
      async (request) => {
        const query = parseListQuery(request.query, {});
        return ok(await analysis.analysed(requireUser(request), query, requestLanguage(request)));
      },
    );

    app.post(
      '/expert/videos/:id/claim',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: noBody } },
      async (request) => ok(await analysis.claim(requireUser(request), request.params.id, request.ip)),
    );

    app.post(
      '/expert/videos/:id/release',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: fencedBody } },
      async (request) => ok(await analysis.release(requireUser(request), request.params.id, request.body.fencingToken, request.ip)),
    );

    app.get('/expert/videos/:id', { config: { access: experts }, schema: { tags: ['analysis'], params: idParams } }, async (request) =>
      ok(await analysis.workspace(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.put(
      '/expert/videos/:id/analysis',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: saveAnalysisBody } },
      async (request) =>
        ok(await analysis.save(requireUser(request), request.params.id, request.body, requestLanguage(request), request.ip)),
    );

    app.post(
      '/expert/videos/:id/finalize',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: finalizeAnalysisBody } },
      async (request) =>
        ok(
          await analysis.finalize(
            requireUser(request),
            request.params.id,
            request.body.fencingToken,
            request.body.confirmAnyway,
            request.ip,
            requestLanguage(request),
          ),
        ),
    );

    app.post(
      '/expert/videos/:id/comments',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: commentBody } },
      async (request, reply) =>
        reply.status(201).send(ok(await analysis.addComment(requireUser(request), request.params.id, request.body, request.ip))),
    );

    app.put(
      '/expert/videos/:id/comments/:commentId',
      { config: { access: experts }, schema: { tags: ['analysis'], params: commentParams, body: commentBody } },
      async (request) =>
        ok(await analysis.updateComment(requireUser(request), request.params.id, request.params.commentId, request.body, request.ip)),
    );

    app.delete(
      '/expert/videos/:id/comments/:commentId',
      { config: { access: experts }, schema: { tags: ['analysis'], params: commentParams, body: fencedBody } },
      async (request) => {
        await analysis.removeComment(
          requireUser(request),
          request.params.id,
          request.params.commentId,
          request.body.fencingToken,
          request.ip,
        );
        return ok({});
      },
    );

    // Multipart: `fencingToken` then `file` (the recording, any audio format a browser records).
    app.post(
      '/expert/videos/:id/voice',
      {
        config: { access: experts },
        bodyLimit: ANALYSIS_LIMITS.voiceMaxBytes + 64 * 1024,
        schema: { tags: ['analysis'], params: idParams, consumes: ['multipart/form-data'] },
      },
      async (request) => {
        const user = requireUser(request);
        await analysis.assertHolding(user, request.params.id);
        if (!request.isMultipart()) throw new AppError('VOICE_NOT_AUDIO');
        // The recording and its transcode, in the scratch space: a request waits a bounded time
        // for room there, then is answered SCRATCH_BUSY (503, Retry-After) having changed nothing.
        return deps.scratch.withDir(
          'voice-',
          VOICE_SCRATCH_BYTES,
          async (work) => {
            let token: number | undefined;
            let file: string | undefined;
            await eachPart(request, { fileSize: ANALYSIS_LIMITS.voiceMaxBytes, files: 1 }, async (part) => {
              if (part.type === 'field' && part.fieldname === 'fencingToken') {
                const parsed = fencingTokenSchema.safeParse(Number(part.value));
                if (!parsed.success) throw new AppError('VALIDATION', {}, [{ path: 'fencingToken', code: 'INVALID_VALUE' }]);
                token = parsed.data;
              } else if (part.type === 'file') {
                file = path.join(work, 'upload');
                await pipeline(part.file, createWriteStream(file));
                if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE');
              }
            });
            if (token === undefined) throw new AppError('VALIDATION', {}, [{ path: 'fencingToken', code: 'FIELD_REQUIRED' }]);
            if (!file) throw new AppError('VALIDATION', {}, [{ path: 'file', code: 'FIELD_REQUIRED' }]);
            return ok(await analysis.setVoice(user, request.params.id, token, file, request.ip));
          },
          { waitMs: deps.scratch.requestWaitMs },
        );
      },
    );

    app.delete(
      '/expert/videos/:id/voice',
      { config: { access: experts }, schema: { tags: ['analysis'], params: idParams, body: fencedBody } },
      async (request) => {
        await analysis.removeVoice(requireUser(request), request.params.id, request.body.fencingToken, request.ip);
        return ok({});
      },
    );

    // ---- The learner's result

    app.get(
      '/videos/:id/analysis',
      { config: { access: 'authenticated' }, schema: { tags: ['analysis'], params: idParams, querystring: analysisResultQuery } },
      async (request) => {
        const [viewer, id, lang] = [requireUser(request), request.params.id, requestLanguage(request)];
        return ok(
          request.query.ifReady === 'true' ? await analysis.resultIfReady(viewer, id, lang) : await analysis.result(viewer, id, lang),
        );
      },
    );

    app.get(
      '/videos/:id/analysis/report',
      { config: { access: 'authenticated' }, schema: { tags: ['analysis'], params: idParams } },
      async (request, reply) => {
        const lang = requestLanguage(request);
        const data = await analysis.reportData(requireUser(request), request.params.id, lang);
        // Each drawing over the frame it was made on, extracted now from the video: every review's.
        const comments = [...data.result.comments, ...data.result.reviews.flatMap((r) => r.comments)];
        const times = comments.flatMap((c) => (c.drawing ? [c.drawing.time] : []));
        const pictures = await frames.frames(data.video.videoMediaId, times);
        const pdf = await renderAnalysisReport({ ...data, frames: pictures }, lang);
        const name = lang === 'fr' ? 'rapport-analyse' : 'analysis-report';
        reply.header('content-type', 'application/pdf');
        reply.header('content-disposition', `attachment; filename="${name}-${request.params.id.slice(0, 8)}.pdf"`);
        reply.header('cache-control', 'private, no-store');
        return reply.send(pdf);
      },
    );
  };
}
