import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseListQuery } from '@sutura/domain/query';
import { VOCABULARY_LIST_FILTERS, vocabularyListFilter, type VocabularyListFilter } from '@sutura/domain/vocabularies';
import { ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { requestLanguage } from '../../http/language.ts';
import type { VocabularyService } from './vocabularies.service.ts';

/** Only `filter` and `langCode`: the lists are short and answered whole, in order. */
const querystring = z.object({
  filter: z.string().optional().describe('includeRetired==true: retired terms too, marked retired'),
  langCode: z.string().optional(),
});

/** `filter=includeRetired==true|false`; any other key or value is refused. */
function listFilter(query: Record<string, unknown>): VocabularyListFilter {
  const parsed = vocabularyListFilter.safeParse(parseListQuery(query, { filter: VOCABULARY_LIST_FILTERS }).filter);
  if (!parsed.success) throw new AppError('VALIDATION', {}, [{ path: 'filter.includeRetired', code: 'INVALID_VALUE' }]);
  return parsed.data;
}

export function vocabularyRoutes(deps: { vocabularies: VocabularyService }): FastifyPluginAsyncZod {
  const { vocabularies } = deps;
  return async (app) => {
    const schema = { tags: ['vocabularies'], querystring };
    // Public: the sign-up form needs the specialties before anyone is signed in.
    app.get('/vocabularies/specialties', { config: { access: 'public' }, schema }, async (request) =>
      ok(await vocabularies.specialties(requestLanguage(request), listFilter(request.query))),
    );
    app.get('/vocabularies/organs', { config: { access: 'public' }, schema }, async (request) =>
      ok(await vocabularies.organs(requestLanguage(request), listFilter(request.query))),
    );
    app.get('/vocabularies/surgeries', { config: { access: 'public' }, schema }, async (request) =>
      ok(await vocabularies.surgeries(requestLanguage(request), listFilter(request.query))),
    );
  };
}
