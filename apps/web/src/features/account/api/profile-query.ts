import { queryOptions } from '@tanstack/react-query';
import type { Profile } from '@sutura/domain/users';
import { api } from '@/lib/http';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query';

// Apart from the profile's writes (profile.ts): the route asks for it from the app's first chunk,
// which then loads no mutation code.

/** Same key as the settings feature's e-mail settings, which read the same profile. */
export const profileQueryKey = ['users', 'profile', 'me'] as const;

export const getProfile = () => api<Profile>('GET', '/users/profile/me');

// Asked for the page's opening (prefetchAccountPage): not asked again as it mounts a moment later.
export const profileQueryOptions = () => queryOptions({ queryKey: profileQueryKey, queryFn: getProfile, staleTime: 5_000 });

/**
 * The account page's profile and texts, asked as soon as its address is known (with the page's
 * code and the session) rather than once the page has drawn a skeleton: it then draws whole.
 */
export function prefetchAccountPage(): Promise<unknown> {
  return Promise.all([i18n.loadNamespaces(['account', 'programmes']), queryClient.prefetchQuery(profileQueryOptions())]);
}
