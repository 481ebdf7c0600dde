import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClaimResponse, ReleaseResponse } from '@sutura/domain/claims';
import type { DraftStep, PreparationDetail, PreparationDraft, PreparationPhase, Trim } from '@sutura/domain/preparation';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { editorKeys } from '@/features/preparation/api/editor-keys';

export type { PreparationDetail, PreparationDraft };

const path = (id: string) => `/editor/videos/${encodeURIComponent(id)}`;

export const getPreparation = (id: string) => api<PreparationDetail>('GET', path(id));

export const preparationOptions = (id: string, lang: string) =>
  queryOptions({ queryKey: editorKeys.preparation(id, lang), queryFn: () => getPreparation(id) });

export function usePreparation(id: string) {
  return useQuery(preparationOptions(id, currentLanguage()));
}

export const claimVideo = (id: string) => api<ClaimResponse>('POST', `${path(id)}/claim`, { body: {} });
export const releaseVideo = ({ id, fencingToken }: { id: string; fencingToken: number }) =>
  api<ReleaseResponse>('POST', `${path(id)}/release`, { body: { fencingToken } });

/** A claim or a release changes the pool and the held list: both are fetched again. */
function useEditorMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: editorKeys.all }) });
}

export const useClaimVideo = () => useEditorMutation(claimVideo);
export const useReleaseVideo = () => useEditorMutation(releaseVideo);

export const saveTrims = ({ id, fencingToken, trims }: { id: string; fencingToken: number; trims: Trim[] }) =>
  api<PreparationDraft>('PUT', `${path(id)}/trims`, { body: { fencingToken, trims } });
export const saveSteps = ({ id, fencingToken, steps }: { id: string; fencingToken: number; steps: DraftStep[] }) =>
  api<PreparationDraft>('PUT', `${path(id)}/steps`, { body: { fencingToken, steps } });
export const setPhase = ({ id, fencingToken, phase }: { id: string; fencingToken: number; phase: PreparationPhase }) =>
  api<PreparationDraft>('PUT', `${path(id)}/phase`, { body: { fencingToken, phase } });
export const submitPreparation = ({ id, fencingToken }: { id: string; fencingToken: number }) =>
  api<PreparationDetail>('POST', `${path(id)}/submit`, { body: { fencingToken } });

/** A saved draft becomes the cached preparation, so a reload starts from what the server holds. */
export function useApplyDraft() {
  const queryClient = useQueryClient();
  return (draft: PreparationDraft) =>
    queryClient.setQueryData(editorKeys.preparation(draft.videoId, currentLanguage()), (old: PreparationDetail | undefined) =>
      old
        ? {
            ...old,
            phase: draft.phase,
            trims: draft.trims,
            steps: draft.steps,
            fencingToken: draft.fencingToken,
            leaseEndsAt: draft.leaseEndsAt,
            savedAt: draft.savedAt,
          }
        : old,
    );
}

export const useSetPhase = () => useMutation({ mutationFn: setPhase });

export function useSubmitPreparation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitPreparation,
    onSuccess: (detail) => {
      queryClient.setQueryData(editorKeys.preparation(detail.id, currentLanguage()), detail);
      return queryClient.invalidateQueries({ queryKey: editorKeys.all, refetchType: 'none' });
    },
  });
}
