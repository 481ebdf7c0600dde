import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AnalysisComment,
  AnalysisDraft,
  CommentBody,
  ExpertWorkspace,
  finalizeAnalysisBody,
  SaveAnalysisBody,
  voiceAdviceSchema,
} from '@sutura/domain/analysis';
import type { ReleaseResponse } from '@sutura/domain/claims';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { expertKeys } from '@/features/analysis/api/expert-lists';

/*
 * The analysis page's calls (docs/analysis-contract.md). Every write carries the fencing token of
 * the claim; a LEASE_LOST answer means the hold is gone and nothing was saved.
 */

export type VoiceAdvice = z.infer<typeof voiceAdviceSchema>;
type FinalizeBody = z.input<typeof finalizeAnalysisBody>;

export const workspaceKey = (lang: string, videoId: string) => [...expertKeys.all, 'workspace', lang, videoId] as const;

export const workspaceOptions = (lang: string, videoId: string) =>
  queryOptions({
    queryKey: workspaceKey(lang, videoId),
    queryFn: () => api<ExpertWorkspace>('GET', `/expert/videos/${videoId}`),
  });

export function useWorkspace(videoId: string) {
  return useQuery(workspaceOptions(currentLanguage(), videoId));
}

/** The draft in the cached workspace follows each answer, so a reload shows what was saved. */
function useDraftWriter(videoId: string) {
  const queryClient = useQueryClient();
  return (update: (draft: AnalysisDraft) => AnalysisDraft) =>
    queryClient.setQueryData<ExpertWorkspace>(workspaceKey(currentLanguage(), videoId), (ws) =>
      ws ? { ...ws, draft: update(ws.draft) } : ws,
    );
}

export const saveAnalysis = (videoId: string, body: SaveAnalysisBody) =>
  api<AnalysisDraft>('PUT', `/expert/videos/${videoId}/analysis`, { body });

/** Autosave and Save: send only the fields that changed. */
export function useSaveAnalysis(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: (body: SaveAnalysisBody) => saveAnalysis(videoId, body),
    onSuccess: (draft) => write(() => draft),
  });
}

/** Submit; an ANALYSIS_UNRATED error lists what is unrated in its details (`unratedPaths`). */
export function useFinalizeAnalysis(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FinalizeBody) => api<AnalysisDraft>('POST', `/expert/videos/${videoId}/finalize`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: expertKeys.all }),
  });
}

/** Abandon: the draft is deleted and the video goes back to the pool. */
export function useAbandonAnalysis(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fencingToken: number) => api<ReleaseResponse>('POST', `/expert/videos/${videoId}/release`, { body: { fencingToken } }),
    // The lists again; the workspace of the video given back is only marked stale: asked again
    // now, while its page closes, the server could only answer that it is no longer ours (404).
    onSuccess: async () => {
      const released = (key: readonly unknown[]) => key[1] === 'workspace' && key[3] === videoId;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: expertKeys.all, predicate: (q) => !released(q.queryKey) }),
        queryClient.invalidateQueries({ queryKey: expertKeys.all, predicate: (q) => released(q.queryKey), refetchType: 'none' }),
      ]);
    },
  });
}

export function useAddComment(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: (body: CommentBody) => api<AnalysisComment>('POST', `/expert/videos/${videoId}/comments`, { body }),
    onSuccess: (comment) => write((draft) => ({ ...draft, comments: [...draft.comments, comment].sort((a, b) => a.start - b.start) })),
  });
}

export function useUpdateComment(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: ({ commentId, body }: { commentId: string; body: CommentBody }) =>
      api<AnalysisComment>('PUT', `/expert/videos/${videoId}/comments/${commentId}`, { body }),
    onSuccess: (comment) =>
      write((draft) => ({
        ...draft,
        comments: draft.comments.map((c) => (c.id === comment.id ? comment : c)).sort((a, b) => a.start - b.start),
      })),
  });
}

export function useDeleteComment(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: async ({ commentId, fencingToken }: { commentId: string; fencingToken: number }) => {
      await api('DELETE', `/expert/videos/${videoId}/comments/${commentId}`, { body: { fencingToken } });
      return commentId;
    },
    onSuccess: (commentId) => write((draft) => ({ ...draft, comments: draft.comments.filter((c) => c.id !== commentId) })),
  });
}

/** The recording as MediaRecorder made it; the server transcodes it to AAC in MP4. */
export function useUploadVoice(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: ({ recording, fencingToken }: { recording: Blob; fencingToken: number }) => {
      const form = new FormData();
      form.append('fencingToken', String(fencingToken));
      form.append('file', recording, `voice.${recording.type.includes('mp4') ? 'm4a' : 'webm'}`);
      return api<VoiceAdvice>('POST', `/expert/videos/${videoId}/voice`, { form });
    },
    onSuccess: (voice) => write((draft) => ({ ...draft, voice })),
  });
}

export function useDeleteVoice(videoId: string) {
  const write = useDraftWriter(videoId);
  return useMutation({
    mutationFn: (fencingToken: number) => api('DELETE', `/expert/videos/${videoId}/voice`, { body: { fencingToken } }),
    onSuccess: () => write((draft) => ({ ...draft, voice: null })),
  });
}
