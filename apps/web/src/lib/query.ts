import { QueryClient } from '@tanstack/react-query';

// SPEC §4: the app shell runs queries without retry and without refetching on focus or reconnect.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});
