import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Session, setNewPasswordBody } from '@sutura/domain/auth';
import type { ErasureReceipt } from '@sutura/domain/data-export';
import type { deleteAccountBody } from '@sutura/domain/users';
import { api } from '@/lib/http';

export type NewPasswordBody = z.output<typeof setNewPasswordBody>;
export type DeleteAccountBody = z.output<typeof deleteAccountBody>;

/** Answers a new session: the server revokes every older token. */
export const changePassword = (body: NewPasswordBody) => api<Session>('POST', '/users/reset/setNewPassword', { body });

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

/**
 * The server checks the confirmation word in the caller's language, which the client sends as
 * `langCode` on every call: the word shown must come from `currentLanguage()` too.
 */
export const deleteAccount = (body: DeleteAccountBody) => api<ErasureReceipt>('POST', '/users/me/delete', { body });

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
