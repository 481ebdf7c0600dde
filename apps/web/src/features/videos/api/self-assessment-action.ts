import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveSelfAssessmentBody, SelfAssessment } from '@sutura/domain/self-assessment';
import { api } from '@/lib/http';
import { currentLanguage } from '@/lib/i18n';
import { selfAssessmentOptions, selfAssessmentPath } from '@/features/videos/api/self-assessment';

// The author's answer, apart from the self-assessment's read (self-assessment.ts), which the app's
// first chunk carries for a case page opened first.

/** Rate or skip: the answer replaces the cached self-assessment, then the case's parts are asked again. */
export function useSelfAssessmentAction(videoId: string, status: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'save'; body: SaveSelfAssessmentBody } | { kind: 'skip' }) =>
      action.kind === 'save'
        ? api<SelfAssessment>('PUT', selfAssessmentPath(videoId), { body: action.body })
        : api<SelfAssessment>('POST', `${selfAssessmentPath(videoId)}/skip`, { body: {} }),
    onSuccess: (data) => {
      queryClient.setQueryData(selfAssessmentOptions(videoId, currentLanguage(), status).queryKey, data);
    },
  });
}
