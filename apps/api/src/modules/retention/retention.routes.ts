import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { legalHoldBody, retentionRulesBody } from '@sutura/domain/retention';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { RetentionService } from './retention.service.ts';
import type { RetentionRulesStore } from './retention-rules.ts';
import type { StorageReportService } from './storage-report.ts';

const idParams = z.object({ id: z.uuid() });
const read = { access: ADMIN_ROLES };
const write = { access: ADMIN_WRITE_ROLES };

/** Retention rules, legal holds and what the storage holds (docs/data-lifecycle.md). */
export function retentionRoutes(deps: {
  retention: RetentionService;
  rules: RetentionRulesStore;
  storageReport: StorageReportService;
}): FastifyPluginAsyncZod {
  const { retention, rules, storageReport } = deps;
  return async (app) => {
    const tags = ['admin'];
    // What each person is told in Settings → Privacy: the rules in force, whoever asks.
    app.get('/retention/summary', { config: { access: 'authenticated' }, schema: { tags: ['retention'] } }, async () =>
      ok(await rules.get()),
    );
    app.get('/admin/retention', { config: read, schema: { tags } }, async (request) => ok(await retention.view(requestLanguage(request))));
    app.put('/admin/retention/rules', { config: write, schema: { tags, body: retentionRulesBody } }, async (request) =>
      ok(await retention.setRules(requireUser(request), request.body, request.ip)),
    );
    app.get('/admin/retention/preview', { config: read, schema: { tags } }, async () => ok(await retention.preview()));
    app.put('/admin/retention/holds/:id', { config: write, schema: { tags, params: idParams, body: legalHoldBody } }, async (request) => {
      await retention.hold(requireUser(request), request.params.id, request.body.reason, request.ip);
      return ok(await retention.holds(requestLanguage(request)));
    });
    app.delete('/admin/retention/holds/:id', { config: write, schema: { tags, params: idParams } }, async (request) => {
      await retention.release(requireUser(request), request.params.id, request.ip);
      return ok(await retention.holds(requestLanguage(request)));
    });
    app.get('/admin/storage', { config: read, schema: { tags } }, async (request) =>
      ok(await storageReport.report(requestLanguage(request))),
    );
  };
}
