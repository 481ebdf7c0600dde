import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CALIBRATION_FILTERS } from '@sutura/domain/calibration';
import { parseListQuery } from '@sutura/domain/query';
import { ADMIN_ROLES } from '@sutura/domain/roles';
import { requireUser } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { listQuerystring } from '../../http/list-query.ts';
import type { CalibrationService } from './calibration.service.ts';

/**
 * Agreement between experts (docs/agreement.md): the programme's report for the administration
 * (administrators and copil, who read every administration page), and each expert's own view.
 */
export function calibrationRoutes(deps: { calibration: CalibrationService }): FastifyPluginAsyncZod {
  const { calibration } = deps;
  return async (app) => {
    app.get(
      '/admin/calibration',
      { config: { access: ADMIN_ROLES }, schema: { tags: ['admin'], querystring: listQuerystring } },
      async (request) => {
        const { filter } = parseListQuery(request.query, { filter: CALIBRATION_FILTERS });
        return ok(await calibration.programme(filter));
      },
    );
    app.get(
      '/expert/calibration',
      { config: { access: ['expert'] }, schema: { tags: ['analysis'], querystring: listQuerystring } },
      async (request) => {
        const { filter } = parseListQuery(request.query, { filter: CALIBRATION_FILTERS });
        return ok(await calibration.own(requireUser(request).id, filter));
      },
    );
  };
}
