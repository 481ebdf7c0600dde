import { z } from 'zod';

/**
 * The query string of SPEC §7 as the OpenAPI document shows it; `parseListQuery` then checks
 * each route's own fields.
 */
export const listQuerystring = z.object({
  filter: z.string().optional().describe('key==value pairs joined with __'),
  sort: z.string().optional().describe('comma-separated fields, -field for descending'),
  select: z.string().optional(),
  populate: z.string().optional(),
  page: z.string().optional(),
  limit: z.string().optional(),
  langCode: z.string().optional(),
  template: z.string().optional(),
});
