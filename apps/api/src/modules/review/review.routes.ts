import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { discussedBody, disagreementListQuery, moreReviewBody, reviewSettingsBody, secondReviewShareSchema } from '@sutura/domain/review';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { ReviewService } from './review.service.ts';

const idParams = z.object({ id: z.uuid() });
const surgeryShareBody = z.object({ secondReviewShare: secondReviewShareSchema.nullable() }).strict();
const read = { access: ADMIN_ROLES };
const write = { access: ADMIN_WRITE_ROLES };

/** The double review for administrators (docs/double-review.md). */
export function reviewRoutes(deps: { review: ReviewService }): FastifyPluginAsyncZod {
  const { review } = deps;
  return async (app) => {
    const tags = ['admin'];

    app.get('/admin/review-settings', { config: read, schema: { tags } }, async (request) =>
      ok(await review.settingsWithSurgeries(requestLanguage(request))),
    );
    app.put('/admin/review-settings', { config: write, schema: { tags, body: reviewSettingsBody } }, async (request) =>
      ok(await review.setSettings(requireUser(request), request.body, request.ip)),
    );
    app.put(
      '/admin/review-settings/surgeries/:id',
      { config: write, schema: { tags, params: idParams, body: surgeryShareBody } },
      async (request) =>
        ok(await review.setSurgeryShare(requireUser(request), request.params.id, request.body.secondReviewShare, request.ip)),
    );
    app.post(
      '/admin/videos/:id/reviews',
      { config: write, schema: { tags, params: idParams, body: moreReviewBody.nullish() } },
      async (request) => ok(await review.requestReview(requireUser(request), request.params.id, request.ip)),
    );
    app.get('/admin/disagreements', { config: read, schema: { tags, querystring: disagreementListQuery } }, async (request) =>
      ok(await review.list(request.query, requestLanguage(request))),
    );
    app.post(
      '/admin/disagreements/:id/discussed',
      { config: write, schema: { tags, params: idParams, body: discussedBody } },
      async (request) => ok(await review.markDiscussed(requireUser(request), request.params.id, request.body.note, request.ip)),
    );
  };
}
