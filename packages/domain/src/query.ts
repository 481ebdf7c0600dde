import { isLanguage, type Language } from './i18n.ts';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './limits.ts';

/**
 * The query syntax of SPEC §7: `filter=key==value__key2==value2`, `langCode`, `select`,
 * `populate`, `page`, `limit`, `sort` (`-field` descending, comma-separated). One parser for
 * every route; each route says which fields it accepts and anything else is refused.
 */
export interface QueryFields {
  filter?: readonly string[];
  sort?: readonly string[];
  select?: readonly string[];
  populate?: readonly string[];
}

export interface ListQuery {
  filter: Record<string, string>;
  sort: { field: string; direction: 'asc' | 'desc' }[];
  select: string[];
  populate: string[];
  page: number;
  limit: number;
  langCode?: Language;
  template?: string;
}

export class QueryError extends Error {
  readonly field: string;
  constructor(field: string) {
    super(`Unknown field in the query: ${field}`);
    this.field = field;
  }
}

const KNOWN_PARAMS = new Set(['filter', 'sort', 'select', 'populate', 'page', 'limit', 'langCode', 'template']);

function list(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const raw = Array.isArray(value) ? value.join(',') : String(value);
  return raw
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new QueryError(name);
  return n;
}

export function parseListQuery(query: Record<string, unknown>, fields: QueryFields = {}): ListQuery {
  for (const key of Object.keys(query)) if (!KNOWN_PARAMS.has(key)) throw new QueryError(key);

  const filter: Record<string, string> = {};
  const rawFilter = query.filter === undefined ? '' : String(query.filter);
  if (rawFilter) {
    for (const part of rawFilter.split('__')) {
      const at = part.indexOf('==');
      if (at <= 0) throw new QueryError(part);
      const key = part.slice(0, at);
      if (!fields.filter?.includes(key)) throw new QueryError(key);
      filter[key] = part.slice(at + 2);
    }
  }

  const sort = list(query.sort).map((s) => {
    const direction = s.startsWith('-') ? ('desc' as const) : ('asc' as const);
    const field = s.replace(/^[-+]/, '');
    if (!fields.sort?.includes(field)) throw new QueryError(field);
    return { field, direction };
  });

  const select = list(query.select);
  for (const f of select) if (!fields.select?.includes(f)) throw new QueryError(f);
  const populate = list(query.populate);
  for (const f of populate) if (!fields.populate?.includes(f)) throw new QueryError(f);

  const langCode = query.langCode === undefined ? undefined : String(query.langCode);
  if (langCode !== undefined && !isLanguage(langCode)) throw new QueryError('langCode');

  return {
    filter,
    sort,
    select,
    populate,
    page: positiveInt(query.page, 'page', 1, 1_000_000),
    limit: positiveInt(query.limit, 'limit', PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX),
    ...(langCode ? { langCode } : {}),
    ...(query.template !== undefined ? { template: String(query.template) } : {}),
  };
}

export interface QueryParams {
  filter?: Record<string, string | number | boolean>;
  sort?: string[];
  select?: string[];
  populate?: string[];
  page?: number;
  limit?: number;
  langCode?: Language;
  template?: string;
  /** `GET /v1/videos/{id}/analysis`: null rather than a result that is not to be read yet (analysisResultQuery). */
  ifReady?: boolean;
}

/** The client side of the same syntax. */
export function serializeQuery(params: QueryParams): string {
  const out = new URLSearchParams();
  if (params.filter && Object.keys(params.filter).length)
    out.set(
      'filter',
      Object.entries(params.filter)
        .map(([k, v]) => `${k}==${v}`)
        .join('__'),
    );
  if (params.langCode) out.set('langCode', params.langCode);
  if (params.select?.length) out.set('select', params.select.join(','));
  if (params.populate?.length) out.set('populate', params.populate.join(','));
  if (params.page) out.set('page', String(params.page));
  if (params.limit) out.set('limit', String(params.limit));
  if (params.sort?.length) out.set('sort', params.sort.join(','));
  if (params.template) out.set('template', params.template);
  if (params.ifReady) out.set('ifReady', 'true');
  const s = out.toString();
  return s ? `?${s}` : '';
}
