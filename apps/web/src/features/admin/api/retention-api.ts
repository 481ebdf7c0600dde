import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LegalHold, RetentionPreview, RetentionRules, RetentionView, StorageReport } from '@sutura/domain/retention';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

const keys = {
  retention: ['admin', 'retention'] as const,
  preview: ['admin', 'retention', 'preview'] as const,
  storage: ['admin', 'storage'] as const,
};

/** The rules in force, their defaults, the legal holds and the last run (GET /admin/retention). */
export function useRetention() {
  return useQuery({ queryKey: [...keys.retention, currentLanguage()], queryFn: () => api<RetentionView>('GET', '/admin/retention') });
}

/** What the next run would delete (GET /admin/retention/preview): a dry run, nothing is deleted. */
export function useRetentionPreview() {
  return useQuery({ queryKey: keys.preview, queryFn: () => api<RetentionPreview>('GET', '/admin/retention/preview'), enabled: false });
}

function useRetentionMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    // A hold shows in the list of cases too.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.retention }),
        client.invalidateQueries({ queryKey: ['admin', 'surgery-videos'] }),
      ]),
  });
}

export const useSetRetentionRules = () =>
  useRetentionMutation((body: RetentionRules) => api<RetentionRules>('PUT', '/admin/retention/rules', { body }));

export const useHoldCase = () =>
  useRetentionMutation(({ videoId, reason }: { videoId: string; reason: string }) =>
    api<LegalHold[]>('PUT', `/admin/retention/holds/${encodeURIComponent(videoId)}`, { body: { reason } }),
  );

export const useReleaseHold = () =>
  useRetentionMutation((videoId: string) => api<LegalHold[]>('DELETE', `/admin/retention/holds/${encodeURIComponent(videoId)}`));

/** What the storage holds (GET /admin/storage). */
export function useStorageReport() {
  return useQuery({ queryKey: [...keys.storage, currentLanguage()], queryFn: () => api<StorageReport>('GET', '/admin/storage') });
}
