import type { ApiError, ApiResult } from '@sutura/domain/envelope';
import { isErrorCode, type ErrorCode } from '@/lib/error-codes';
import { STORAGE_KEYS } from '@sutura/domain/limits';
import { serializeQuery, type QueryParams } from '@sutura/domain/query';
import { currentLanguage, i18n } from '@/lib/i18n';

export type { QueryParams };
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const API_BASE = '/v1';

export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: NonNullable<ApiError['details']>;

  constructor(status: number, code: ErrorCode, message: string, details: ApiError['details'] = []) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * The session lives in an httpOnly cookie the server sets, out of reach of any script (not in
 * localStorage as SPEC §9 had it). This header asks the server for that cookie mode and, since a
 * page of another site cannot send it, proves the request comes from the app (docs/security.md).
 */
export const SESSION_HEADERS = { 'X-Sutura-Session': 'cookie' } as const;

/** A token an earlier version kept in localStorage is removed: the cookie replaced it. */
export function forgetStoredToken(): void {
  try {
    localStorage.removeItem(STORAGE_KEYS.token);
  } catch (error) {
    console.error(error);
  }
}

let onUnauthorized: (() => void) | undefined;

/** The session registers how to end itself when the server refuses the stored token. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

function genericError(status = 0): ApiRequestError {
  return new ApiRequestError(status, 'GENERIC', i18n.t('errors:GENERIC'));
}

export async function api<T>(
  method: HttpMethod,
  path: string,
  opts: {
    body?: unknown;
    query?: QueryParams;
    form?: FormData;
    /** Plain parameters of routes that take their own (`?status=flagged`), beside the shared ones of `query`. */
    search?: Record<string, string>;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...SESSION_HEADERS };
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const shared = serializeQuery({ ...opts.query, langCode: currentLanguage() });
  const own = new URLSearchParams(opts.search).toString();
  const url = `${API_BASE}${path}${shared}${own ? `${shared ? '&' : '?'}${own}` : ''}`;

  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin' });
  } catch {
    throw genericError();
  }

  let envelope: ApiResult<T> | undefined;
  try {
    envelope = (await response.json()) as ApiResult<T>;
  } catch {
    envelope = undefined;
  }

  if (!envelope || typeof envelope !== 'object' || !('success' in envelope)) throw genericError(response.status);
  if (!envelope.success) {
    const { code, message, details } = envelope.error;
    // The session ended on the server (expired, revoked elsewhere): not a wrong password.
    if (response.status === 401 && code === 'UNAUTHORIZED') onUnauthorized?.();
    throw new ApiRequestError(response.status, isErrorCode(code) ? code : 'GENERIC', message, details);
  }
  return envelope.data;
}

/** The text to show for any error thrown by a call. */
export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message || i18n.t(`errors:${error.code}`);
  return i18n.t('errors:GENERIC');
}
