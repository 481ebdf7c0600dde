import type { ErrorCode } from './errors.ts';

export interface ApiError {
  code: ErrorCode;
  message: string;
  /** Field errors of a refused body: the path and the catalogue code and text. */
  details?: { path: string; code: ErrorCode; message: string }[];
}
export type ApiResult<T> = { success: true; data: T } | { success: false; error: ApiError };
