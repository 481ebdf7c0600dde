import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataExport } from '@sutura/domain/data-export';
import { api } from '@/lib/http';

export const dataExportQueryKey = ['users', 'me', 'export'] as const;

export const getDataExport = () => api<DataExport | null>('GET', '/users/me/export');

/** Asked again every two seconds while the copy is being made, so that its progress moves. */
export const dataExportQueryOptions = () =>
  queryOptions({
    queryKey: dataExportQueryKey,
    queryFn: getDataExport,
    refetchInterval: (query) => (query.state.data?.status === 'queued' || query.state.data?.status === 'running' ? 2000 : false),
  });

export function useDataExport() {
  return useQuery(dataExportQueryOptions());
}

/** A second request while one is under way answers that one. */
export const requestDataExport = () => api<DataExport>('POST', '/users/me/export', { body: {} });

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (made) => queryClient.setQueryData(dataExportQueryKey, made),
  });
}
