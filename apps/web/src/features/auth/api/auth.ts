import { useMutation } from '@tanstack/react-query';
import type { LoginBody, Session } from '@sutura/domain/auth';
import type { z } from 'zod';
import type { rppsCheckResponse, signUpBody, signUpResponse } from '@sutura/domain/auth';
import { api } from '@/lib/http';

export type RppsCheck = z.infer<typeof rppsCheckResponse>;
export type SignUpOutput = z.output<typeof signUpBody>;

export function useLogin() {
  return useMutation({ mutationFn: (body: LoginBody) => api<Session>('POST', '/auth', { body }) });
}

export function useSignUp() {
  return useMutation({ mutationFn: (body: SignUpOutput) => api<z.infer<typeof signUpResponse>>('POST', '/users', { body }) });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: (body: { email: string; code: string }) => api<Session>('POST', '/users/verify', { body }) });
}

export function useResendCode() {
  return useMutation({ mutationFn: (email: string) => api<object>('POST', '/users/verify/resend', { body: { email } }) });
}

export function useResetSend() {
  return useMutation({ mutationFn: (email: string) => api<object>('POST', '/users/reset/send', { body: { email } }) });
}

export function useResetCheck() {
  return useMutation({
    mutationFn: (body: { email: string; code: string }) => api<{ valid: boolean }>('POST', '/users/reset/check', { body }),
  });
}

export function useResetCheckAndSet() {
  return useMutation({
    mutationFn: (body: { email: string; code: string; password: string; confirmPassword: string }) =>
      api<object>('POST', '/users/reset/checkAndSet', { body }),
  });
}

export function checkRpps(rpps: string, lastName: string, firstName: string): Promise<RppsCheck> {
  const segment = (value: string) => encodeURIComponent(value.trim());
  return api<RppsCheck>('GET', `/rppsUsers/check/${segment(rpps)}/${segment(lastName)}/${segment(firstName)}`);
}
