import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { DataExportService } from './data-export.service.ts';

const noBody = z.object({}).strict().nullish();

/** A person's copy of their data: theirs only, whatever their role (docs/personal-data.md). */
export function dataExportRoutes(deps: { dataExport: DataExportService }): FastifyPluginAsyncZod {
  const { dataExport } = deps;
  return async (app) => {
    app.get('/users/me/export', { config: { access: 'authenticated' }, schema: { tags: ['users'] } }, async (request) =>
      ok(await dataExport.latest(requireUser(request))),
    );
    // A second request while one is under way answers that one.
    app.post('/users/me/export', { config: { access: 'authenticated' }, schema: { tags: ['users'], body: noBody } }, async (request) =>
      ok((await dataExport.request(requireUser(request), requestLanguage(request), request.ip)).export),
    );
  };
}
