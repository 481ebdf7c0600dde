import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bestCaseDrawingBody } from '@sutura/domain/drawing';
import { ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { BestCaseDrawingService } from './best-case-drawings.service.ts';

const idParams = z.object({ id: z.uuid() });
const drawingParams = z.object({ id: z.uuid(), drawingId: z.uuid() });

/** Teaching drawings on a best case: read by whoever may watch it, written by administrators. */
export function bestCaseDrawingRoutes(deps: { drawings: BestCaseDrawingService }): FastifyPluginAsyncZod {
  const { drawings } = deps;
  return async (app) => {
    app.get(
      '/best-cases/:id/drawings',
      { config: { access: 'authenticated' }, schema: { tags: ['best-cases'], params: idParams } },
      async (request) => ok(await drawings.list(requireUser(request), request.params.id)),
    );

    app.post(
      '/admin/best-cases/:id/drawings',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: idParams, body: bestCaseDrawingBody } },
      async (request, reply) =>
        reply.status(201).send(ok(await drawings.add(requireUser(request), request.params.id, request.body, request.ip))),
    );

    app.delete(
      '/admin/best-cases/:id/drawings/:drawingId',
      { config: { access: ADMIN_WRITE_ROLES }, schema: { tags: ['best-cases'], params: drawingParams } },
      async (request) => {
        await drawings.remove(requireUser(request), request.params.id, request.params.drawingId, request.ip);
        return ok({});
      },
    );
  };
}
