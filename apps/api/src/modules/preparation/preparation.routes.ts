import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fencedBody } from '@sutura/domain/claims';
import { POOL_FILTERS, saveStepsBody, saveTrimsBody, setPhaseBody } from '@sutura/domain/preparation';
import { parseListQuery } from '@sutura/domain/query';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { PreparationService } from './preparation.service.ts';

const idParams = z.object({ id: z.uuid() });
const noBody = z.object({}).strict().nullish();
const EDITORS = ['editor'] as const;

/**
 * The editor's space (docs/preparation.md). Only editors may call these; which video an editor
 * may see or change is decided by the service (the holder, or who submitted it), 404 otherwise.
 */
export function preparationRoutes(deps: { preparation: PreparationService }): FastifyPluginAsyncZod {
  const { preparation } = deps;
  return async (app) => {
    const config = { access: EDITORS };
    const tags = ['preparation'];

    app.get('/editor/pool', { config, schema: { tags, querystring: listQuerystring } }, async (request) => {
      const query = parseListQuery(request.query, { filter: POOL_FILTERS });
      return ok(await preparation.pool(requireUser(request), query, requestLanguage(request)));
    });

    // Paged and filtered as the pool is: one query string for the editor's lists.
    app.get('/editor/held', { config, schema: { tags, querystring: listQuerystring } }, async (request) => {
      const query = parseListQuery(request.query, { filter: POOL_FILTERS });
      return ok(await preparation.held(requireUser(request), query, requestLanguage(request)));
    });

    app.get('/editor/prepared', { config, schema: { tags, querystring: listQuerystring } }, async (request) => {
      const query = parseListQuery(request.query);
      return ok(await preparation.prepared(requireUser(request), query, requestLanguage(request)));
    });

    app.post('/editor/videos/:id/claim', { config, schema: { tags, params: idParams, body: noBody } }, async (request) =>
      ok(await preparation.claim(requireUser(request), request.params.id, request.ip)),
    );

    app.post('/editor/videos/:id/release', { config, schema: { tags, params: idParams, body: fencedBody } }, async (request) =>
      ok(await preparation.release(requireUser(request), request.params.id, request.body.fencingToken, request.ip)),
    );

    app.get('/editor/videos/:id', { config, schema: { tags, params: idParams } }, async (request) =>
      ok(await preparation.detail(requireUser(request), request.params.id, requestLanguage(request))),
    );

    app.put('/editor/videos/:id/trims', { config, schema: { tags, params: idParams, body: saveTrimsBody } }, async (request) =>
      ok(await preparation.saveTrims(requireUser(request), request.params.id, request.body, requestLanguage(request), request.ip)),
    );

    app.put('/editor/videos/:id/phase', { config, schema: { tags, params: idParams, body: setPhaseBody } }, async (request) =>
      ok(await preparation.setPhase(requireUser(request), request.params.id, request.body, requestLanguage(request), request.ip)),
    );

    app.put('/editor/videos/:id/steps', { config, schema: { tags, params: idParams, body: saveStepsBody } }, async (request) =>
      ok(await preparation.saveSteps(requireUser(request), request.params.id, request.body, requestLanguage(request), request.ip)),
    );

    app.post('/editor/videos/:id/submit', { config, schema: { tags, params: idParams, body: fencedBody } }, async (request) =>
      ok(
        await preparation.submit(requireUser(request), request.params.id, request.body.fencingToken, requestLanguage(request), request.ip),
      ),
    );
  };
}
