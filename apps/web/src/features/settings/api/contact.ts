import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contactBody } from '@sutura/domain/users';
import { api } from '@/lib/http';

export type ContactBody = z.output<typeof contactBody>;

export const sendContactMessage = (body: ContactBody) => api<Record<string, never>>('POST', '/contact', { body });

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
