import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Session } from '@sutura/domain/auth';
import type {
  SsoAdmin,
  SsoCompleteBody,
  SsoIdentity,
  SsoLinkBody,
  SsoOptions,
  SsoPending,
  ssoIdentitiesResponse,
} from '@sutura/domain/sso';
import { api } from '@/lib/http';

export type SsoIdentities = z.infer<typeof ssoIdentitiesResponse>;

/** Where the browser goes to sign in with a provider (a page of the server, not a call). */
export const ssoStartUrl = (providerId: string) => `/v1/auth/sso/${encodeURIComponent(providerId)}/start`;

/** The sign-in services of the installation, and whether a password signs in. */
export function useSsoOptions() {
  return useQuery({ queryKey: ['sso', 'options'], queryFn: () => api<SsoOptions>('GET', '/auth/sso'), staleTime: 5 * 60_000 });
}

export function useSsoPending() {
  return useQuery({ queryKey: ['sso', 'pending'], queryFn: () => api<SsoPending>('GET', '/auth/sso/pending'), retry: false });
}

export function useSsoComplete() {
  return useMutation({ mutationFn: (body: SsoCompleteBody) => api<Session>('POST', '/auth/sso/pending/complete', { body }) });
}

export function useSsoLinkCode() {
  return useMutation({ mutationFn: () => api<{ sent: true }>('POST', '/auth/sso/pending/code', { body: {} }) });
}

export function useSsoLink() {
  return useMutation({ mutationFn: (body: SsoLinkBody) => api<Session>('POST', '/auth/sso/pending/link', { body }) });
}

export function useSsoCancel() {
  return useMutation({ mutationFn: () => api<object>('DELETE', '/auth/sso/pending') });
}

export function useMyIdentities() {
  return useQuery({ queryKey: ['sso', 'identities', 'me'], queryFn: () => api<SsoIdentities>('GET', '/users/profile/me/identities') });
}

export function useRemoveIdentity() {
  return useMutation({ mutationFn: (id: string) => api<SsoIdentities>('DELETE', `/users/profile/me/identities/${id}`) });
}

export function useUserIdentities(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['sso', 'identities', userId],
    queryFn: () => api<SsoIdentities>('GET', `/admin/users/${userId}/identities`),
    enabled,
  });
}

export function useSsoAdmin() {
  return useQuery({ queryKey: ['sso', 'admin'], queryFn: () => api<SsoAdmin>('GET', '/admin/sso') });
}

/** How a linked identity is named to people: its RPPS, else its email, else the provider's subject. */
export function identityLabel(identity: SsoIdentity): string {
  return identity.rpps ?? identity.email ?? identity.subject;
}
