import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import { requestLanguage } from '../../http/language.ts';
import type { VocabularyService } from './vocabularies.service.ts';

export function vocabularyRoutes(deps: { vocabularies: VocabularyService }): FastifyPluginAsyncZod {
  const { vocabularies } = deps;
  return async (app) => {
    // Public: the sign-up form needs the specialties before anyone is signed in.
    app.get('/vocabularies/specialties', { config: { access: 'public' }, schema: { tags: ['vocabularies'] } }, async (request) =>
      ok(await vocabularies.specialties(requestLanguage(request))),
    );
    app.get('/vocabularies/organs', { config: { access: 'public' }, schema: { tags: ['vocabularies'] } }, async (request) =>
      ok(await vocabularies.organs(requestLanguage(request))),
    );
    app.get('/vocabularies/surgeries', { config: { access: 'public' }, schema: { tags: ['vocabularies'] } }, async (request) =>
      ok(await vocabularies.surgeries(requestLanguage(request))),
    );
  };
}
