import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisagreementList, DisagreementStatus, MoreReviewResponse, ReviewSettings, ReviewSettingsView } from '@sutura/domain/review';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';

export interface DisagreementParams {
  status?: DisagreementStatus;
  surgeryId?: string;
}

const keys = {
  settings: ['admin', 'review-settings'] as const,
  disagreements: ['admin', 'disagreements'] as const,
};

/** The installation's default share of cases reviewed twice and each surgery's own (GET /admin/review-settings). */
export function useReviewSettings() {
  return useQuery({
    queryKey: [...keys.settings, currentLanguage()],
    queryFn: () => api<ReviewSettingsView>('GET', '/admin/review-settings'),
  });
}

function useSettingsMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: keys.settings }) });
}

export const useSetDefaultShare = () =>
  useSettingsMutation((body: ReviewSettings) => api<ReviewSettings>('PUT', '/admin/review-settings', { body }));

/** A surgery's own share, or back to the default with `null`. */
export const useSetSurgeryShare = () =>
  useSettingsMutation(({ id, secondReviewShare }: { id: string; secondReviewShare: number | null }) =>
    api('PUT', `/admin/review-settings/surgeries/${encodeURIComponent(id)}`, { body: { secondReviewShare } }),
  );

/** The flagged cases, newest first (GET /admin/disagreements). */
export function useDisagreements(params: DisagreementParams) {
  const search: Record<string, string> = {};
  if (params.status) search.status = params.status;
  if (params.surgeryId) search.surgeryId = params.surgeryId;
  return useQuery({
    queryKey: [...keys.disagreements, currentLanguage(), params],
    queryFn: () => api<DisagreementList>('GET', '/admin/disagreements', { search }),
    placeholderData: keepPreviousData,
  });
}

/** After an action on a flagged case, the list is read afresh. */
function useDisagreementMutation<V>(call: (vars: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: keys.disagreements }) });
}

/** A third, independent review of a flagged case. */
export const useAskThirdReview = () =>
  useDisagreementMutation((videoId: string) =>
    api<MoreReviewResponse>('POST', `/admin/videos/${encodeURIComponent(videoId)}/reviews`, { body: {} }),
  );

export const useMarkDiscussed = () =>
  useDisagreementMutation(({ videoId, note }: { videoId: string; note: string }) =>
    api('POST', `/admin/disagreements/${encodeURIComponent(videoId)}/discussed`, { body: { note } }),
  );
