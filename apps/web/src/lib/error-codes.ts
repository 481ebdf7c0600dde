import type { ErrorCode } from '@sutura/domain/errors';
import codes from 'virtual:error-catalogue/codes';

export type { ErrorCode };

// The codes of the domain's catalogue without its texts, which come with the `errors` namespace
// of the current language only (lib/i18n.ts).
const known: ReadonlySet<string> = new Set(codes);

/** Whether a value is a code of the error catalogue (the web app's `isErrorCode` of the domain). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && known.has(value);
}
