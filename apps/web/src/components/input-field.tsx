import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isErrorCode } from '@/lib/error-codes';
import type { ApiRequestError } from '@/lib/http';

// The first screens' text fields live in text-input.tsx, without a form library.
export { useFieldErrorText } from '@/components/text-input';

/**
 * Puts the field errors of a refused body on the form's fields. Returns whether any was placed,
 * so the caller shows the general message only when none was.
 */
export function applyApiFieldErrors<T extends FieldValues>(error: ApiRequestError, setError: UseFormSetError<T>): boolean {
  let placed = false;
  for (const detail of error.details ?? []) {
    if (!detail.path) continue;
    setError(detail.path as FieldPath<T>, { type: 'server', message: isErrorCode(detail.code) ? detail.code : detail.message });
    placed = true;
  }
  return placed;
}
