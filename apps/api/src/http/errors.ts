import { ERRORS, type ErrorCode } from '@sutura/domain/errors';

/** A failure the caller can act on: a stable catalogue code, its status, and message params. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: Record<string, string | number>;
  readonly details: { path: string; code: ErrorCode }[] | undefined;

  constructor(code: ErrorCode, params: Record<string, string | number> = {}, details?: { path: string; code: ErrorCode }[]) {
    super(code);
    this.code = code;
    this.status = ERRORS[code].status;
    this.params = params;
    this.details = details;
  }
}

export const notFound = () => new AppError('NOT_FOUND');
export const forbidden = () => new AppError('FORBIDDEN');
