import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_USER_FILTERS, ADMIN_USER_SORTS, AUDIT_CURSOR_MAX, AUDIT_FILTERS, setActiveBody, setRolesBody } from '@sutura/domain/admin';
import { parseListQuery } from '@sutura/domain/query';
import { ADMIN_ROLES, ADMIN_WRITE_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import { listQuerystring } from '../../http/list-query.ts';
import { authRateLimit } from '../../http/route-helpers.ts';
import type { Audit } from '../audit/audit.service.ts';
import type { AdminService } from './admin.service.ts';
import type { AuditLogService } from './audit-log.service.ts';
import type { StreamingService } from '../streaming/streaming.service.ts';

const idParams = z.object({ id: z.uuid() });
const noBody = z.object({}).strict().nullish();

/**
 * The administration area's calls (docs/admin.md): every read is for ADMIN_ROLES (administrators
 * and copil), every write for ADMIN_WRITE_ROLES (administrators only).
 */
/** The list's query string, and `cursor`: where the page starts (`nextCursor` of the page before). */
const auditQuerystring = listQuerystring.extend({ cursor: z.string().max(AUDIT_CURSOR_MAX).optional() });

export function adminRoutes(deps: {
  admin: AdminService;
  auditLog: AuditLogService;
  audit: Audit;
  rateLimit: number;
  streaming: Pick<StreamingService, 'progress'>;
}): FastifyPluginAsyncZod {
  const { admin, auditLog } = deps;
  const read = { access: ADMIN_ROLES };
  const write = { access: ADMIN_WRITE_ROLES };
  const tags = ['admin'];
  return async (app) => {
    app.get('/admin/counts', { config: read, schema: { tags } }, async () => ok(await admin.counts()));
    app.get('/admin/streaming', { config: read, schema: { tags } }, async () => ok(await deps.streaming.progress()));

    app.get('/admin/users', { config: read, schema: { tags, querystring: listQuerystring } }, async (request) => {
      const query = parseListQuery(request.query, { filter: ADMIN_USER_FILTERS, sort: ADMIN_USER_SORTS });
      return ok(await admin.listUsers(query));
    });

    app.put('/admin/users/:id/roles', { config: write, schema: { tags, params: idParams, body: setRolesBody } }, async (request) =>
      ok(await admin.setRoles(requireUser(request), request.params.id, request.body.roles, request.ip)),
    );

    app.put('/admin/users/:id/active', { config: write, schema: { tags, params: idParams, body: setActiveBody } }, async (request) =>
      ok(await admin.setActive(requireUser(request), request.params.id, request.body.active, request.ip)),
    );

    // The mail's own limits apply (codes.ts); the route is limited as the person's own resend is.
    app.post(
      '/admin/users/:id/validation-mail',
      { config: { ...write, rateLimit: authRateLimit(deps.rateLimit) }, schema: { tags, params: idParams, body: noBody } },
      async (request) => {
        await admin.resendValidation(requireUser(request), request.params.id, request.ip);
        return ok({ sent: true });
      },
    );

    app.get('/admin/audit', { config: read, schema: { tags, querystring: auditQuerystring } }, async (request) => {
      const { cursor, ...rest } = request.query;
      const query = parseListQuery(rest, { filter: AUDIT_FILTERS });
      return ok(await auditLog.list(query, requestLanguage(request), cursor));
    });

    // The same filters as the list, as a CSV file streamed while it is read (newest first).
    app.get('/admin/audit/export', { config: read, schema: { tags, querystring: listQuerystring } }, async (request, reply) => {
      const { filter } = parseListQuery(request.query, { filter: AUDIT_FILTERS });
      auditLog.check(filter);
      const user = requireUser(request);
      const lang = requestLanguage(request);
      await deps.audit(user.id, 'audit.exported', 'audit_log', null, request.ip, { filters: Object.keys(filter) });
      const day = auditLog.today();
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sutura-audit-${day}.csv"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(auditLog.csv(filter, lang)));
    });
  };
}
