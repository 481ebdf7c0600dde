import type { FastifyRequest } from 'fastify';
import { isLanguage, languageFromAcceptHeader, DEFAULT_LANGUAGE, type Language } from '@sutura/domain/i18n';

export const LANGUAGE_COOKIE = 'lang';

function cookieLanguage(header: string | undefined): Language | undefined {
  const match = header?.match(/(?:^|;\s*)lang=(fr|en)(?:;|$)/);
  return match?.[1] as Language | undefined;
}

/**
 * The language the app is read in on this request, whatever the person's saved preference: the
 * web app names it in `langCode` on every call (its own choice, or the browser's when the
 * preference is "auto"); else the language cookie, else Accept-Language. Undefined when the
 * request says nothing about it.
 */
export function usedLanguage(request: FastifyRequest): Language | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  if (isLanguage(query?.langCode)) return query.langCode;
  return cookieLanguage(request.headers.cookie) ?? languageFromAcceptHeader(request.headers['accept-language']);
}

/**
 * The caller's language: `langCode` in the query, then the signed-in person's preference,
 * then the language an anonymous visitor saved, then Accept-Language, then French.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.langCode;
  if (isLanguage(fromQuery)) return fromQuery;
  const preferred = request.user?.preferences.langCode;
  if (isLanguage(preferred)) return preferred;
  return cookieLanguage(request.headers.cookie) ?? languageFromAcceptHeader(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
}
